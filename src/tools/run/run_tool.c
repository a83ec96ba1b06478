/* The `run` tool: tracks what the program does on the GPU, reports every CUDA API call that
 * failed (except expected ones such as not-ready from queries), and attributes asynchronous
 * (sticky) errors to the launch that caused them: the launches still in flight when the error
 * surfaced are the candidates; with one candidate the attribution is exact, otherwise all
 * candidates are listed with the reason. The device's progress marks (progress_narrow.c) rule
 * out the launches that finished or never started. When the agent read the driver's GPU core dump
 * (a DEVICE_FAULT event before the error), its grid id names the launch exactly, with the
 * faulting block, thread, pc and line (fault_match.c). Ends with a note of what was tracked. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cucheck/tool.h"
#include "core/cuda_errors.h"
#include "symbols/demangle.h"
#include "tools/run/inflight.h"
#include "tools/run/fault_match.h"
#include "tools/run/progress_narrow.h"

#define RUN_MAX_CANDIDATES 16

typedef struct run_state {
    cc_tool_host *host;
    cc_inflight *inflight;
    uint64_t launches, graph_launches, copies, memsets, allocs, frees, api_errors, syncs;
    uint64_t contexts, modules, functions, streams;
    uint64_t live_bytes, peak_bytes;
    int sticky_seen;        /* a sticky error was attributed already */
    int32_t sticky_code;
    uint64_t sticky_repeats; /* later calls failing with the same sticky error */
    cc_run_fault fault;     /* the GPU core dump's fault, if the agent reported one */
    cc_run_progress progress; /* the device's marks of finished launches, if reported */
} run_state;

/* `track` is read by the agent (src/agent/track_config.c), not by the tool: what the agent
 * subscribes to. "callbacks" (every callback, each returning at once) is the baseline tracking
 * is measured against; "off" measures the bare cost of loading the agent. */
static const cc_option_spec run_options[] = {
    {"track", 1, "MODE",
     "what the agent tracks: on (default), callbacks (every callback enabled, none doing "
     "anything: the baseline for overhead measurements), off (load and subscribe only), or a "
     "comma list of resource, launch, memcpy, memset, sync, "
     "events, graphs, runtime, driver, api, stacks (a '-' before one removes it)"},
    {"progress", 1, "on|off",
     "patch every module's block entries and exits so that the device marks which launches "
     "started and finished, naming the launch that caused an asynchronous error exactly among "
     "launches that ran concurrently or were queued and inside graphs (default off: two patched "
     "calls per thread slow kernels with little work per thread, see docs/agent.md)"},
    {"coredump", 1, "on|off",
     "ask the driver for a lightweight GPU core dump at a device exception and read it to name "
     "the faulting launch, block, thread and line (default off: CUDA 13.0 drivers refuse core "
     "dumps while the agent's tools API client is attached)"},
    {NULL, 0, NULL, NULL},
};

