/* The run tool's options (run_options.h): table and the one reader that checks every value. */
#include "tools/run/run_options.h"

#include <string.h>

#include "core/option_values.h"
#include "core/track_spec.h"

/* `track` is read by the agent (src/agent/core/track_config.c), not by the tool: what the agent
 * subscribes to. "callbacks" (every callback, each returning at once) is the baseline tracking
 * is measured against; "off" measures the bare cost of loading the agent. */
const cc_option_spec cc_run_option_specs[] = {
    {"track", 1, "MODE",
     "what the agent tracks: on (default), callbacks (every callback enabled, none doing "
     "anything: the baseline for overhead measurements), off (load and subscribe only), or a "
     "comma list of resource, launch, memcpy, memset, sync, "
     "events, graphs, runtime, driver, api, apiwork, stacks (a '-' before one removes it)"},
    {"progress", 1, "on|off",
     "patch every module's block entries and exits so that the device marks which launches "
     "started and finished, naming the launch that caused an asynchronous error exactly among "
     "launches that ran concurrently or were queued and inside graphs, in one run (default off: "
     "two patched calls per thread slow kernels with little work per thread, see docs/agent.md; "
     "without it --rerun gets the answer from a second run)"},
    {"rerun", 1, "on|off",
     "after an asynchronous error that left several candidate launches, run the program a second "
     "time (same arguments, directory and environment; no input, its output discarded, at most "
     "twice the first run's time and 10 s) with progress marks on those launches only, and name "
     "the faulting one when the second run fails the same way (default on; off runs the program "
     "once, for programs that must not run twice)"},
    {"coredump", 1, "on|off",
     "ask the driver for a lightweight GPU core dump at a device exception and read it to name "
     "the faulting launch, block, thread and line (default off: CUDA 13.0 drivers refuse core "
     "dumps while the agent's tools API client is attached)"},
    {"report-api-errors", 1, "all|explicit|no",
     "compute-sanitizer's option: explicit (default) reports every CUDA call of the program "
     "that failed; no reports none (they are still counted); all is accepted and reports the "
     "same as explicit (the driver calls the runtime makes inside its own calls are not seen)"},
    {NULL, 0, NULL, NULL},
};

int cc_run_options_read(cc_run_options *out, cc_option_get get, void *ctx, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *v = get(ctx, "track");
    if (v != NULL) {
        if (cc_track_spec_parse(v, &out->track) != 0) {
            return cc_optval_refuse("track", v, cc_track_spec_expected, err, errlen);
        }
        out->track_given = 1;
    }
    v = get(ctx, "progress");
    if (v != NULL && cc_optval_switch("progress", v, &out->progress, err, errlen) != 0) {
        return -1;
    }
    out->rerun = 1;
    v = get(ctx, "rerun");
    if (v != NULL && cc_optval_switch("rerun", v, &out->rerun, err, errlen) != 0) {
        return -1;
    }
    static const char *const api_errors[] = {"all", "explicit", "no", NULL};
    out->api_errors = CC_RUN_API_ERRORS_EXPLICIT;
    v = get(ctx, "report-api-errors");
    if (v != NULL &&
        cc_optval_choice("report-api-errors", v, api_errors, &out->api_errors, err, errlen) != 0) {
        return -1;
    }
    v = get(ctx, "coredump");
    if (v != NULL && cc_optval_switch("coredump", v, &out->coredump, err, errlen) != 0) {
        return -1;
    }
    return 0;
}

int cc_run_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_run_options o;
    return cc_run_options_read(&o, get, ctx, err, errlen);
}
