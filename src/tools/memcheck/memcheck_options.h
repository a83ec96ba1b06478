/* memcheck's options, parsed in one place for the CLI's up-front check, the tool (replay and
 * live) and the agent's instrumentation client (src/agent/tools/memcheck/mc_client.c), which
 * decides what runs with device checks: those every instrumenting tool shares
 * (tools/instr_options.h), --repeats, --on-error, --leak-check and compute-sanitizer's spellings. */
#ifndef CUCHECK_TOOLS_MEMCHECK_OPTIONS_H
#define CUCHECK_TOOLS_MEMCHECK_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"
#include "tools/instr_options.h"

#define CC_MC_DEFAULT_CHECKS_PER_KERNEL CC_INSTR_DEFAULT_CHECKS_PER_KERNEL
#define CC_MC_MAX_CHECKS_PER_KERNEL CC_INSTR_MAX_CHECKS_PER_KERNEL

typedef struct cc_memcheck_config {
    int full;                   /* --mode full: every launch instrumented */
    uint32_t checks_per_kernel; /* adaptive: instrumented launches per (kernel, launch shape) */
    int check_repeats;          /* --repeats check: a repeated launch runs checked too */
    int stop_on_error;          /* --on-error stop */
    int leak_check;             /* --leak-check full */
    char kernel_include[CC_INSTR_GLOB_MAX]; /* glob over the demangled or mangled name; "" = all */
    char kernel_exclude[CC_INSTR_GLOB_MAX];
    uint64_t launch_skip;       /* launches (of included kernels) not checked at first */
    uint64_t launch_count;      /* then at most this many checked; 0 = no limit */
} cc_memcheck_config;

extern const cc_option_spec cc_memcheck_option_specs[];

/* Fill cfg from a getter of option values (NULL = not given): the one parser and validator of
 * memcheck's options. 0, or -1 with one line in err (option, bad value, what is accepted). */
int cc_memcheck_config_read(cc_memcheck_config *cfg, cc_option_get get, void *ctx, char *err,
                            size_t errlen);
/* The tool's check_options: cc_memcheck_config_read into a scratch config. */
int cc_memcheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen);
/* The same from the encoded form of core/options.h (CUCHECK_OPTIONS). */
int cc_memcheck_config_parse(cc_memcheck_config *cfg, const char *encoded, char *err,
                             size_t errlen);
/* 1 if a kernel passes --kernel-include/--kernel-exclude (matched against both names). */
int cc_memcheck_kernel_selected(const cc_memcheck_config *cfg, const char *mangled,
                                const char *demangled);

#endif
