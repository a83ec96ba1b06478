/* Parsing and validation of memcheck's options (memcheck_options.h): the one parser behind the
 * tool's check_options, its init and the agent's instrumentation manager. */
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck_options.h"
#include "core/kernel_filter.h"
#include "core/option_values.h"
#include "core/options.h"
#include "core/suppress.h"

const cc_option_spec cc_memcheck_option_specs[] = {
    {"mode", 1, "full|adaptive",
     "adaptive (default): check each kernel on its first launches per launch shape, then run "
     "its module unpatched; full: check every access of every launch"},
    {"checks-per-kernel", 1, "N", "adaptive mode: checked launches per kernel and launch shape, 1 "
                                  "to 1000000 (default 2)"},
    {"on-error", 1, "continue|stop",
     "continue (default): report and let the program go on as it would natively; stop: the "
     "faulty warp exits before the invalid access, and the program is stopped after the launch"},
    {"leak-check", 1, "full|no", "full: report device allocations never freed (default no)"},
    {"kernel-include", 1, "GLOB", "check only kernels whose name matches"},
    {"kernel-exclude", 1, "GLOB", "never check kernels whose name matches"},
    {"launch-skip", 1, "N", "do not check the first N launches of selected kernels (default 0)"},
    {"launch-count", 1, "N", "check at most N launches (0: no limit)"},
    {"kernel-name", 1, "KEY=VALUE", "compute-sanitizer's filter: kne=NAME (kernel_name=) checks "
                                    "only the kernel of that mangled name, kns=TEXT "
                                    "(kernel_substring=) those whose name holds TEXT; the "
                                    "--kernel-include glob it stands for (one filter)"},
    {"kernel-name-exclude", 1, "KEY=VALUE", "compute-sanitizer's exclusion, the same keys: the "
                                            "--kernel-exclude glob it stands for"},
    {"report-api-errors", 1, "all|explicit|no",
     "compute-sanitizer's option, accepted: memcheck reports failed frees, copies and memsets as "
     "memory errors whatever the value; every other failed call is reported by 'cucheck run'"},
    {NULL, 0, NULL, NULL},
};

int cc_memcheck_config_read(cc_memcheck_config *cfg, cc_option_get get, void *ctx, char *err,
                            size_t errlen)
{
    /* each list in the order of its help text */
    static const char *const modes[] = {"full", "adaptive", NULL};
    static const char *const on_error[] = {"continue", "stop", NULL};
    static const char *const leak_check[] = {"full", "no", NULL};
    memset(cfg, 0, sizeof *cfg);
    cfg->checks_per_kernel = CC_MC_DEFAULT_CHECKS_PER_KERNEL;
    int i = 0;
    const char *v = get(ctx, "mode");
    if (v != NULL) {
        if (cc_optval_choice("mode", v, modes, &i, err, errlen) != 0) {
            return -1;
        }
        cfg->full = i == 0;
    }
    uint64_t n = 0;
    v = get(ctx, "checks-per-kernel");
    if (v != NULL) {
        if (cc_optval_uint("checks-per-kernel", v, 1, CC_MC_MAX_CHECKS_PER_KERNEL, &n, err,
                           errlen) != 0) {
            return -1;
        }
        cfg->checks_per_kernel = (uint32_t)n;
    }
    v = get(ctx, "on-error");
    if (v != NULL) {
        if (cc_optval_choice("on-error", v, on_error, &i, err, errlen) != 0) {
            return -1;
        }
        cfg->stop_on_error = i == 1;
    }
    v = get(ctx, "leak-check");
    if (v != NULL) {
        if (cc_optval_choice("leak-check", v, leak_check, &i, err, errlen) != 0) {
            return -1;
        }
        cfg->leak_check = i == 0;
    }
    const char *names[2] = {"kernel-include", "kernel-exclude"};
    char *dst[2] = {cfg->kernel_include, cfg->kernel_exclude};
    for (int i = 0; i < 2; i++) {
        v = get(ctx, names[i]);
        if (v == NULL) {
            continue;
        }
        if (cc_optval_text(names[i], v, sizeof cfg->kernel_include - 1, "a kernel name glob", err,
                           errlen) != 0) {
            return -1;
        }
        snprintf(dst[i], sizeof cfg->kernel_include, "%s", v);
    }
    /* compute-sanitizer's filters: the same globs, one way of giving each */
    const char *cs_names[2] = {"kernel-name", "kernel-name-exclude"};
    for (int i = 0; i < 2; i++) {
        v = get(ctx, cs_names[i]);
        if (v == NULL) {
            continue;
        }
        if (get(ctx, names[i]) != NULL) {
            return cc_optval_refuse(cs_names[i], v, i == 0 ? "no --kernel-include beside it "
                                    "(one filter)" : "no --kernel-exclude beside it (one filter)",
                                    err, errlen);
        }
        if (cc_kernel_filter_glob(cs_names[i], v, dst[i], sizeof cfg->kernel_include, err,
                                  errlen) != 0) {
            return -1;
        }
    }
    static const char *const api_errors[] = {"all", "explicit", "no", NULL};
    v = get(ctx, "report-api-errors");
    if (v != NULL && cc_optval_choice("report-api-errors", v, api_errors, &i, err, errlen) != 0) {
        return -1;
    }
    v = get(ctx, "launch-skip");
    if (v != NULL &&
        cc_optval_uint("launch-skip", v, 0, UINT64_MAX, &cfg->launch_skip, err, errlen) != 0) {
        return -1;
    }
    v = get(ctx, "launch-count");
    if (v != NULL &&
        cc_optval_uint("launch-count", v, 0, UINT64_MAX, &cfg->launch_count, err, errlen) != 0) {
        return -1;
    }
    return 0;
}

int cc_memcheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_memcheck_config cfg;
    return cc_memcheck_config_read(&cfg, get, ctx, err, errlen);
}

int cc_memcheck_config_parse(cc_memcheck_config *cfg, const char *encoded, char *err,
                             size_t errlen)
{
    cc_options *o = cc_options_parse(encoded);
    if (o == NULL) {
        snprintf(err, errlen, "malformed tool options");
        return -1;
    }
    int rc = cc_memcheck_config_read(cfg, cc_options_getter, o, err, errlen);
    cc_options_free(o);
    return rc;
}

static int match_either(const char *pattern, const char *a, const char *b)
{
    return (a != NULL && cc_glob_match(pattern, a)) || (b != NULL && cc_glob_match(pattern, b));
}

int cc_memcheck_kernel_selected(const cc_memcheck_config *cfg, const char *mangled,
                                const char *demangled)
{
    if (cfg->kernel_include[0] != '\0' && !match_either(cfg->kernel_include, mangled, demangled)) {
        return 0;
    }
    if (cfg->kernel_exclude[0] != '\0' && match_either(cfg->kernel_exclude, mangled, demangled)) {
        return 0;
    }
    return 1;
}
