/* The `async-error` finding of the first sticky error (attribution.h): exact from the GPU core
 * dump's fault when it names a launch in flight, else the launches in flight less those the
 * device's progress marks rule out: one is the culprit, a graph launch and its nodes, or the
 * candidates listed newest first with the reason they could not be told apart. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/async_error/attribution_internal.h"
#include "tools/kernel_name.h"

#define ASYNC_MAX_CANDIDATES CC_ASYNC_MAX_CANDIDATES

static void set_stack(cc_async_errors *s, uint64_t callsite, uint32_t *n,
                      const cc_stack_frame **f) {
    const cc_ev_host_stack *st = callsite ? s->host->stack(s->host, callsite) : NULL;
    *n = st ? st->nframes : 0;
    *f = st ? st->frames : NULL;
}

static void describe_launch(cc_async_errors *s, char *buf, size_t len,
                            const cc_inflight_launch *l) {
    if (l->graph_exec && strcmp(l->name, "(graph)") == 0) {
        snprintf(buf, len, "graph launch #%" PRIu64 " (graph 0x%" PRIx64 ") on stream 0x%" PRIx64,
                 l->launch_id, l->graph_exec, l->stream);
        return;
    }
    snprintf(buf, len,
             "launch #%" PRIu64 " of %s<<<(%u,%u,%u),(%u,%u,%u)>>> on stream 0x%" PRIx64 "%s",
             l->launch_id, cc_demangle_cached(s->names, l->name), l->grid[0], l->grid[1],
             l->grid[2], l->block[0], l->block[1], l->block[2], l->stream,
             l->graph_exec ? " (graph node)" : "");
}

/* The whole-graph launch if every pending entry belongs to one graph launch (the launch and its
 * nodes): the culprit is then exactly that graph launch, its node one of the kernel nodes. */
static const cc_inflight_launch *single_graph(const cc_inflight_launch *pending, size_t n) {
    const cc_inflight_launch *graph = NULL;
    if (n < 2 || pending[0].graph_exec == 0) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (pending[i].graph_exec != pending[0].graph_exec) return NULL;
        if (strcmp(pending[i].name, "(graph)") == 0) {
            if (graph) return NULL;
            graph = &pending[i];
        }
    }
    return graph;
}

/* The exact report from the GPU core dump: the launch whose grid faulted, with the faulting
 * block, thread, pc and line; the other launches in flight are not listed. */
static void report_fault(cc_async_errors *s, const cc_ev_api_error *e, const char *ename,
                         const cc_inflight_launch *l, const char *how, size_t others) {
    const cc_async_fault *F = &s->fault;
    char desc[600], where[700], msg[1700];
    cc_related rel;
    describe_launch(s, desc, sizeof desc, l);
    cc_async_fault_describe(F, where, sizeof where);
    snprintf(msg, sizeof msg,
             "%s (%d) surfaced in %s; caused by %s: %s (from the GPU core dump, matched by %s; "
             "%zu other launch(es) were in flight)",
             ename, e->code, e->function ? e->function : "?", desc, where, how, others);
    cc_finding f = {0};
    f.tool = s->tool;
    f.kind = "async-error";
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    cc_async_fault_device_loc(F, l, &f.device);
    cc_kernel_loc_name(&f.device, s->names, l->name);
    memset(&rel, 0, sizeof rel);
    rel.role = "faulting launch";
    rel.message = desc;
    rel.has_device = 1;
    rel.device = f.device;
    set_stack(s, l->callsite, &rel.nframes, &rel.frames);
    set_stack(s, e->callsite, &f.nframes, &f.frames);
    f.nrelated = 1;
    f.related = &rel;
    s->host->report(s->host, &f);
}

/* What the progress marks did, appended to the message ("" when they were not used); exact:
 * they left one launch (or one node of a graph launch). */
