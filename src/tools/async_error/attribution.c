/* Asynchronous-error attribution (attribution.h): every event updates the launches in flight;
 * the core dump's fault and the progress marks are kept for the first sticky error, which is
 * reported (attribution_report.c); later sticky failures are counted. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/cuda_errors.h"
#include "tools/async_error/attribution_internal.h"

cc_async_errors *cc_async_errors_new(cc_tool_host *host, const char *tool)
{
    cc_async_errors *a = calloc(1, sizeof *a);
    if (a == NULL || (a->inflight = cc_inflight_new()) == NULL ||
        (a->names = cc_demangle_cache_new()) == NULL) {
        if (a != NULL) cc_inflight_free(a->inflight);
        free(a);
        return NULL;
    }
    a->host = host;
    a->tool = tool;
    return a;
}

void cc_async_errors_free(cc_async_errors *a)
{
    if (a == NULL) {
        return;
    }
    cc_inflight_free(a->inflight);
    cc_async_progress_free(&a->progress);
    cc_async_fault_free(&a->fault);
    cc_demangle_cache_free(a->names);
    free(a);
}

cc_demangle_cache *cc_async_errors_kernel_names(cc_async_errors *a)
{
    return a != NULL ? a->names : NULL;
}

static cc_async_verdict on_api_error(cc_async_errors *a, const cc_ev_api_error *e)
{
    if (!cc_cuda_error_is_sticky(e->api, e->code)) {
        return CC_ASYNC_NOT_STICKY;
    }
    if (!a->sticky_seen) {
        a->sticky_seen = 1;
        a->sticky_code = e->code;
        const char *ename = e->error_name != NULL && e->error_name[0] != '\0'
                                ? e->error_name
                                : cc_cuda_error_name(e->api, e->code);
        cc_async_report_sticky(a, e, ename != NULL ? ename : "unknown error");
        return CC_ASYNC_ATTRIBUTED;
    }
    if (e->code == a->sticky_code) {
        a->repeats++;
        return CC_ASYNC_REPEAT;
    }
    a->other_sticky++;
    return CC_ASYNC_OTHER_STICKY;
}

cc_async_verdict cc_async_errors_event(cc_async_errors *a, const cc_event *ev)
{
    cc_async_verdict v = CC_ASYNC_NOT_STICKY;
    switch (ev->h.kind) {
    case CC_EV_API_ERROR:
        /* Before the tracker sees the error: it drops the orderings the failed call held back. */
        v = on_api_error(a, &ev->u.api_error);
        break;
    case CC_EV_DEVICE_FAULT:
        cc_async_fault_keep(&a->fault, &ev->u.device_fault);
        break;
    case CC_EV_LAUNCH_PROGRESS:
        cc_async_progress_keep(&a->progress, &ev->u.launch_progress);
        break;
    default:
        break;
    }
    cc_inflight_event(a->inflight, ev);
    return v;
}

void cc_async_errors_note(const cc_async_errors *a, int count_other_sticky)
{
    uint64_t others = count_other_sticky ? a->other_sticky : 0;
    char note[512];
    if (a->repeats + others == 0) {
        return;
    }
    if (others == 0) {
        snprintf(note, sizeof note,
                 "%s: %" PRIu64 " later CUDA call(s) failed with the same sticky error "
                 "(the context stays unusable after it)",
                 a->tool, a->repeats);
    } else {
        snprintf(note, sizeof note,
                 "%s: %" PRIu64 " later CUDA call(s) failed after the sticky error, %" PRIu64
                 " of them with another sticky error (the context stays unusable after it)",
                 a->tool, a->repeats + others, others);
    }
    a->host->note(a->host, note);
}
