/* Setting up the program's environment for the agent (run_env.h). */
#include "cli/run_env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/agent_env.h"
#include "cli/run_knobs.h"

/* Is `lib` one of the entries of an LD_PRELOAD list (separated by ':' or ' ')? */
static int preload_has(const char *list, const char *lib)
{
    size_t n = strlen(lib);
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ": ");
        if (len == n && strncmp(p, lib, n) == 0) {
            return 1;
        }
        p += len;
        while (*p == ':' || *p == ' ') {
            p++;
        }
    }
    return 0;
}

static int set(const char *name, const char *value, char *err, size_t errlen)
{
    int rc = value ? setenv(name, value, 1) : unsetenv(name);
    if (rc != 0) {
        snprintf(err, errlen, "cannot set %s: %s", name, strerror(errno));
        return -1;
    }
    return 0;
}

int cc_cli_set_agent_env(const cc_run_env *e, char *err, size_t errlen)
{
    const char *old = getenv("LD_PRELOAD");
    if (old && *old && !preload_has(old, e->agent)) {
        size_t n = strlen(e->agent) + strlen(old) + 2;
        char *v = malloc(n);
        if (!v) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        snprintf(v, n, "%s:%s", e->agent, old);
        int rc = set("LD_PRELOAD", v, err, errlen);
        free(v);
        if (rc != 0) {
            return -1;
        }
    } else if (!old || !*old) {
        if (set("LD_PRELOAD", e->agent, err, errlen) != 0) {
            return -1;
        }
    }
    char limit[32];
    snprintf(limit, sizeof limit, "%llu", (unsigned long long)e->print_limit);
    if (set("CUDA_INJECTION64_PATH", e->agent, err, errlen) != 0 ||
        set(CC_ENV_AGENT, e->agent, err, errlen) != 0 ||
        set(CC_ENV_TOOL, e->tool, err, errlen) != 0 ||
        set(CC_ENV_OPTIONS, e->options ? e->options : "", err, errlen) != 0 ||
        set(CC_ENV_REPORT, e->report_pattern, err, errlen) != 0 ||
        set(CC_ENV_RUN_ID, e->run_id, err, errlen) != 0 ||
        set(CC_ENV_RECORD, e->record_pattern, err, errlen) != 0 ||
        set(CC_ENV_SUPPRESSIONS, e->suppressions, err, errlen) != 0 ||
        set(CC_ENV_PRINT_LIMIT, e->print_limit_set ? limit : NULL, err, errlen) != 0 ||
        set(CC_ENV_QUIET, e->agent_quiet ? "1" : NULL, err, errlen) != 0 ||
        cc_cli_knobs_env(err, errlen) != 0) {
        return -1;
    }
    /* --verbose: the agent explains itself too (its notes: limits raised, modules without line
     * information, ...), unless CUCHECK_VERBOSE was given a value of its own. */
    if (!e->agent_quiet && getenv("CUCHECK_VERBOSE") == NULL &&
        set("CUCHECK_VERBOSE", "1", err, errlen) != 0) {
        return -1;
    }
    /* --target-processes application-only: the agent checks only the process whose parent is
     * this cucheck (an agent knob: cc_cli_knobs_env has just removed any inherited value). */
    if (e->application_only) {
        char pid[32];
        snprintf(pid, sizeof pid, "%ld", (long)getpid());
        if (set(CC_KNOB_TARGET_PARENT_VAR, pid, err, errlen) != 0) {
            return -1;
        }
    }
    return 0;
}
