/* Entry points of libcucheck_agent.so: InitializeInjection (called by the CUDA driver when the
 * library is named in CUDA_INJECTION64_PATH) and a load-time constructor (LD_PRELOAD, or a plain
 * dlopen). Whichever runs first initializes the agent; the other finds it done (pthread_once).
 * When the driver itself loads the agent (CUDA_INJECTION64_PATH names this file and LD_PRELOAD
 * does not), the constructor runs inside the driver's dlopen during cuInit; it then leaves
 * initialization to InitializeInjection, the documented entry, which the driver calls right
 * after. InitializeInjection must return 1: on 0 the driver unloads the library again, and the
 * next callback crashes (seen on an H200 with CUDA 13.0). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/core/agent_knobs.h"
#include "agent/core/agent_plugin.h"
#include "agent/core/self_time.h"
#include "agent/core/self_profile.h"
#include "agent/instr/instr.h"
#include "agent/backends/cupti/cupti_api.h"
#include "core/agent_env.h"

/* cupti_backend.h cannot be included beside the Sanitizer headers (both define the same legacy
 * CUDA types); this is its one entry point. */
int cc_cupti_backend_start(void);

cc_agent cc_agent_g = {
    .lock = PTHREAD_RWLOCK_INITIALIZER,
};

static pthread_once_t cc_agent_once = PTHREAD_ONCE_INIT;

static int cc_env_is_one(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, "1") == 0;
}

const cc_agent_plugin *cc_agent_plugin_g;

static void cc_agent_init_once(void)
{
    cc_agent *a = &cc_agent_g;
    a->verbose = cc_env_is_one(cc_knob_name(CC_KNOB_VERBOSE));
    a->quiet = cc_env_is_one(CC_ENV_QUIET);
    const char *tool = getenv(CC_ENV_TOOL);
    if (tool == NULL || tool[0] == '\0') {
        tool = CC_DEFAULT_TOOL;
    }
    snprintf(a->tool, sizeof a->tool, "%s", tool);
    cc_agent_plugin_g = cc_agent_plugin_find(a->tool);
    /* --target-processes application-only: a process cucheck did not start itself (a child of
     * the program, which inherited the injection) runs without callbacks and writes no report. */
    const char *parent = cc_knob_get(CC_KNOB_TARGET_PARENT);
    if (parent != NULL && parent[0] != '\0' && strtol(parent, NULL, 10) != (long)getppid()) {
        cc_agent_note("process %ld is not the one cucheck started (--target-processes "
                      "application-only): not checked", (long)getpid());
        return;
    }
    const cc_agent_plugin *plugin = cc_agent_plugin_g;
    atomic_store(&a->next_launch_id, 1);
    a->track = cc_agent_track_config(plugin->default_track);
    cc_self_time_init();
    cc_self_profile_start();
    cc_agent_backend backend = plugin->backend != NULL ? plugin->backend() : CC_BACKEND_SANITIZER;
    if (backend == CC_BACKEND_CUPTI_TRACE) { /* one tools API per process: CUPTI only */
        cc_cupti_backend_start();
        return;
    }
    if (backend == CC_BACKEND_CUPTI_API) {
        int r = cc_capi_start();
        if (r != -1) {
            return; /* running, or the outputs could not be opened */
        }
        /* CUPTI unavailable: the Sanitizer's callbacks give the same events */
    }
    /* Subscribe first (no callbacks arrive before they are enabled), so that a process we
     * cannot attach to leaves no misleading "clean" report behind. */
    if (cc_agent_subscribe() != 0) {
        return;
    }
    if (cc_agent_open_outputs() != 0) {
        sanitizerUnsubscribe(a->subscriber);
        a->subscribed = 0;
        return;
    }
    if (!cc_agent_patches_embedded()) {
        cc_agent_note("built without device patches (no nvcc or Compute Sanitizer headers at "
                      "build time): device-side checks are unavailable");
    }
    cc_agent_install_exit_handlers();
    CC_PLUGIN_CALL(init);
    cc_instr_init(plugin->instr_client != NULL ? plugin->instr_client() : NULL);
    cc_agent_events_start(); /* the tool's analysis on its own thread */
    cc_agent_enable_callbacks();
}

/* CUDA_INJECTION64_PATH entry. Returns 1: the driver reads 0 as a failed injection. Even then
 * the agent stays loaded (linked with -z nodelete), since its callbacks and exit handlers
 * point into it. */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    pthread_once(&cc_agent_once, cc_agent_init_once);
    return 1;
}

/* 1 if path names the same file as st. */
static int cc_same_file(const char *path, const struct stat *st)
{
    struct stat other;
    return path[0] != '\0' && stat(path, &other) == 0 && other.st_dev == st->st_dev &&
           other.st_ino == st->st_ino;
}

/* 1 if the CUDA driver is loading this library through CUDA_INJECTION64_PATH, i.e. that variable
 * names this file and no LD_PRELOAD entry does. */
static int cc_loaded_by_cuda_injection(void)
{
    const char *injection = getenv("CUDA_INJECTION64_PATH");
    Dl_info info;
    struct stat self;
    if (injection == NULL || injection[0] == '\0' ||
        dladdr((void *)&cc_loaded_by_cuda_injection, &info) == 0 || info.dli_fname == NULL ||
        stat(info.dli_fname, &self) != 0 || !cc_same_file(injection, &self)) {
        return 0;
    }
    const char *preload = getenv("LD_PRELOAD");
    if (preload == NULL) {
        return 1;
    }
    char entry[CC_AGENT_PATH_MAX];
    const char *p = preload;
    while (*p != '\0') {
        size_t n = strcspn(p, ": ");
        if (n > 0 && n < sizeof entry) {
            memcpy(entry, p, n);
            entry[n] = '\0';
            if (cc_same_file(entry, &self)) {
                return 0;
            }
        }
        p += n;
        p += strspn(p, ": ");
    }
    return 1;
}

/* LD_PRELOAD (and dlopen) entry. */
__attribute__((constructor)) static void cc_agent_constructor(void)
{
    if (cc_loaded_by_cuda_injection()) {
        return; /* InitializeInjection follows */
    }
    pthread_once(&cc_agent_once, cc_agent_init_once);
}
