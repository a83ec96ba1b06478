/* Enabling the driver's lightweight GPU core dump for exact attribution (coredump_agent.h). The
 * driver reads its CUDA_* core dump variables when CUDA initializes, so the agent sets them at
 * its start when asked to (`cucheck run --coredump on`; off by default, see below): dump on
 * exception, no memory of any kind (generation flags skip_*), no abort of the program
 * (skip_abort; no CPU core dump either), written to cucheck_gpucore.<pid>.nvcudmp next to the
 * report (or in $TMPDIR). Not done when the option is off, or when the user or
 * another tool already set any of the variables (the user's settings win). Loaded through
 * CUDA_INJECTION64_PATH alone, the agent starts inside cuInit and the variables may come too
 * late: then no dump appears and attribution falls back to the launches in flight. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/tools/run/coredump_agent.h"
#include "core/agent_env.h"
#include "core/options.h"
#include "agent/core/agent_knobs.h"

/* Set by the agent next to the CUDA variables, so that a child process's agent knows they are
 * its parent agent's and not the user's. */

static char cc_coredump_file[CC_AGENT_PATH_MAX];

static const char *const cc_user_vars[] = {
    "CUDA_ENABLE_COREDUMP_ON_EXCEPTION", "CUDA_ENABLE_CPU_COREDUMP_ON_EXCEPTION",
    "CUDA_ENABLE_LIGHTWEIGHT_COREDUMP",  "CUDA_COREDUMP_FILE",
    "CUDA_COREDUMP_GENERATION_FLAGS",    "CUDA_ENABLE_USER_TRIGGERED_COREDUMP",
    "CUDA_COREDUMP_PIPE",                "CUDA_DEVICE_WAITS_ON_EXCEPTION",
};

const char *cc_agent_coredump_path(void) { return cc_coredump_file; }

static int cc_coredump_option_off(void)
{
    /* Off by default: measured on an H200 (driver of CUDA 13.0), the driver disables the dump
     * while a tools API client (the Sanitizer, CUPTI) is attached, printing "CUDA coredump is
     * not supported with other developer tools"; and with skip_abort the failing call of a
     * program without tools returned cudaSuccess (the error was swallowed). */
    return !cc_agent_switch(cc_knob_name(CC_KNOB_COREDUMP), "coredump", 0);
}

/* Directory of path (without the last '/'), or "." when it has none. */
static void cc_dir_of(const char *path, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        snprintf(out, len, ".");
    } else if (slash == path) {
        snprintf(out, len, "/");
    } else {
        snprintf(out, len, "%.*s", (int)(slash - path), path);
    }
}

void cc_agent_coredump_setup(void)
{
    cc_agent *a = &cc_agent_g;
    cc_coredump_file[0] = '\0';
    if (cc_coredump_option_off()) {
        return;
    }
    if (cc_knob_get(CC_KNOB_COREDUMP_OWNED) == NULL) {
        for (size_t i = 0; i < sizeof cc_user_vars / sizeof cc_user_vars[0]; i++) {
            if (getenv(cc_user_vars[i]) != NULL) {
                cc_agent_note("%s is set: the GPU core dump stays as configured and "
                              "attribution uses in-flight launches only", cc_user_vars[i]);
                return;
            }
        }
    }
    char dir[CC_AGENT_PATH_MAX];
    const char *base = a->report_path[0] ? a->report_path : a->record_path;
    if (base[0] != '\0') {
        cc_dir_of(base, dir, sizeof dir);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s", tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
    }
    if (strchr(dir, '%') != NULL || access(dir, W_OK) != 0) {
        cc_agent_note("no writable directory without '%%' for the GPU core dump (%s)", dir);
        return;
    }
    /* The driver expands %p to the pid of the process that dumps (children included). */
    char pattern[CC_AGENT_PATH_MAX];
    int n = snprintf(pattern, sizeof pattern, "%.*s/cucheck_gpucore.%%p.nvcudmp",
                     (int)(sizeof dir - 64), dir);
    if (n < 0 || (size_t)n >= sizeof pattern) {
        return;
    }
    n = snprintf(cc_coredump_file, sizeof cc_coredump_file, "%.*s/cucheck_gpucore.%d.nvcudmp",
                 (int)(sizeof dir - 64), dir, (int)getpid());
    if (n < 0 || (size_t)n >= sizeof cc_coredump_file) {
        cc_coredump_file[0] = '\0';
        return;
    }
    unlink(cc_coredump_file); /* a stale dump of an earlier process with the same pid */
    setenv(cc_knob_name(CC_KNOB_COREDUMP_OWNED), "1", 1);
    setenv("CUDA_ENABLE_COREDUMP_ON_EXCEPTION", "1", 1);
    setenv("CUDA_ENABLE_CPU_COREDUMP_ON_EXCEPTION", "0", 1);
    setenv("CUDA_COREDUMP_GENERATION_FLAGS",
           "skip_nonrelocated_elf_images,skip_global_memory,skip_shared_memory,"
           "skip_local_memory,skip_constbank_memory,skip_abort",
           1);
    setenv("CUDA_COREDUMP_FILE", pattern, 1);
    cc_agent_note("GPU core dump on exception enabled: %s", cc_coredump_file);
}
