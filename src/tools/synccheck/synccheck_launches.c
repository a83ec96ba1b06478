/* synccheck's memory of launches: the recent launches by id, and every instrumented launch until
 * CC_EV_LAUNCH_CHECKED says its device results were all read (the agent reads them back late,
 * so many launches may come between a launch and its findings): their callsite and stream. The
 * checked-launches counters (tools/checked_launches.h) feed the closing note "synccheck
 * (adaptive mode): kernels checked 3/4, launches instrumented 6/1,200", which says plainly when
 * nothing ran with synchronization checks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/synccheck/synccheck.h"

static void unread_add(sy_state *s, const sy_launch *l)
{
    if (s->nunread >= SY_UNREAD_MAX) { /* forget the oldest half at once */
        size_t drop = s->nunread / 2;
        memmove(s->unread, s->unread + drop, (s->nunread - drop) * sizeof *s->unread);
        s->nunread -= drop;
        s->unread_dropped += drop;
    }
    sy_launch *slot = CC_ARRAY_PUSH(s->unread, s->nunread, s->unread_cap);
    if (slot != NULL) {
        *slot = *l;
    }
}

void sy_on_launch(sy_state *s, const cc_ev_launch *l)
{
    sy_launch *slot = &s->launches[l->launch_id % SY_LAUNCH_RING];
    slot->launch_id = l->launch_id;
    slot->callsite = l->callsite;
    slot->stream = l->stream;
    int instrumented = (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) != 0;
    if (instrumented && l->launch_id != 0) {
        unread_add(s, slot);
    }
    cc_checked_launches_add(&s->checked, l->name, instrumented);
}

void sy_on_launch_checked(sy_state *s, const cc_ev_launch_checked *c)
{
    uint64_t first = c->launch_id;
    uint64_t last = c->last_id > first ? c->last_id : first;
    if (first == 0) {
        return;
    }
    size_t w = 0;
    for (size_t r = 0; r < s->nunread; r++) {
        uint64_t id = s->unread[r].launch_id;
        if (id >= first && id <= last) {
            if (c->result == CC_CHECKED_LOST) {
                s->nlost++;
            } else {
                s->nchecked++;
            }
        } else {
            s->unread[w++] = s->unread[r];
        }
    }
    s->nunread = w;
}

const sy_launch *sy_find_launch(const sy_state *s, uint64_t launch_id)
{
    if (launch_id == 0) {
        return NULL;
    }
    for (size_t i = 0; i < s->nunread; i++) {
        if (s->unread[i].launch_id == launch_id) {
            return &s->unread[i];
        }
    }
    const sy_launch *slot = &s->launches[launch_id % SY_LAUNCH_RING];
    return slot->launch_id == launch_id ? slot : NULL;
}

void sy_write_note(sy_state *s)
{
    char checked[160], note[512];
    cc_checked_launches_summary(&s->checked, checked, sizeof checked);
    snprintf(note, sizeof note, "synccheck (%s mode): %s; %" PRIu64 " misuse(s) reported in "
             "%" PRIu64 " event(s)", s->adaptive ? "adaptive" : "full", checked, s->occurrences,
             s->sync_events);
    s->host->note(s->host, note);
    if (s->checked.ninstrumented == 0 && s->checked.nlaunches > 0) {
        s->host->note(s->host, "synccheck: no launch ran with synchronization checks, so nothing "
                               "was checked: no findings here does not mean the kernels use "
                               "barriers correctly");
    }
    if (s->nunread > 0 || s->nlost > 0 || s->unread_dropped > 0) {
        snprintf(note, sizeof note, "synccheck: the device results of %" PRIu64 " instrumented "
                 "launch(es) were not all read (%zu not read by the end, %" PRIu64 " lost with "
                 "their context, %" PRIu64 " forgotten unread): misuses in them may be missing",
                 (uint64_t)s->nunread + s->nlost + s->unread_dropped, s->nunread, s->nlost,
                 s->unread_dropped);
        s->host->note(s->host, note);
    }
    if (cc_checked_launches_overflow_note(&s->checked, "synccheck", note, sizeof note)) {
        s->host->note(s->host, note);
    }
    if (s->folds.unfolded) {
        snprintf(note, sizeof note, "synccheck: more than %d distinct misuses; %" PRIu64
                 " occurrences were reported without folding", SY_FOLD_MAX, s->folds.unfolded);
        s->host->note(s->host, note);
    }
}

void sy_launches_free(sy_state *s)
{
    free(s->unread);
    s->unread = NULL;
    s->nunread = s->unread_cap = 0;
}
