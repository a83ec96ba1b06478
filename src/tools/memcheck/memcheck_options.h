/* memcheck's options, parsed in one place for the tool (replay and live) and for the agent's
 * instrumentation manager (src/agent/instr_*.c), which decides what runs with device checks. */
#ifndef CUCHECK_TOOLS_MEMCHECK_OPTIONS_H
#define CUCHECK_TOOLS_MEMCHECK_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"

#define CC_MC_DEFAULT_CHECKS_PER_KERNEL 2u

typedef struct cc_memcheck_config {
    int full;                   /* --mode full: every launch instrumented */
    uint32_t checks_per_kernel; /* adaptive: instrumented launches per (kernel, launch shape) */
    int stop_on_error;          /* --on-error stop */
    int leak_check;             /* --leak-check full */
    char kernel_include[256];   /* glob over the demangled or mangled name; "" = all */
    char kernel_exclude[256];
    uint64_t launch_skip;       /* launches (of included kernels) not checked at first */
    uint64_t launch_count;      /* then at most this many checked; 0 = no limit */
} cc_memcheck_config;

extern const cc_option_spec cc_memcheck_option_specs[];

/* Fill cfg from a getter of option values (NULL = not given). 0, or -1 with a message. */
int cc_memcheck_config_read(cc_memcheck_config *cfg,
                            const char *(*get)(void *ctx, const char *name), void *ctx,
                            char *err, size_t errlen);
/* The same from the encoded form of core/options.h (CUCHECK_OPTIONS). */
int cc_memcheck_config_parse(cc_memcheck_config *cfg, const char *encoded, char *err,
                             size_t errlen);
/* 1 if a kernel passes --kernel-include/--kernel-exclude (matched against both names). */
int cc_memcheck_kernel_selected(const cc_memcheck_config *cfg, const char *mangled,
                                const char *demangled);

#endif
