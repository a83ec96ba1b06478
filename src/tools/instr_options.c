/* The shared options of the instrumenting tools (instr_options.h): their parsing, validation and
 * the kernel selection they describe. */
#include <stdio.h>
#include <string.h>
#include "tools/instr_options.h"
#include "core/option_values.h"
#include "core/options.h"
#include "core/suppress.h"

void cc_instr_config_defaults(cc_instr_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->checks_per_kernel = CC_INSTR_DEFAULT_CHECKS_PER_KERNEL;
}

int cc_instr_read_mode(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                       size_t errlen)
{
    static const char *const modes[] = {"full", "adaptive", NULL}; /* the help's order */
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
        if (cc_optval_uint("checks-per-kernel", v, 1, CC_INSTR_MAX_CHECKS_PER_KERNEL, &n, err,
                           errlen) != 0) {
            return -1;
        }
        cfg->checks_per_kernel = (uint32_t)n;
    }
    return 0;
}

int cc_instr_read_kernel_globs(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                               size_t errlen)
{
    const char *names[2] = {"kernel-include", "kernel-exclude"};
    char *dst[2] = {cfg->kernel_include, cfg->kernel_exclude};
    for (int k = 0; k < 2; k++) {
        const char *v = get(ctx, names[k]);
        if (v == NULL) {
            continue;
        }
        if (cc_optval_text(names[k], v, CC_INSTR_GLOB_MAX - 1, "a kernel name glob", err,
                           errlen) != 0) {
            return -1;
        }
        snprintf(dst[k], CC_INSTR_GLOB_MAX, "%s", v);
    }
    return 0;
}

int cc_instr_read_launch_window(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                                size_t errlen)
{
    const char *v = get(ctx, "launch-skip");
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

int cc_instr_config_read(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                         size_t errlen)
{
    cc_instr_config_defaults(cfg);
    if (cc_instr_read_mode(cfg, get, ctx, err, errlen) != 0 ||
        cc_instr_read_kernel_globs(cfg, get, ctx, err, errlen) != 0) {
        return -1;
    }
    return cc_instr_read_launch_window(cfg, get, ctx, err, errlen);
}

int cc_instr_config_parse(void *cfg, cc_instr_config_reader read, const char *encoded, char *err,
                          size_t errlen)
{
    cc_options *o = cc_options_parse(encoded);
    if (o == NULL) {
        snprintf(err, errlen, "malformed tool options");
        return -1;
    }
    int rc = read(cfg, cc_options_getter, o, err, errlen);
    cc_options_free(o);
    return rc;
}

int cc_instr_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_instr_config cfg;
    return cc_instr_config_read(&cfg, get, ctx, err, errlen);
}

static int read_shared_config(void *cfg, cc_option_get get, void *ctx, char *err, size_t errlen)
{
    return cc_instr_config_read(cfg, get, ctx, err, errlen);
}

int cc_instr_shared_config_parse(cc_instr_config *cfg, const char *encoded, char *err,
                                 size_t errlen)
{
    return cc_instr_config_parse(cfg, read_shared_config, encoded, err, errlen);
}

static int match_either(const char *pattern, const char *a, const char *b)
{
    return (a != NULL && cc_glob_match(pattern, a)) || (b != NULL && cc_glob_match(pattern, b));
}

int cc_instr_kernel_selected(const char *include, const char *exclude, const char *mangled,
                             const char *demangled)
{
    if (include[0] != '\0' && !match_either(include, mangled, demangled)) {
        return 0;
    }
    if (exclude[0] != '\0' && match_either(exclude, mangled, demangled)) {
        return 0;
    }
    return 1;
}
