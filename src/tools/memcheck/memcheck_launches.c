/* memcheck's memory of launches: the recent launches by id (their callsite and stream, for the
 * findings the device reports later; instrumented ones are also kept until they are read,
 * memcheck_unread.c), counted in tools/checked_launches.h for the closing note
 * "kernels checked 214/214, launches instrumented 1,204/81,000". */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck.h"
#include "tools/memcheck/memcheck_windows.h"

void mc_on_launch(mc_state *s, const cc_ev_launch *l)
{
    mc_launch *slot = &s->launches[l->launch_id % MC_LAUNCH_RING];
    slot->launch_id = l->launch_id;
    slot->callsite = l->callsite;
    slot->stream = l->stream;
    slot->module = l->module;
    slot->device = l->device;
    slot->alloc_mark = cc_allocmap_clock(s->allocs);
    slot->held = 0;
    if (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) {
        mc_launch unread = *slot;
        unread.held = cc_allocmap_hold(s->allocs, &unread.alloc_mark) == 0;
        mc_unread_add(s, &unread);
    }
    cc_checked_launches_add(&s->checked, l->name, (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) != 0);
    s->repeats += (l->flags & CC_LAUNCH_FLAG_REPEAT) != 0;
}

const mc_launch *mc_find_launch(const mc_state *s, uint64_t launch_id)
{
    const mc_launch *unread = mc_unread_find(s, launch_id);
    if (unread != NULL) {
        return unread;
    }
    const mc_launch *slot = &s->launches[launch_id % MC_LAUNCH_RING];
    return launch_id != 0 && slot->launch_id == launch_id ? slot : NULL;
}

void mc_write_note(mc_state *s)
{
    char checked[160], repeats[160] = "", note[512];
    cc_checked_launches_summary(&s->checked, checked, sizeof checked);
    if (s->repeats > 0) {
        snprintf(repeats, sizeof repeats, " (%" PRIu64 " more repeated a checked launch's "
                 "arguments and allocations: counted as checks, run unchecked)", s->repeats);
    }
    snprintf(note, sizeof note,
             "memcheck (%s mode): %s%s; %" PRIu64 " copies and %" PRIu64 " memsets range-checked",
             s->adaptive ? "adaptive" : "full", checked, repeats, s->copies_checked,
             s->memsets_checked);
    s->host->note(s->host, note);
    if (s->checked.ninstrumented > 0) {
        /* What the device's local check leaves out (docs/memcheck.md, "Local window"). */
        snprintf(note, sizeof note,
                 "memcheck: local accesses are checked against each thread's stack window; not "
                 "checked: up to %u bytes above a thread's frames, up to %u bytes below the "
                 "bottom of its stack, stack it has not reached yet, and local memory reached "
                 "through a generic pointer", CC_MC_LOCAL_TOP_RESERVE, CC_MC_LOCAL_BOTTOM_SLACK);
        s->host->note(s->host, note);
    }
    if (cc_checked_launches_overflow_note(&s->checked, "memcheck", note, sizeof note)) {
        s->host->note(s->host, note);
    }
}

void mc_stack(mc_state *s, uint64_t callsite, uint32_t *n, const cc_stack_frame **frames)
{
    const cc_ev_host_stack *st = callsite ? s->host->stack(s->host, callsite) : NULL;
    *n = st ? st->nframes : 0;
    *frames = st ? st->frames : NULL;
}
