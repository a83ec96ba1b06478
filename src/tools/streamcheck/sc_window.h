/* streamcheck's --launch-skip / --launch-count: which kernel launches have their accesses
 * checked. Launches are counted in the order their CC_EV_LAUNCH events arrive (graph nodes
 * included); a launch outside the window still orders the work around it, but its CC_EV_ACCESS
 * events are not given to the happens-before engine, so it is no side of a race. */
#ifndef CUCHECK_TOOLS_STREAMCHECK_SC_WINDOW_H
#define CUCHECK_TOOLS_STREAMCHECK_SC_WINDOW_H

#include <stdint.h>
#include "cucheck/event.h"
#include "core/hashmap.h"

typedef struct sc_window {
    uint64_t skip, count;  /* the options; both 0: every launch is checked */
    uint64_t seen;         /* kernel launches so far */
    uint64_t left_out;     /* launches outside the window */
    cc_hashmap outside;    /* launch_id -> 1 for launches outside the window */
} sc_window;

void sc_window_init(sc_window *w, uint64_t skip, uint64_t count);
void sc_window_free(sc_window *w);
/* 1 when the event goes on to the engine, 0 when it is an access of a launch outside the
 * window. Counts launches as they come. */
int sc_window_pass(sc_window *w, const cc_event *ev);

#endif
