/* memcheck's memory of launches: the recent launches by id (their callsite and stream, for the
 * findings the device reports later; instrumented ones are also kept until they are read,
 * memcheck_unread.c) and per-kernel counters behind the closing note
 * "kernels checked 214/214, launches instrumented 1,204/81,000". */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck.h"
#include "tools/memcheck/memcheck_windows.h"

void mc_on_launch(mc_state *s, const cc_ev_launch *l)
{
    s->nlaunches++;
    mc_launch *slot = &s->launches[l->launch_id % MC_LAUNCH_RING];
    slot->launch_id = l->launch_id;
    slot->callsite = l->callsite;
    slot->stream = l->stream;
    slot->module = l->module;
    slot->alloc_mark = cc_allocmap_clock(s->allocs);
    slot->held = 0;
    if (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) {
        mc_launch unread = *slot;
        unread.held = cc_allocmap_hold(s->allocs, &unread.alloc_mark) == 0;
        mc_unread_add(s, &unread);
    }
    /* launches that ran checked, by the hash of the kernel's name; NULL: table full */
    uint64_t *checked = cc_hashmap_get_or_add(&s->kernels, cc_hash_str(l->name ? l->name : ""),
                                              0, NULL);
    if (checked == NULL) {
        s->kernels_overflow++;
    }
    if (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) {
        s->ninstrumented++;
        if (checked != NULL && (*checked)++ == 0) {
            s->nkernels_checked++;
        }
    }
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

/* 1234567 -> "1,234,567" */
static void grouped(uint64_t v, char *out, size_t len)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 1 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0 && o + 2 < len) {
            out[o++] = ',';
        }
        out[o++] = digits[i];
    }
    out[o] = '\0';
}

void mc_write_note(mc_state *s)
{
    char kc[32], kn[32], li[32], ln[32], note[512];
    grouped(s->nkernels_checked, kc, sizeof kc);
    grouped(s->kernels.count, kn, sizeof kn);
    grouped(s->ninstrumented, li, sizeof li);
    grouped(s->nlaunches, ln, sizeof ln);
    snprintf(note, sizeof note,
             "memcheck (%s mode): kernels checked %s/%s, launches instrumented %s/%s; "
             "%" PRIu64 " copies and %" PRIu64 " memsets range-checked",
             s->adaptive ? "adaptive" : "full", kc, kn, li, ln, s->copies_checked,
             s->memsets_checked);
    s->host->note(s->host, note);
    if (s->ninstrumented > 0) {
        /* What the device's local check leaves out (docs/memcheck.md, "Local window"). */
        snprintf(note, sizeof note,
                 "memcheck: local accesses are checked against each thread's stack window; not "
                 "checked: up to %u bytes above a thread's frames, up to %u bytes below the "
                 "bottom of its stack, stack it has not reached yet, and local memory reached "
                 "through a generic pointer", CC_MC_LOCAL_TOP_RESERVE, CC_MC_LOCAL_BOTTOM_SLACK);
        s->host->note(s->host, note);
    }
    if (s->kernels_overflow) {
        snprintf(note, sizeof note, "memcheck: more than %d distinct kernels; %" PRIu64
                 " launches were not counted per kernel", MC_KERNEL_TABLE, s->kernels_overflow);
        s->host->note(s->host, note);
    }
}

void mc_stack(mc_state *s, uint64_t callsite, uint32_t *n, const cc_stack_frame **frames)
{
    const cc_ev_host_stack *st = callsite ? s->host->stack(s->host, callsite) : NULL;
    *n = st ? st->nframes : 0;
    *frames = st ? st->frames : NULL;
}
