/* Parsing and validation of racecheck's options (racecheck_options.h): the one parser behind the
 * tool's check_options, its init and the agent's half of racecheck. */
#include <stdio.h>
#include <string.h>
#include "tools/racecheck/racecheck_options.h"
#include "core/option_values.h"
#include "core/options.h"
#include "core/suppress.h"

const cc_option_spec cc_racecheck_option_specs[] = {
    {"mode", 1, "full|adaptive",
     "adaptive (default): check each kernel on its first launches per launch shape, then run "
     "its module unpatched; full: check every launch"},
    {"checks-per-kernel", 1, "N", "adaptive mode: checked launches per kernel and launch shape, 1 "
                                  "to 1000000 (default 2)"},
    {"kernel-include", 1, "GLOB", "check only kernels whose name matches"},
    {"kernel-exclude", 1, "GLOB", "never check kernels whose name matches"},
    {"launch-skip", 1, "N", "do not check the first N launches of selected kernels (default 0)"},
    {"launch-count", 1, "N", "check at most N launches (0: no limit)"},
    {NULL, 0, NULL, NULL},
};

int cc_racecheck_config_read(cc_racecheck_config *cfg, cc_option_get get, void *ctx, char *err,
                             size_t errlen)
{
    static const char *const modes[] = {"full", "adaptive", NULL}; /* the help's order */
    memset(cfg, 0, sizeof *cfg);
    cfg->checks_per_kernel = CC_RC_DEFAULT_CHECKS_PER_KERNEL;
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
        if (cc_optval_uint("checks-per-kernel", v, 1, CC_RC_MAX_CHECKS_PER_KERNEL, &n, err,
                           errlen) != 0) {
            return -1;
        }
        cfg->checks_per_kernel = (uint32_t)n;
    }
    const char *names[2] = {"kernel-include", "kernel-exclude"};
    char *dst[2] = {cfg->kernel_include, cfg->kernel_exclude};
    for (int k = 0; k < 2; k++) {
        v = get(ctx, names[k]);
        if (v == NULL) {
            continue;
        }
        if (cc_optval_text(names[k], v, sizeof cfg->kernel_include - 1, "a kernel name glob", err,
                           errlen) != 0) {
            return -1;
        }
        snprintf(dst[k], sizeof cfg->kernel_include, "%s", v);
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

int cc_racecheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_racecheck_config cfg;
    return cc_racecheck_config_read(&cfg, get, ctx, err, errlen);
}

int cc_racecheck_config_parse(cc_racecheck_config *cfg, const char *encoded, char *err,
                              size_t errlen)
{
    cc_options *o = cc_options_parse(encoded);
    if (o == NULL) {
        snprintf(err, errlen, "malformed tool options");
        return -1;
    }
    int rc = cc_racecheck_config_read(cfg, cc_options_getter, o, err, errlen);
    cc_options_free(o);
    return rc;
}

static int match_either(const char *pattern, const char *a, const char *b)
{
    return (a != NULL && cc_glob_match(pattern, a)) || (b != NULL && cc_glob_match(pattern, b));
}

int cc_racecheck_kernel_selected(const cc_racecheck_config *cfg, const char *mangled,
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
