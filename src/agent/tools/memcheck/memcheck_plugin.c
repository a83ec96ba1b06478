/* memcheck's agent half: the instrumentation manager's client (mc_client.c: global-access
 * patches, the adaptive launch policy, violations read back into events) with memcheck's
 * options parsed by the tool's own parser (src/tools/memcheck/memcheck_options.c). */
#include <stdio.h>
#include <stdlib.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/tools/memcheck/mc_client.h"
#include "core/agent_env.h"

static const cc_instr_client *memcheck_client(void)
{
    if (!cc_agent_patches_available()) {
        fprintf(stderr, "cucheck: memcheck: this agent was built without device patches; only "
                        "host-side checks run\n");
        return NULL;
    }
    char err[256];
    if (cc_mc_config_load(getenv(CC_ENV_OPTIONS), err, sizeof err) != 0) {
        fprintf(stderr, "cucheck: memcheck: %s; device checks are off\n", err);
        return NULL;
    }
    return cc_mc_client_init();
}

const cc_agent_plugin cc_memcheck_plugin = {
    .tool = "memcheck",
    .instr_client = memcheck_client,
};