static void describe_narrowing(char *buf, size_t len, const cc_async_narrowing *nw, int exact) {
    buf[0] = '\0';
    if (nw->used) {
        char fin[96] = "", nst[96] = "";
        if (nw->finished) snprintf(fin, sizeof fin, "%zu other launch(es) in flight had finished", nw->finished);
        if (nw->not_started)
            snprintf(nst, sizeof nst, "%s%zu had not started", nw->finished ? " and " : "",
                     nw->not_started);
        snprintf(buf, len, "; by the device's progress marks, %s%s%s", fin, nst,
                 exact ? "" : " (launches that ran at the same time are not told apart)");
    } else if (nw->why_not) {
        snprintf(buf, len, "; %s", nw->why_not);
    }
}

/* The one graph node left when the candidates are a graph launch and one of its nodes. */
static const cc_inflight_launch *single_node(const cc_inflight_launch *pending, size_t n,
                                             const cc_inflight_launch *graph) {
    const cc_inflight_launch *node = NULL;
    for (size_t i = 0; i < n && graph; i++) {
        if (&pending[i] == graph) continue;
        if (node) return NULL;
        node = &pending[i];
    }
    return node;
}

void cc_async_report_sticky(cc_async_errors *s, const cc_ev_api_error *e, const char *ename) {
    const cc_inflight_launch *all;
    size_t nall = cc_inflight_pending(s->inflight, &all);
    if (s->fault.valid) {
        const char *how = NULL;
        const cc_inflight_launch *l = cc_async_fault_match(&s->fault, all, nall, &how);
        if (l) {
            report_fault(s, e, ename, l, how, nall - 1);
            return;
        }
    }
    /* The candidates: the launches in flight less those the progress marks rule out (all of
     * them when there is no memory to narrow them). */
    unsigned char *keep = malloc(nall ? nall : 1);
    cc_inflight_launch *cand = keep ? malloc((nall ? nall : 1) * sizeof *cand) : NULL;
    cc_async_narrowing nw = {0};
    const cc_inflight_launch *pending = all;
    size_t n = nall;
    if (cand) {
        cc_async_progress_narrow(&s->progress, all, nall, keep, &nw);
        n = 0;
        for (size_t i = 0; i < nall; i++) {
            if (keep[i]) cand[n++] = all[i];
        }
        pending = cand;
    }
    const cc_inflight_launch *graph = single_graph(pending, n);
    const cc_inflight_launch *node = nw.used ? single_node(pending, n, graph) : NULL;
    char narrowed[400];
    describe_narrowing(narrowed, sizeof narrowed, &nw, n == 1 || node != NULL);
    char msg[2048], descs[ASYNC_MAX_CANDIDATES][600];
    cc_related rel[ASYNC_MAX_CANDIDATES];
    size_t shown = n < ASYNC_MAX_CANDIDATES ? n : ASYNC_MAX_CANDIDATES;
    memset(rel, 0, sizeof rel);
    for (size_t i = 0; i < shown; i++) {
        /* newest first: the last launch before the error is the likeliest */
        const cc_inflight_launch *l = &pending[n - 1 - i];
        describe_launch(s, descs[i], sizeof descs[i], l);
        rel[i].role = n == 1 || (node ? l == node : l == graph) ? "faulting launch"
                      : node                                    ? "graph launch"
                      : graph                                   ? "candidate node"
                                                                : "candidate launch";
        rel[i].message = descs[i];
        rel[i].has_device = 1;
        rel[i].device.valid = CC_DLOC_KERNEL;
        cc_kernel_loc_name(&rel[i].device, s->names, l->name);
        rel[i].device.launch_id = l->launch_id;
        rel[i].device.stream = l->stream;
        set_stack(s, l->callsite, &rel[i].nframes, &rel[i].frames);
    }
    cc_finding f = {0};
    f.tool = s->tool;
    f.kind = "async-error";
    f.severity = CC_SEV_ERROR;
    if (n == 1) {
        snprintf(msg, sizeof msg, "%s (%d) surfaced in %s; caused by %s%s", ename, e->code,
                 e->function ? e->function : "?", descs[0],
                 nw.used ? " (the only launch in flight that started and did not finish)" : "");
        f.has_device = 1;
        f.device = rel[0].device;
    } else if (node) {
        char gdesc[600], ndesc[600];
        describe_launch(s, gdesc, sizeof gdesc, graph);
        describe_launch(s, ndesc, sizeof ndesc, node);
        snprintf(msg, sizeof msg,
                 "%s (%d) surfaced in %s; caused by %s of %s (the only kernel node that started "
                 "and did not finish)",
                 ename, e->code, e->function ? e->function : "?", ndesc, gdesc);
        for (size_t i = 0; i < shown; i++) {
            if (&pending[n - 1 - i] == node) {
                f.has_device = 1;
                f.device = rel[i].device;
            }
        }
    } else if (graph) {
        char gdesc[600];
        describe_launch(s, gdesc, sizeof gdesc, graph);
        snprintf(msg, sizeof msg,
                 "%s (%d) surfaced in %s; caused by %s: the fault is in one of its %zu kernel "
                 "node(s) listed (%s)",
                 ename, e->code, e->function ? e->function : "?", gdesc, n - 1,
                 nw.used ? "they started and did not finish"
                         : "nodes of one graph launch are not told apart at API level");
        for (size_t i = 0; i < shown; i++) {
            if (&pending[n - 1 - i] == graph) {
                f.has_device = 1;
                f.device = rel[i].device;
            }
        }
    } else if (n == 0) {
        snprintf(msg, sizeof msg,
                 "%s (%d) surfaced in %s; no launch was in flight (the error came from work "
                 "cucheck did not see, or from an earlier context)",
                 ename, e->code, e->function ? e->function : "?");
    } else if (nw.used) {
        snprintf(msg, sizeof msg,
                 "%s (%d) surfaced in %s; %zu launches in flight were not ruled out (started "
                 "and did not finish, or without progress marks), so it came from one of them: "
                 "candidates listed newest first%s",
                 ename, e->code, e->function ? e->function : "?", n,
                 n > shown ? CC_ASYNC_TEXT_NOT_SHOWN : "");
    } else {
        snprintf(msg, sizeof msg,
                 "%s (%d) surfaced in %s; %zu launches were in flight and not ordered before "
                 "the error (no synchronize, successful query or synchronous copy separated "
                 "them from it), so it came from one of them: candidates listed newest first%s",
                 ename, e->code, e->function ? e->function : "?", n,
                 n > shown ? CC_ASYNC_TEXT_NOT_SHOWN : "");
    }
    if (narrowed[0]) {
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len, "%s", narrowed);
    }
    if (s->fault.valid) {
        char where[700];
        size_t len = strlen(msg);
        cc_async_fault_describe(&s->fault, where, sizeof where);
        snprintf(msg + len, sizeof msg - len,
                 "; the GPU core dump names grid %" PRIu64 " of %s (%s), which matches none of "
                 "them", s->fault.ev.grid_id,
                 s->fault.ev.kernel[0] ? cc_demangle_cached(s->names, s->fault.ev.kernel) : "?",
                 where);
    }
    if (n > 1 && !nw.used && !s->progress.valid) {
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len, "%s", CC_ASYNC_TEXT_PROGRESS_HINT);
    }
    uint64_t forgotten = cc_inflight_forgotten(s->inflight);
    if (forgotten > 0) {
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len,
                 " (%" PRIu64 " " CC_ASYNC_TEXT_FORGOTTEN ")",
                 forgotten);
    }
    f.message = msg;
    set_stack(s, e->callsite, &f.nframes, &f.frames);
    f.nrelated = (uint32_t)shown;
    f.related = rel;
    s->host->report(s->host, &f);
    free(keep);
    free(cand);
}
