/* Turns an issue of the happens-before engine into a streamcheck finding: both sides of the race
 * (operation, stream, read or write, byte range, host stack), the allocation (and its stack),
 * and the fix, which is also spelled out in the message. */
#include "tools/streamcheck/sc_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/kernel_name.h"

static void stack_of(cc_tool_host *host, uint64_t callsite, uint32_t *n,
                     const cc_stack_frame **frames)
{
    const cc_ev_host_stack *st = callsite ? host->stack(host, callsite) : NULL;
    *n = st ? st->nframes : 0;
    *frames = st ? st->frames : NULL;
}

/* A kernel side is named by its kernel (demangled, the mangled name kept); any other operation
 * by what it is ("memcpy (HtoD)", "ncclAllReduce"). */
static void device_loc(cc_device_loc *d, const cc_hb_side *s, const char *shortname,
                       cc_demangle_cache *names)
{
    memset(d, 0, sizeof *d);
    d->valid = CC_DLOC_KERNEL;
    if (s->op->kind == CC_HB_OP_KERNEL) cc_kernel_loc_name(d, names, s->op->name);
    else d->kernel = shortname;
    d->launch_id = s->op->kind == CC_HB_OP_KERNEL ? s->op->id : 0;
    d->stream = s->op->stream;
    if (s->flags) {
        d->valid |= CC_DLOC_ADDRESS;
        d->address = s->lo;
        uint64_t n = s->hi - s->lo;
        d->size = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
        d->access = sc_access_kind(s->flags);
        int device = s->op->kind == CC_HB_OP_KERNEL || s->op->kind == CC_HB_OP_COLLECTIVE;
        d->space = device ? CC_SPACE_GLOBAL : CC_SPACE_HOST;
    }
}

static const char *kind_name(uint32_t kind)
{
    switch (kind) {
    case CC_HB_ISSUE_USE_AFTER_FREE: return "use-after-free-async";
    case CC_HB_ISSUE_USE_BEFORE_ALLOC: return "use-before-alloc";
    default: return "race";
    }
}

static void side_text(char *buf, size_t len, const cc_hb_side *s, cc_demangle_cache *names,
                      int show_device)
{
    char d[640];
    sc_op_describe(d, sizeof d, s->op, names, show_device);
    if (s->flags)
        snprintf(buf, len, "%s %s [0x%" PRIx64 ", 0x%" PRIx64 ")", d, sc_access_verb(s->flags),
                 s->lo, s->hi);
    else snprintf(buf, len, "%s", d);
}

static void headline(char *buf, size_t len, const cc_hb_issue *is, const char *cur,
                     const char *prev, const char *alloc)
{
    uint64_t n = is->hi - is->lo;
    switch (is->kind) {
    case CC_HB_ISSUE_USE_AFTER_FREE:
        if (is->cur.op->seq < is->prev.op->seq)
            snprintf(buf, len, "%s is not ordered before the %s that frees %s, so the memory "
                     "may be freed while it is in use", cur, prev, alloc);
        else
            snprintf(buf, len, "%s uses %s after %s freed it", cur, alloc, prev);
        return;
    case CC_HB_ISSUE_USE_BEFORE_ALLOC:
        snprintf(buf, len, "%s is not ordered after the %s that allocates %s, so it may run "
                 "before the memory exists", cur, prev, alloc);
        return;
    case CC_HB_ISSUE_FREE_IN_USE:
        snprintf(buf, len, "%s frees %s while %s may still run (not ordered before the free)",
                 prev, alloc, cur);
        return;
    default:
        snprintf(buf, len, "race on %" PRIu64 " byte%s at 0x%" PRIx64 " in %s: %s, and %s; "
                 "neither is ordered before the other", n, n == 1 ? "" : "s", is->lo, alloc,
                 cur, prev);
        return;
    }
}

void sc_report_issue(cc_tool_host *host, const cc_hb_issue *is, cc_demangle_cache *names)
{
    char cur[1024], prev[1024], alloc[256], fix[1024], head[3200], msg[4400];
    char cur_short[256], prev_short[256], prev_msg[1100], alloc_msg[512];
    side_text(cur, sizeof cur, &is->cur, names, is->multi_device);
    side_text(prev, sizeof prev, &is->prev, names, is->multi_device);
    sc_alloc_describe(alloc, sizeof alloc, is->alloc);
    sc_fix(fix, sizeof fix, is, names);
    headline(head, sizeof head, is, cur, prev, alloc);
    snprintf(msg, sizeof msg, "%s. Fix: %s", head, fix);
    sc_op_short(cur_short, sizeof cur_short, is->cur.op, names);
    sc_op_short(prev_short, sizeof prev_short, is->prev.op, names);

    cc_related rel[3];
    memset(rel, 0, sizeof rel);
    int prev_is_access = is->kind == CC_HB_ISSUE_RACE;
    rel[0].role = prev_is_access ? "previous access"
                 : is->kind == CC_HB_ISSUE_USE_BEFORE_ALLOC ? "stream-ordered allocation"
                                                            : "free";
    snprintf(prev_msg, sizeof prev_msg, "%s", prev);
    rel[0].message = prev_msg;
    rel[0].has_device = 1;
    device_loc(&rel[0].device, &is->prev, prev_short, names);
    stack_of(host, is->prev.op->callsite, &rel[0].nframes, &rel[0].frames);

    rel[1].role = "allocation";
    if (is->alloc) {
        char sn[96] = "";
        if (is->alloc->mem_kind == CC_MEM_DEVICE_ASYNC) {
            char s[80];
            sc_stream_name(s, sizeof s, is->alloc->stream, 0,
                           is->multi_device ? is->alloc->device : -1);
            snprintf(sn, sizeof sn, " on %s", s);
        }
        snprintf(alloc_msg, sizeof alloc_msg, "%s%s", alloc, sn);
        stack_of(host, is->alloc->callsite, &rel[1].nframes, &rel[1].frames);
    } else {
        snprintf(alloc_msg, sizeof alloc_msg, "%s", alloc);
    }
    rel[1].message = alloc_msg;
    rel[2].role = "fix";
    rel[2].message = fix;

    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "streamcheck";
    f.kind = kind_name(is->kind);
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    device_loc(&f.device, &is->cur, cur_short, names);
    stack_of(host, is->cur.op->callsite, &f.nframes, &f.frames);
    f.nrelated = 3;
    f.related = rel;
    host->report(host, &f);
}
