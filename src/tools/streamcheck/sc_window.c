/* The launch window of streamcheck's --launch-skip / --launch-count (sc_window.h). */
#include "tools/streamcheck/sc_window.h"

#include <string.h>

void sc_window_init(sc_window *w, uint64_t skip, uint64_t count)
{
    memset(w, 0, sizeof *w);
    cc_hashmap empty = CC_HASHMAP_INIT;
    w->outside = empty;
    w->skip = skip;
    w->count = count;
}

void sc_window_free(sc_window *w)
{
    cc_hashmap_free(&w->outside);
}

int sc_window_pass(sc_window *w, const cc_event *ev)
{
    if (w->skip == 0 && w->count == 0) {
        return 1;
    }
    if (ev->h.kind == CC_EV_LAUNCH) {
        w->seen++;
        int inside = w->seen > w->skip && (w->count == 0 || w->seen - w->skip <= w->count);
        if (!inside) {
            w->left_out++;
            (void)cc_hashmap_put(&w->outside, ev->u.launch.launch_id, 1);
        }
        return 1;
    }
    if (ev->h.kind == CC_EV_ACCESS && ev->u.access.launch_id != 0 &&
        !(ev->u.access.flags & CC_ACCESS_FLAG_HOST_FUNC)) {
        return cc_hashmap_get(&w->outside, ev->u.access.launch_id) == NULL;
    }
    return 1;
}