static void *run_init(cc_tool_host *host, char *err, size_t errlen) {
    run_state *s = calloc(1, sizeof *s);
    if (!s || !(s->inflight = cc_inflight_new())) {
        snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    s->host = host;
    return s;
}

static void set_stack(run_state *s, uint64_t callsite, uint32_t *n, const cc_stack_frame **f) {
    const cc_ev_host_stack *st = callsite ? s->host->stack(s->host, callsite) : NULL;
    *n = st ? st->nframes : 0;
    *f = st ? st->frames : NULL;
}

static void describe_launch(char *buf, size_t len, const cc_inflight_launch *l) {
    char dem[512];
    if (l->graph_exec && strcmp(l->name, "(graph)") == 0) {
        snprintf(buf, len, "graph launch #%" PRIu64 " (graph 0x%" PRIx64 ") on stream 0x%" PRIx64,
                 l->launch_id, l->graph_exec, l->stream);
        return;
    }
    cc_demangle(l->name, dem, sizeof dem);
    snprintf(buf, len,
             "launch #%" PRIu64 " of %s<<<(%u,%u,%u),(%u,%u,%u)>>> on stream 0x%" PRIx64 "%s",
             l->launch_id, dem, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
             l->block[2], l->stream, l->graph_exec ? " (graph node)" : "");
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
static void report_fault(run_state *s, const cc_ev_api_error *e, const char *ename,
                         const cc_inflight_launch *l, const char *how, size_t others) {
    const cc_run_fault *F = &s->fault;
    char desc[600], where[700], msg[1700];
    cc_related rel;
    describe_launch(desc, sizeof desc, l);
    cc_run_fault_describe(F, where, sizeof where);
    snprintf(msg, sizeof msg,
             "%s (%d) surfaced in %s; caused by %s: %s (from the GPU core dump, matched by %s; "
             "%zu other launch(es) were in flight)",
             ename, e->code, e->function ? e->function : "?", desc, where, how, others);
    cc_finding f = {0};
    f.tool = "run";
    f.kind = "async-error";
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    cc_run_fault_device_loc(F, l, &f.device);
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
static void describe_narrowing(char *buf, size_t len, const cc_run_narrowing *nw, int exact) {
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

static void report_sticky(run_state *s, const cc_ev_api_error *e, const char *ename) {
    const cc_inflight_launch *all;
    size_t nall = cc_inflight_pending(s->inflight, &all);
    if (s->fault.valid) {
        const char *how = NULL;
        const cc_inflight_launch *l = cc_run_fault_match(&s->fault, all, nall, &how);
        if (l) {
            report_fault(s, e, ename, l, how, nall - 1);
            return;
        }
    }
    /* The candidates: the launches in flight less those the progress marks rule out (all of
     * them when there is no memory to narrow them). */
    unsigned char *keep = malloc(nall ? nall : 1);
    cc_inflight_launch *cand = keep ? malloc((nall ? nall : 1) * sizeof *cand) : NULL;
    cc_run_narrowing nw = {0};
    const cc_inflight_launch *pending = all;
    size_t n = nall;
    if (cand) {
        cc_run_progress_narrow(&s->progress, all, nall, keep, &nw);
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
    char msg[2048], descs[RUN_MAX_CANDIDATES][600];
    cc_related rel[RUN_MAX_CANDIDATES];
    size_t shown = n < RUN_MAX_CANDIDATES ? n : RUN_MAX_CANDIDATES;
    memset(rel, 0, sizeof rel);
    for (size_t i = 0; i < shown; i++) {
        /* newest first: the last launch before the error is the likeliest */
        const cc_inflight_launch *l = &pending[n - 1 - i];
        describe_launch(descs[i], sizeof descs[i], l);
        rel[i].role = n == 1 || (node ? l == node : l == graph) ? "faulting launch"
                      : node                                    ? "graph launch"
                      : graph                                   ? "candidate node"
                                                                : "candidate launch";
        rel[i].message = descs[i];
        rel[i].has_device = 1;
        rel[i].device.valid = CC_DLOC_KERNEL;
        rel[i].device.kernel = l->name;
        rel[i].device.launch_id = l->launch_id;
        rel[i].device.stream = l->stream;
        set_stack(s, l->callsite, &rel[i].nframes, &rel[i].frames);
    }
    cc_finding f = {0};
    f.tool = "run";
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
        describe_launch(gdesc, sizeof gdesc, graph);
        describe_launch(ndesc, sizeof ndesc, node);
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
        describe_launch(gdesc, sizeof gdesc, graph);
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
                 n > shown ? ", the oldest not shown" : "");
    } else {
        snprintf(msg, sizeof msg,
                 "%s (%d) surfaced in %s; %zu launches were in flight and not ordered before "
                 "the error (no synchronize, successful query or synchronous copy separated "
                 "them from it), so it came from one of them: candidates listed newest first%s",
                 ename, e->code, e->function ? e->function : "?", n,
                 n > shown ? ", the oldest not shown" : "");
    }
    if (narrowed[0]) {
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len, "%s", narrowed);
    }
    if (s->fault.valid) {
        char where[700];
        size_t len = strlen(msg);
        cc_run_fault_describe(&s->fault, where, sizeof where);
        snprintf(msg + len, sizeof msg - len,
                 "; the GPU core dump names grid %" PRIu64 " of %s (%s), which matches none of "
                 "them", s->fault.ev.grid_id, s->fault.kernel[0] ? s->fault.kernel : "?", where);
    }
    if (n > 1 && !nw.used && !s->progress.valid) {
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len,
                 "; run again with `cucheck run --progress on` to have the device mark which "
                 "launches started and finished");
    }
    uint64_t forgotten = cc_inflight_forgotten(s->inflight);
    if (forgotten > 0) {
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len,
                 " (%" PRIu64 " older launches were never ordered and no longer tracked)",
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

static void on_api_error(run_state *s, const cc_ev_api_error *e) {
    if (cc_cuda_error_is_expected(e->api, e->code)) return;
    s->api_errors++;
    const char *ename = e->error_name && *e->error_name ? e->error_name
                                                        : cc_cuda_error_name(e->api, e->code);
    const char *etext = e->error_string && *e->error_string ? e->error_string
                                                            : cc_cuda_error_text(e->api, e->code);
    if (!ename) ename = "unknown error";
    if (cc_cuda_error_is_sticky(e->api, e->code)) {
        if (!s->sticky_seen) {
            s->sticky_seen = 1;
            s->sticky_code = e->code;
            report_sticky(s, e, ename);
            return;
        }
        if (e->code == s->sticky_code) {
            s->sticky_repeats++;
            return;
        }
    }
    char msg[512];
    snprintf(msg, sizeof msg, "%s returned %s (%d): %s", e->function ? e->function : "CUDA call",
             ename, e->code, etext ? etext : "no description");
    cc_finding f = {0};
    f.tool = "run";
    f.kind = "api-error";
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    set_stack(s, e->callsite, &f.nframes, &f.frames);
    s->host->report(s->host, &f);
}

static void run_on_event(void *state, const cc_event *ev) {
    run_state *s = state;
    switch (ev->h.kind) {
    case CC_EV_API_ERROR: on_api_error(s, &ev->u.api_error); break;
    case CC_EV_DEVICE_FAULT: cc_run_fault_keep(&s->fault, &ev->u.device_fault); break;
    case CC_EV_LAUNCH_PROGRESS: cc_run_progress_keep(&s->progress, &ev->u.launch_progress); break;
    case CC_EV_LAUNCH: s->launches++; break;
    case CC_EV_GRAPH_LAUNCH: s->graph_launches++; break;
    case CC_EV_MEMCPY: s->copies++; break;
    case CC_EV_MEMSET: s->memsets++; break;
    case CC_EV_CONTEXT_CREATE: s->contexts++; break;
    case CC_EV_MODULE_LOAD: s->modules++; break;
    case CC_EV_FUNCTION: s->functions++; break;
    case CC_EV_STREAM_CREATE: s->streams++; break;
    case CC_EV_STREAM_SYNC: case CC_EV_CONTEXT_SYNC: case CC_EV_DEVICE_SYNC:
    case CC_EV_EVENT_SYNC: s->syncs++; break;
    case CC_EV_ALLOC:
        if (ev->u.alloc.mem_kind != CC_MEM_VIRTUAL_RESERVE) {
            s->allocs++;
            s->live_bytes += ev->u.alloc.size;
            if (s->live_bytes > s->peak_bytes) s->peak_bytes = s->live_bytes;
        }
        break;
    case CC_EV_FREE:
        if (ev->u.free.mem_kind != CC_MEM_VIRTUAL_RESERVE) {
            s->frees++;
            s->live_bytes -= ev->u.free.size <= s->live_bytes ? ev->u.free.size : s->live_bytes;
        }
        break;
    default: break;
    }
    cc_inflight_event(s->inflight, ev);
}

static void run_on_exit(void *state) {
    run_state *s = state;
    char note[512];
    if (s->contexts == 0 && s->launches == 0 && s->graph_launches == 0 && s->copies == 0 &&
        s->memsets == 0 && s->allocs == 0 && s->api_errors == 0) {
        /* say so plainly: a user checking a shell script or launcher sees which process it was */
        s->host->note(s->host, "run: this process made no CUDA calls (no context, launch, copy or "
                               "allocation was seen)");
        cc_inflight_free(s->inflight);
        cc_run_progress_free(&s->progress);
        free(s);
        return;
    }
    snprintf(note, sizeof note,
             "run: tracked %" PRIu64 " context(s), %" PRIu64 " module(s), %" PRIu64
             " kernel launch(es), %" PRIu64 " graph launch(es), %" PRIu64 " copies, %" PRIu64
             " memsets, %" PRIu64 " allocations (peak %" PRIu64 " bytes), %" PRIu64
             " failed API call(s)",
             s->contexts, s->modules, s->launches, s->graph_launches, s->copies, s->memsets,
             s->allocs, s->peak_bytes, s->api_errors);
    s->host->note(s->host, note);
    if (s->sticky_repeats) {
        snprintf(note, sizeof note,
                 "run: %" PRIu64 " later CUDA call(s) failed with the same sticky error "
                 "(the context stays unusable after it)",
                 s->sticky_repeats);
        s->host->note(s->host, note);
    }
    cc_inflight_free(s->inflight);
    cc_run_progress_free(&s->progress);
    free(s);
}

const cc_tool cc_tool_run = {
    .name = "run",
    .summary = "run the program with the agent: track GPU work, report failed CUDA calls and "
               "attribute asynchronous errors to their launch",
    .options = run_options,
    .init = run_init,
    .on_event = run_on_event,
    .on_exit = run_on_exit,
};
