/* memcheck's unread launches: a launch that ran with device checks (CC_LAUNCH_FLAG_INSTRUMENTED)
 * is read back by the agent late (at the program's synchronizations, when slots run short, at
 * exit), so thousands of launches and frees may come before its findings. Such a launch is kept
 * here, with its callsite, stream and a hold on the allocation map's clock (the allocations live
 * at the launch stay known), until CC_EV_LAUNCH_CHECKED says every result of it came. Launches
 * without device checks never enter; the agent's slots bound the rest, and MC_UNREAD_MAX bounds
 * a stream that never says a launch was read. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/memcheck/memcheck.h"

static void release(mc_state *s, const mc_launch *l)
{
    if (l->held) {
        cc_allocmap_release(s->allocs, l->alloc_mark);
    }
    mc_suballoc_release(s, l);
}

/* Forget the oldest half at once (amortized O(1) per launch). */
static void drop_oldest(mc_state *s)
{
    size_t drop = s->nunread / 2;
    for (size_t i = 0; i < drop; i++) {
        release(s, &s->unread[i]);
    }
    memmove(s->unread, s->unread + drop, (s->nunread - drop) * sizeof *s->unread);
    s->nunread -= drop;
    s->unread_dropped += drop;
}

void mc_unread_add(mc_state *s, const mc_launch *l)
{
    if (s->nunread >= MC_UNREAD_MAX) {
        drop_oldest(s);
    }
    mc_launch *slot = CC_ARRAY_PUSH(s->unread, s->nunread, s->unread_cap);
    if (slot == NULL) {
        release(s, l); /* kept in the recent ring only */
        return;
    }
    *slot = *l;
}

/* Oldest first: the agent reads launches back in launch order. */
static size_t index_of(const mc_state *s, uint64_t launch_id)
{
    for (size_t i = 0; i < s->nunread; i++) {
        if (s->unread[i].launch_id == launch_id) {
            return i;
        }
    }
    return s->nunread;
}

void mc_unread_checked(mc_state *s, const cc_ev_launch_checked *c)
{
    uint64_t first = c->launch_id;
    uint64_t last = c->last_id > first ? c->last_id : first;
    if (first == 0) {
        return;
    }
    if (last == first) {
        size_t i = index_of(s, first);
        if (i < s->nunread) {
            release(s, &s->unread[i]);
            memmove(&s->unread[i], &s->unread[i + 1], (s->nunread - i - 1) * sizeof *s->unread);
            s->nunread--;
        }
        return;
    }
    /* A run read together: every unread launch in it goes, the rest keep their order. */
    size_t w = 0;
    for (size_t r = 0; r < s->nunread; r++) {
        uint64_t id = s->unread[r].launch_id;
        if (id >= first && id <= last) {
            release(s, &s->unread[r]);
        } else {
            s->unread[w++] = s->unread[r];
        }
    }
    s->nunread = w;
}

const mc_launch *mc_unread_find(const mc_state *s, uint64_t launch_id)
{
    size_t i = index_of(s, launch_id);
    return launch_id != 0 && i < s->nunread ? &s->unread[i] : NULL;
}

void mc_unread_note(mc_state *s)
{
    if (s->unread_dropped == 0) {
        return;
    }
    char note[384];
    snprintf(note, sizeof note, "memcheck: %" PRIu64 " checked launch(es) were forgotten "
             "unread: more than %d waited at once for the event that says a launch's device "
             "results were read (launch_checked); findings read back for them may lack the "
             "launch's host stack", s->unread_dropped, MC_UNREAD_MAX);
    s->host->note(s->host, note);
}

void mc_unread_free(mc_state *s)
{
    free(s->unread);
    s->unread = NULL;
    s->nunread = s->unread_cap = 0;
}
