/* The run tool's options: their table and the one parser of their values. The tool itself
 * reads none of them; they tell the agent what to track (`track`, a list parsed by
 * core/track_spec.h), whether to patch progress marks (`progress`) and whether to ask for
 * a GPU core dump (`coredump`); `rerun` is the CLI's (a second run after an asynchronous error
 * with several candidates, cli/rerun.h). The CLI checks them before the program starts, and the
 * run tool's init through the same parser, so the agent only ever sees accepted values. */
#ifndef CUCHECK_TOOLS_RUN_OPTIONS_H
#define CUCHECK_TOOLS_RUN_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"

typedef struct cc_run_options {
    int track_given;      /* --track was given: track holds its groups */
    uint32_t track;       /* CC_TRACK_* (core/track_spec.h) */
    int progress;         /* --progress on (default off) */
    int coredump;         /* --coredump on (default off) */
    int rerun;            /* --rerun (default on): read by the CLI (cli/rerun.h) */
    int api_errors;       /* --report-api-errors: CC_RUN_API_ERRORS_* (default explicit) */
} cc_run_options;

/* --report-api-errors, compute-sanitizer's values. The agent sees the calls the program makes
 * (runtime and driver), never the driver calls the runtime makes inside them: all reports the
 * same as explicit (the tool says so in a note). no: failed calls are counted, not reported. */
enum {
    CC_RUN_API_ERRORS_ALL = 0,
    CC_RUN_API_ERRORS_EXPLICIT = 1,
    CC_RUN_API_ERRORS_NO = 2,
};

extern const cc_option_spec cc_run_option_specs[];

/* Fill out from a getter of option values (NULL = not given). 0, or -1 with one line in err. */
int cc_run_options_read(cc_run_options *out, cc_option_get get, void *ctx, char *err,
                        size_t errlen);
/* The tool's check_options: cc_run_options_read into a scratch struct. */
int cc_run_options_check(cc_option_get get, void *ctx, char *err, size_t errlen);

#endif
