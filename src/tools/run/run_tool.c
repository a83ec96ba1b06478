/* The `run` tool: tracks what the program does on the GPU, reports every CUDA API call that
 * failed (except expected ones such as not-ready from queries), and attributes asynchronous
 * (sticky) errors to the launch that caused them through the attribution every tool shares
 * (tools/async_error/attribution.h: the launches in flight, the device's progress marks, the GPU
 * core dump's fault). Ends with a note of what was tracked. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cucheck/tool.h"
#include "core/cuda_errors.h"
#include "core/driver_note.h"
#include "tools/async_error/attribution.h"
#include "tools/run/run_options.h"

typedef struct run_state {
    cc_tool_host *host;
    cc_async_errors *async_errors; /* sticky errors: attribution shared with other tools */
    int api_errors_mode;           /* --report-api-errors: CC_RUN_API_ERRORS_* */
    uint64_t launches, graph_launches, copies, memsets, allocs, frees, api_errors, syncs;
    uint64_t contexts, modules, functions, streams;
    uint64_t live_bytes, peak_bytes;
} run_state;

static void *run_init(cc_tool_host *host, char *err, size_t errlen) {
    cc_run_options opts; /* read by the agent; checked here like everywhere (run_options.h) */
    if (cc_run_options_read(&opts, cc_tool_host_option, host, err, errlen) != 0) return NULL;
    run_state *s = calloc(1, sizeof *s);
    if (!s || !(s->async_errors = cc_async_errors_new(host, "run"))) {
        snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    s->host = host;
    s->api_errors_mode = opts.api_errors;
    return s;
}

static void set_stack(run_state *s, uint64_t callsite, uint32_t *n, const cc_stack_frame **f) {
    const cc_ev_host_stack *st = callsite ? s->host->stack(s->host, callsite) : NULL;
    *n = st ? st->nframes : 0;
    *f = st ? st->frames : NULL;
}

static void on_api_error(run_state *s, const cc_ev_api_error *e, cc_async_verdict sticky) {
    if (cc_cuda_error_is_expected(e->api, e->function, e->code)) return;
    s->api_errors++;
    /* The first sticky error was reported as async-error; the same one again is its echo. */
    if (sticky == CC_ASYNC_ATTRIBUTED || sticky == CC_ASYNC_REPEAT) return;
    if (s->api_errors_mode == CC_RUN_API_ERRORS_NO) return; /* counted in the note */
    const char *ename = e->error_name && *e->error_name ? e->error_name
                                                        : cc_cuda_error_name(e->api, e->code);
    const char *etext = e->error_string && *e->error_string ? e->error_string
                                                            : cc_cuda_error_text(e->api, e->code);
    if (!ename) ename = "unknown error";
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
    cc_async_verdict sticky = cc_async_errors_event(s->async_errors, ev);
    switch (ev->h.kind) {
    case CC_EV_API_ERROR: on_api_error(s, &ev->u.api_error, sticky); break;
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
}

static void run_on_exit(void *state) {
    run_state *s = state;
    char note[512];
    if (s->contexts == 0 && s->launches == 0 && s->graph_launches == 0 && s->copies == 0 &&
        s->memsets == 0 && s->allocs == 0 && s->api_errors == 0) {
        /* say so plainly: a user checking a shell script or launcher sees which process it was */
        s->host->note(s->host, CC_NOTE_NO_CUDA_CALLS);
        cc_async_errors_free(s->async_errors);
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
    if (s->api_errors_mode == CC_RUN_API_ERRORS_NO && s->api_errors) {
        s->host->note(s->host, "run: --report-api-errors no: failed API calls were counted, not "
                               "reported");
    } else if (s->api_errors_mode == CC_RUN_API_ERRORS_ALL) {
        s->host->note(s->host, "run: --report-api-errors all reports what explicit does: the "
                               "driver calls the CUDA runtime makes inside its own calls are not "
                               "seen");
    }
    cc_async_errors_note(s->async_errors, 0);
    cc_async_errors_free(s->async_errors);
    free(s);
}

const cc_tool cc_tool_run = {
    .name = "run",
    .summary = "run the program with the agent: track GPU work, report failed CUDA calls and "
               "attribute asynchronous errors to their launch",
    .options = cc_run_option_specs,
    .check_options = cc_run_options_check,
    .init = run_init,
    .on_event = run_on_event,
    .on_exit = run_on_exit,
};
