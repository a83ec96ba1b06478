/* Asynchronous (sticky) error attribution, the one piece of code every tool that sees API errors
 * uses (run, memcheck, streamcheck): it follows the launches that may still be running
 * (inflight.h), keeps the GPU core dump's fault (fault_match.h) and the device's progress marks
 * (progress_narrow.h), and when the first sticky error surfaces it reports one `async-error`
 * finding that names the launch that caused it, or lists the candidates with the reason. Later
 * calls that fail with the same sticky error failed only because of it: they are counted for a
 * closing note, never findings of their own. */
#ifndef CUCHECK_TOOLS_ASYNC_ERROR_ATTRIBUTION_H
#define CUCHECK_TOOLS_ASYNC_ERROR_ATTRIBUTION_H

#include <stdint.h>
#include "cucheck/event.h"
#include "cucheck/tool.h"
#include "symbols/demangle.h"

/* The most candidates the finding lists (newest first), and the texts of its message that say
 * the list is not every launch that may have faulted (read back by rerun.h). */
#define CC_ASYNC_MAX_CANDIDATES 16
#define CC_ASYNC_TEXT_NOT_SHOWN ", the oldest not shown"
#define CC_ASYNC_TEXT_FORGOTTEN "older launches were never ordered and no longer tracked"
/* The advice that ends a list of candidates no progress marks narrowed. */
#define CC_ASYNC_TEXT_PROGRESS_HINT                                                            \
    "; run again with `cucheck run --progress on` to have the device mark which launches "     \
    "started and finished"

/* What an event was to the attribution; the tool labels only CC_ASYNC_NOT_STICKY API errors. */
typedef enum cc_async_verdict {
    CC_ASYNC_NOT_STICKY = 0,   /* not an API error, or an error that leaves no sticky state */
    CC_ASYNC_ATTRIBUTED = 1,   /* the first sticky error: reported as `async-error` */
    CC_ASYNC_REPEAT = 2,       /* a later call failing with the same sticky error */
    CC_ASYNC_OTHER_STICKY = 3, /* a later call failing with a different sticky error */
} cc_async_verdict;

typedef struct cc_async_errors cc_async_errors;

/* Findings go to host->report with f.tool = tool (a static string). NULL if out of memory. */
cc_async_errors *cc_async_errors_new(cc_tool_host *host, const char *tool);
void cc_async_errors_free(cc_async_errors *a);

/* The table the attribution demangles kernel names through (launches and candidates are
 * reported demangled, their mangled names kept in kernel_mangled): every tool that uses the
 * attribution names its own kernels through it too, so that each distinct name is demangled once
 * per process. Freed with a. */
cc_demangle_cache *cc_async_errors_kernel_names(cc_async_errors *a);

/* Feed every event of the stream, in order. For an API error that is sticky, the verdict says
 * what it was (the first one is reported here); every other event gives CC_ASYNC_NOT_STICKY. */
cc_async_verdict cc_async_errors_event(cc_async_errors *a, const cc_event *ev);

/* The closing note "TOOL: N later CUDA call(s) failed with the same sticky error ..." when there
 * were any; with count_other_sticky, calls that failed with a different sticky error after the
 * first are counted in it too (for tools that report no API errors of their own). */
void cc_async_errors_note(const cc_async_errors *a, int count_other_sticky);

#endif
