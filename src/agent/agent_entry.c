/* Entry points of libcucheck_agent.so: InitializeInjection (called by the CUDA driver when the
 * library is named in CUDA_INJECTION64_PATH) and a load-time constructor (LD_PRELOAD). Whichever
 * runs first initializes the agent; the other finds it done (pthread_once). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent.h"
#include "core/agent_env.h"

cc_agent cc_agent_g = {
    .lock = PTHREAD_RWLOCK_INITIALIZER,
};

static pthread_once_t cc_agent_once = PTHREAD_ONCE_INIT;

static int cc_env_is_one(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, "1") == 0;
}

static void cc_agent_init_once(void)
{
    cc_agent *a = &cc_agent_g;
    a->verbose = cc_env_is_one(CC_ENV_VERBOSE);
    a->quiet = cc_env_is_one(CC_ENV_QUIET);
    const char *tool = getenv(CC_ENV_TOOL);
    if (tool == NULL || tool[0] == '\0') {
        tool = "run";
    }
    snprintf(a->tool, sizeof a->tool, "%s", tool);
    atomic_store(&a->next_launch_id, 1);

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
    cc_agent_enable_callbacks();
}

/* CUDA_INJECTION64_PATH entry. Returns 0 (the driver ignores the value). */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    pthread_once(&cc_agent_once, cc_agent_init_once);
    return 0;
}

/* LD_PRELOAD entry. */
__attribute__((constructor)) static void cc_agent_constructor(void)
{
    pthread_once(&cc_agent_once, cc_agent_init_once);
}
