/* Exact attribution by a second run: when the first sticky error of a run left several candidate
 * launches (the `async-error` finding of attribution.h lists them), `cucheck run` runs the
 * program again with device progress marks bound only to those launches (by launch id and
 * kernel; CUCHECK_PROGRESS_LAUNCHES) and reads the second run's `async-error` finding. This is
 * the part without processes, on findings only: which first findings a second run can narrow
 * (the plan), the list the agent is given, whether the second run named one of the candidates
 * (the verdict), and the first finding rewritten with the answer or with why there is none. The
 * CLI runs the program (src/cli/rerun.c). */
#ifndef CUCHECK_TOOLS_ASYNC_ERROR_RERUN_H
#define CUCHECK_TOOLS_ASYNC_ERROR_RERUN_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/finding.h"
#include "tools/async_error/attribution.h"

typedef struct cc_rerun_launch {
    uint64_t launch_id;
    const char *kernel;    /* the name the binary gives (kernel_mangled, else kernel): borrowed */
    uint64_t kernel_hash;  /* cc_hash_str(kernel), what the agent compares */
    size_t related;        /* its entry in the first finding's related */
} cc_rerun_launch;

typedef struct cc_rerun_plan {
    size_t n;                                         /* candidates, newest first */
    cc_rerun_launch launches[CC_ASYNC_MAX_CANDIDATES];
    int graph;             /* the candidates are kernel nodes of one graph launch ... */
    size_t graph_related;  /* ... whose entry this is */
    char error[256];       /* "cudaErrorIllegalAddress (700) surfaced in cudaDeviceSynchronize" */
} cc_rerun_plan;

/* 1 when f is an `async-error` finding whose candidates (launches, or kernel nodes of one graph
 * launch: two or more) a second run can narrow: plan is filled. 0 when not: why is "" when
 * there is nothing to narrow (an exact finding, another kind), else why a second run would not
 * help ("more launches were in flight than the finding lists"). */
int cc_rerun_plan_make(const cc_finding *f, cc_rerun_plan *plan, char *why, size_t whylen);

/* The agent's CUCHECK_PROGRESS_LAUNCHES value for process pid: "PID/ID:HASH,ID:HASH" (hash in
 * hexadecimal). 0, or -1 when it does not fit. */
int cc_rerun_launch_list(const cc_rerun_plan *plan, long pid, char *out, size_t outlen);

typedef enum cc_rerun_end {
    CC_RERUN_ENDED = 0,       /* the program ended by itself (any status) */
    CC_RERUN_TIMED_OUT = 1,   /* ended by cucheck at the time limit */
    CC_RERUN_INTERRUPTED = 2, /* ended by cucheck because cucheck was interrupted */
    CC_RERUN_NOT_STARTED = 3, /* could not be started */
} cc_rerun_end;

typedef struct cc_rerun_outcome {
    cc_rerun_end end;
    double limit_s;            /* the time limit it ran under */
    int reported;              /* its top-level process wrote a report */
    const cc_finding *error;   /* that report's `async-error` finding, or NULL */
} cc_rerun_outcome;

/* The candidate the second run named: its index in plan->launches, or -1 with why (one line,
 * lower case: "the second run ended without an asynchronous error (...)"). It names one when
 * it failed with the same error in the same call and its progress marks left exactly one
 * launch (or one kernel node) whose launch id and kernel are those of a candidate. */
int cc_rerun_verdict(const cc_rerun_plan *plan, const cc_rerun_outcome *o, char *why,
                     size_t whylen);

/* A finding built from the first one; strings and arrays it does not own are borrowed from it. */
typedef struct cc_rerun_finding {
    cc_finding f;
    cc_related related[2];
    char *message;         /* owned */
} cc_rerun_finding;

/* The first finding made exact: "<error>; caused by <the named launch> (named by a second run
 * of the program with progress marks on launches #a, #b, ...: ...)", the named launch as the
 * "faulting launch" (its host stack from the first run) and, for a graph node, its graph launch
 * as "graph launch"; the other candidates dropped. 0, or -1 when out of memory. */
int cc_rerun_exact(const cc_finding *first, const cc_rerun_plan *plan, int named,
                   cc_rerun_finding *out);
/* The first finding with "; <prefix>: <why>" appended to its message (without the advice to run
 * again with progress marks when drop_hint: a second run had them), everything else kept. 0, or
 * -1 when out of memory. */
int cc_rerun_annotate(const cc_finding *first, const char *prefix, const char *why,
                      int drop_hint, cc_rerun_finding *out);
void cc_rerun_finding_free(cc_rerun_finding *r);

#endif
