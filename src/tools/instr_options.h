/* The options every instrumenting tool (memcheck, racecheck) shares, and their one parser: --mode
 * adaptive|full, --checks-per-kernel, the kernel selection (--kernel-include/--kernel-exclude
 * globs over the mangled and demangled names) and the launch window (--launch-skip/
 * --launch-count). Each tool keeps its own options and its help's wording of --mode. */
#ifndef CUCHECK_TOOLS_INSTR_OPTIONS_H
#define CUCHECK_TOOLS_INSTR_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"

#define CC_INSTR_DEFAULT_CHECKS_PER_KERNEL 2u
#define CC_INSTR_MAX_CHECKS_PER_KERNEL 1000000u
#define CC_INSTR_GLOB_MAX 256

typedef struct cc_instr_config {
    int full;                   /* --mode full: every launch instrumented */
    uint32_t checks_per_kernel; /* adaptive: instrumented launches per (kernel, launch shape) */
    char kernel_include[CC_INSTR_GLOB_MAX]; /* glob over the demangled or mangled name; "" = all */
    char kernel_exclude[CC_INSTR_GLOB_MAX];
    uint64_t launch_skip;       /* launches (of included kernels) not checked at first */
    uint64_t launch_count;      /* then at most this many checked; 0 = no limit */
} cc_instr_config;

/* The help entries of the shared options, for a tool's cc_option_spec table. */
#define CC_INSTR_CHECKS_PER_KERNEL_SPEC                                                          \
    {"checks-per-kernel", 1, "N", "adaptive mode: checked launches per kernel and launch shape, " \
                                  "1 to 1000000 (default 2)"}
#define CC_INSTR_SELECTION_SPECS                                                                 \
    {"kernel-include", 1, "GLOB", "check only kernels whose name matches"},                      \
    {"kernel-exclude", 1, "GLOB", "never check kernels whose name matches"},                     \
    {"launch-skip", 1, "N", "do not check the first N launches of selected kernels (default 0)"}, \
    {"launch-count", 1, "N", "check at most N launches (0: no limit)"}

/* The readers below take a getter of option values (NULL = not given) and return 0, or -1 with
 * one line in err (option, bad value, what is accepted). A tool with options of its own calls
 * them one by one, in the order of its help, so that the first bad option is the one named. */

/* Defaults: adaptive, CC_INSTR_DEFAULT_CHECKS_PER_KERNEL, every kernel, every launch. */
void cc_instr_config_defaults(cc_instr_config *cfg);
/* --mode and --checks-per-kernel. */
int cc_instr_read_mode(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                       size_t errlen);
/* --kernel-include and --kernel-exclude. */
int cc_instr_read_kernel_globs(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                               size_t errlen);
/* --launch-skip and --launch-count. */
int cc_instr_read_launch_window(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                                size_t errlen);
/* Defaults, then all of the above in the help's order: a tool with no options of its own. */
int cc_instr_config_read(cc_instr_config *cfg, cc_option_get get, void *ctx, char *err,
                         size_t errlen);

/* A tool's reader of its whole config, for cc_instr_config_parse. */
typedef int (*cc_instr_config_reader)(void *cfg, cc_option_get get, void *ctx, char *err,
                                      size_t errlen);
/* Run read over the encoded form of core/options.h (CUCHECK_OPTIONS), for the agent's half of a
 * tool; "malformed tool options" when it does not decode. */
int cc_instr_config_parse(void *cfg, cc_instr_config_reader read, const char *encoded, char *err,
                          size_t errlen);

/* For a tool with only the shared options (racecheck, synccheck): its check_options
 * (cc_instr_config_read into a scratch config), and its agent half's reader of the encoded
 * options. */
int cc_instr_options_check(cc_option_get get, void *ctx, char *err, size_t errlen);
int cc_instr_shared_config_parse(cc_instr_config *cfg, const char *encoded, char *err,
                                 size_t errlen);

/* 1 if a kernel passes the include and exclude globs ("" = none), each matched against both of
 * its names (either may be NULL). */
int cc_instr_kernel_selected(const char *include, const char *exclude, const char *mangled,
                             const char *demangled);

#endif
