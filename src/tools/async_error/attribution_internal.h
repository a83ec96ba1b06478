/* The state behind attribution.h, shared by its two files: attribution.c (feeding events,
 * verdicts, the closing note) and attribution_report.c (the finding's text). */
#ifndef CUCHECK_TOOLS_ASYNC_ERROR_ATTRIBUTION_INTERNAL_H
#define CUCHECK_TOOLS_ASYNC_ERROR_ATTRIBUTION_INTERNAL_H

#include "tools/async_error/attribution.h"
#include "tools/async_error/fault_match.h"
#include "tools/async_error/inflight.h"
#include "tools/async_error/progress_narrow.h"

struct cc_async_errors {
    cc_tool_host *host;
    const char *tool;          /* the finding's tool */
    cc_inflight *inflight;
    int sticky_seen;           /* the first sticky error was attributed */
    int32_t sticky_code;
    uint64_t repeats;          /* later calls failing with the same sticky error */
    uint64_t other_sticky;     /* later calls failing with a different sticky error */
    cc_async_fault fault;      /* the GPU core dump's fault, if the agent reported one */
    cc_async_progress progress; /* the device's marks of finished launches, if reported */
    cc_demangle_cache *names;  /* kernel names as reported (cc_async_errors_kernel_names) */
};

/* Report the `async-error` finding of e (sticky, the first), whose error is named ename. */
void cc_async_report_sticky(cc_async_errors *s, const cc_ev_api_error *e, const char *ename);

#endif
