/* The environment cucheck gives the program: the agent injected (LD_PRELOAD, prepended to any
 * existing value; CUDA_INJECTION64_PATH) and the contract of core/agent_env.h. Nothing else of
 * the program's environment changes (PyTorch keeps its allocator settings: memcheck reads tensor
 * bounds from the caching allocator itself). */
#ifndef CUCHECK_CLI_RUN_ENV_H
#define CUCHECK_CLI_RUN_ENV_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_run_env {
    const char *agent;          /* absolute path of libcucheck_agent.so */
    const char *tool;           /* registry name */
    const char *options;        /* encoded tool options */
    const char *report_pattern; /* absolute JSONL pattern */
    const char *run_id;         /* this run's id (cli/reports.h) */
    const char *record_pattern; /* absolute .cuevt pattern or NULL */
    const char *suppressions;   /* absolute path or NULL */
    uint64_t print_limit;
    int print_limit_set;
    int agent_quiet;            /* the agent prints nothing live */
    int application_only;       /* --target-processes application-only */
} cc_run_env;

/* Set (and, for options not given, unset) the variables in this process's environment, which
 * the program inherits. 0, or -1 with a message in err. */
int cc_cli_set_agent_env(const cc_run_env *e, char *err, size_t errlen);

/* The agent knob (core/agent_knobs.inc) --target-processes application-only sets. */
#define CC_KNOB_TARGET_PARENT_VAR "CUCHECK_TARGET_PARENT"

#endif
