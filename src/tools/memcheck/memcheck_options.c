/* Parsing and validation of memcheck's options (memcheck_options.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/memcheck/memcheck_options.h"
#include "core/options.h"
#include "core/suppress.h"

const cc_option_spec cc_memcheck_option_specs[] = {
    {"mode", 1, "full|adaptive",
     "adaptive (default): check each kernel on its first launches per launch shape, then run "
     "its module unpatched; full: check every access of every launch"},
    {"checks-per-kernel", 1, "N", "adaptive mode: checked launches per kernel and launch shape "
                                  "(default 2)"},
    {"on-error", 1, "continue|stop",
     "continue (default): report and let the program go on as it would natively; stop: the "
     "faulty warp exits before the invalid access, and the program is stopped after the launch"},
    {"leak-check", 1, "full|no", "full: report device allocations never freed (default no)"},
    {"kernel-include", 1, "GLOB", "check only kernels whose name matches"},
    {"kernel-exclude", 1, "GLOB", "never check kernels whose name matches"},
    {"launch-skip", 1, "N", "do not check the first N launches of selected kernels"},
    {"launch-count", 1, "N", "check at most N launches (0: no limit)"},
    {NULL, 0, NULL, NULL},
};

static int parse_u64(const char *v, uint64_t *out)
{
    if (v == NULL || v[0] == '\0' || v[0] == '-') {
        return -1;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno != 0 || *end != '\0') {
        return -1;
    }
    *out = (uint64_t)n;
    return 0;
}

int cc_memcheck_config_read(cc_memcheck_config *cfg,
                            const char *(*get)(void *ctx, const char *name), void *ctx,
                            char *err, size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->checks_per_kernel = CC_MC_DEFAULT_CHECKS_PER_KERNEL;
    const char *v = get(ctx, "mode");
    if (v != NULL) {
        if (strcmp(v, "full") == 0) {
            cfg->full = 1;
        } else if (strcmp(v, "adaptive") != 0) {
            snprintf(err, errlen, "--mode must be full or adaptive, not '%s'", v);
            return -1;
        }
    }
    uint64_t n = 0;
    v = get(ctx, "checks-per-kernel");
    if (v != NULL) {
        if (parse_u64(v, &n) != 0 || n == 0 || n > 1000000) {
            snprintf(err, errlen, "--checks-per-kernel must be a number from 1 to 1000000, not '%s'",
                     v);
            return -1;
        }
        cfg->checks_per_kernel = (uint32_t)n;
    }
    v = get(ctx, "on-error");
    if (v != NULL) {
        if (strcmp(v, "stop") == 0) {
            cfg->stop_on_error = 1;
        } else if (strcmp(v, "continue") != 0) {
            snprintf(err, errlen, "--on-error must be continue or stop, not '%s'", v);
            return -1;
        }
    }
    v = get(ctx, "leak-check");
    if (v != NULL) {
        if (strcmp(v, "full") == 0 || strcmp(v, "1") == 0) {
            cfg->leak_check = 1;
        } else if (strcmp(v, "no") != 0) {
            snprintf(err, errlen, "--leak-check must be full or no, not '%s'", v);
            return -1;
        }
    }
    const char *names[2] = {"kernel-include", "kernel-exclude"};
    char *dst[2] = {cfg->kernel_include, cfg->kernel_exclude};
    for (int i = 0; i < 2; i++) {
        v = get(ctx, names[i]);
        if (v != NULL) {
            if (strlen(v) >= sizeof cfg->kernel_include) {
                snprintf(err, errlen, "--%s: pattern longer than %zu characters", names[i],
                         sizeof cfg->kernel_include - 1);
                return -1;
            }
            snprintf(dst[i], sizeof cfg->kernel_include, "%s", v);
        }
    }
    v = get(ctx, "launch-skip");
    if (v != NULL && parse_u64(v, &cfg->launch_skip) != 0) {
        snprintf(err, errlen, "--launch-skip must be a number, not '%s'", v);
        return -1;
    }
    v = get(ctx, "launch-count");
    if (v != NULL && parse_u64(v, &cfg->launch_count) != 0) {
        snprintf(err, errlen, "--launch-count must be a number, not '%s'", v);
        return -1;
    }
    return 0;
}

static const char *get_encoded(void *ctx, const char *name)
{
    return cc_options_get((const cc_options *)ctx, name);
}

int cc_memcheck_config_parse(cc_memcheck_config *cfg, const char *encoded, char *err,
                             size_t errlen)
{
    cc_options *o = cc_options_parse(encoded);
    if (o == NULL) {
        snprintf(err, errlen, "malformed tool options");
        return -1;
    }
    int rc = cc_memcheck_config_read(cfg, get_encoded, o, err, errlen);
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
