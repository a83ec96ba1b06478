/* Parsing and validation of memcheck's options (memcheck_options.h): the one parser behind the
 * tool's check_options, its init and the agent's instrumentation manager. The options every
 * instrumenting tool shares are read by tools/instr_options.c, in the order of memcheck's help. */
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck_options.h"
#include "core/kernel_filter.h"
#include "core/option_values.h"

const cc_option_spec cc_memcheck_option_specs[] = {
    {"mode", 1, "full|adaptive",
     "adaptive (default): check each kernel on its first launches per launch shape, then run "
     "its module unpatched; full: check every access of every launch"},
    CC_INSTR_CHECKS_PER_KERNEL_SPEC,
    {"repeats", 1, "count|check",
     "adaptive mode: count (default): a launch that repeats a checked launch of its kernel and "
     "shape (the same argument values, pointers at the same offsets in allocations of the same "
     "sizes) counts as a check and runs unchecked; check: it runs checked (finds accesses that "
     "depend on the data alone)"},
    {"on-error", 1, "continue|stop",
     "continue (default): report and let the program go on as it would natively; stop: the "
     "faulty warp exits before the invalid access, and the program is stopped after the launch"},
    {"leak-check", 1, "full|no", "full: report device allocations never freed (default no)"},
    CC_INSTR_SELECTION_SPECS,
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

/* compute-sanitizer's filters: the same globs as --kernel-include/--kernel-exclude, one way of
 * giving each */
static int read_cs_filters(cc_instr_config *sel, cc_option_get get, void *ctx, char *err,
                           size_t errlen)
{
    const char *names[2] = {"kernel-include", "kernel-exclude"};
    const char *cs_names[2] = {"kernel-name", "kernel-name-exclude"};
    char *dst[2] = {sel->kernel_include, sel->kernel_exclude};
    for (int i = 0; i < 2; i++) {
        const char *v = get(ctx, cs_names[i]);
        if (v == NULL) {
            continue;
        }
        if (get(ctx, names[i]) != NULL) {
            return cc_optval_refuse(cs_names[i], v, i == 0 ? "no --kernel-include beside it "
                                    "(one filter)" : "no --kernel-exclude beside it (one filter)",
                                    err, errlen);
        }
        if (cc_kernel_filter_glob(cs_names[i], v, dst[i], sizeof sel->kernel_include, err,
                                  errlen) != 0) {
            return -1;
        }
    }
    return 0;
}

/* memcheck's own options and the shared ones into sel, in the order of the help text */
static int read_options(cc_memcheck_config *cfg, cc_instr_config *sel, cc_option_get get,
                        void *ctx, char *err, size_t errlen)
{
    /* each list in the order of its help text */
    static const char *const on_error[] = {"continue", "stop", NULL};
    static const char *const repeats[] = {"count", "check", NULL};
    static const char *const leak_check[] = {"full", "no", NULL};
    static const char *const api_errors[] = {"all", "explicit", "no", NULL};
    if (cc_instr_read_mode(sel, get, ctx, err, errlen) != 0) {
        return -1;
    }
    int i = 0;
    const char *v = get(ctx, "repeats");
    if (v != NULL) {
        if (cc_optval_choice("repeats", v, repeats, &i, err, errlen) != 0) {
            return -1;
        }
        cfg->check_repeats = i == 1;
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
    if (cc_instr_read_kernel_globs(sel, get, ctx, err, errlen) != 0 ||
        read_cs_filters(sel, get, ctx, err, errlen) != 0) {
        return -1;
    }
    v = get(ctx, "report-api-errors");
    if (v != NULL && cc_optval_choice("report-api-errors", v, api_errors, &i, err, errlen) != 0) {
        return -1;
    }
    return cc_instr_read_launch_window(sel, get, ctx, err, errlen);
}

int cc_memcheck_config_read(cc_memcheck_config *cfg, cc_option_get get, void *ctx, char *err,
                            size_t errlen)
{
    cc_instr_config sel;
    cc_instr_config_defaults(&sel);
    memset(cfg, 0, sizeof *cfg);
    int rc = read_options(cfg, &sel, get, ctx, err, errlen);
    cfg->full = sel.full;
    cfg->checks_per_kernel = sel.checks_per_kernel;
    memcpy(cfg->kernel_include, sel.kernel_include, sizeof cfg->kernel_include);
    memcpy(cfg->kernel_exclude, sel.kernel_exclude, sizeof cfg->kernel_exclude);
    cfg->launch_skip = sel.launch_skip;
    cfg->launch_count = sel.launch_count;
    return rc;
}

int cc_memcheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_memcheck_config cfg;
    return cc_memcheck_config_read(&cfg, get, ctx, err, errlen);
}

static int read_config(void *cfg, cc_option_get get, void *ctx, char *err, size_t errlen)
{
    return cc_memcheck_config_read(cfg, get, ctx, err, errlen);
}

int cc_memcheck_config_parse(cc_memcheck_config *cfg, const char *encoded, char *err,
                             size_t errlen)
{
    return cc_instr_config_parse(cfg, read_config, encoded, err, errlen);
}

int cc_memcheck_kernel_selected(const cc_memcheck_config *cfg, const char *mangled,
                                const char *demangled)
{
    return cc_instr_kernel_selected(cfg->kernel_include, cfg->kernel_exclude, mangled, demangled);
}
