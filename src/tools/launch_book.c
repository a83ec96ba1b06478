/* The launches an instrumenting tool remembers for its findings (launch_book.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/launch_book.h"

void cc_launch_book_init(cc_launch_book *b)
{
    memset(b, 0, sizeof *b);
    cc_checked_launches_init(&b->checked);
}

void cc_launch_book_free(cc_launch_book *b)
{
    free(b->unread);
    b->unread = NULL;
    b->nunread = b->unread_cap = 0;
    cc_checked_launches_free(&b->checked);
}

static void unread_add(cc_launch_book *b, const cc_book_launch *l)
{
    if (b->nunread >= CC_LAUNCH_BOOK_UNREAD_MAX) { /* forget the oldest half at once */
        size_t drop = b->nunread / 2;
        memmove(b->unread, b->unread + drop, (b->nunread - drop) * sizeof *b->unread);
        b->nunread -= drop;
        b->unread_dropped += drop;
    }
    cc_book_launch *slot = CC_ARRAY_PUSH(b->unread, b->nunread, b->unread_cap);
    if (slot != NULL) {
        *slot = *l;
    }
}

void cc_launch_book_on_launch(cc_launch_book *b, const cc_ev_launch *l)
{
    cc_book_launch *slot = &b->recent[l->launch_id % CC_LAUNCH_BOOK_RING];
    slot->launch_id = l->launch_id;
    slot->callsite = l->callsite;
    slot->stream = l->stream;
    int instrumented = (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) != 0;
    if (instrumented && l->launch_id != 0) {
        unread_add(b, slot);
    }
    cc_checked_launches_add(&b->checked, l->name, instrumented);
}

void cc_launch_book_on_checked(cc_launch_book *b, const cc_ev_launch_checked *c)
{
    uint64_t first = c->launch_id;
    uint64_t last = c->last_id > first ? c->last_id : first;
    if (first == 0) {
        return;
    }
    size_t w = 0;
    for (size_t r = 0; r < b->nunread; r++) {
        uint64_t id = b->unread[r].launch_id;
        if (id >= first && id <= last) {
            if (c->result == CC_CHECKED_LOST) {
                b->nlost++;
            } else {
                b->nchecked++;
            }
        } else {
            b->unread[w++] = b->unread[r];
        }
    }
    b->nunread = w;
}

const cc_book_launch *cc_launch_book_find(const cc_launch_book *b, uint64_t launch_id)
{
    if (launch_id == 0) {
        return NULL;
    }
    for (size_t i = 0; i < b->nunread; i++) {
        if (b->unread[i].launch_id == launch_id) {
            return &b->unread[i];
        }
    }
    const cc_book_launch *slot = &b->recent[launch_id % CC_LAUNCH_BOOK_RING];
    return slot->launch_id == launch_id ? slot : NULL;
}

int cc_launch_book_unread_note(const cc_launch_book *b, const char *tool, const char *what,
                               char *out, size_t len)
{
    if (b->nunread == 0 && b->nlost == 0 && b->unread_dropped == 0) {
        return 0;
    }
    snprintf(out, len, "%s: the device results of %" PRIu64 " instrumented launch(es) were not "
             "all read (%zu not read by the end, %" PRIu64 " lost with their context, %" PRIu64
             " forgotten unread): %s in them may be missing", tool,
             (uint64_t)b->nunread + b->nlost + b->unread_dropped, b->nunread, b->nlost,
             b->unread_dropped, what);
    return 1;
}
