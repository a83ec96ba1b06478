/* synccheck's agent half: the instrumentation manager's client (sy_client.c: the
 * synchronization patches, the adaptive launch policy, misuse records read back into
 * CC_EV_DEVICE_SYNC_ERROR events) with synccheck's options parsed by the tool's own parser
 * (src/tools/synccheck/synccheck_options.c). */
#include <stdio.h>
#include <stdlib.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/tools/synccheck/sy_client.h"
#include "core/agent_env.h"

static const cc_instr_client *synccheck_client(void)
{
    if (!cc_agent_patches_available()) {
        fprintf(stderr, "cucheck: synccheck: this agent was built without device patches; "
                        "nothing is checked\n");
        return NULL;
    }
    char err[256];
    if (cc_sy_config_load(getenv(CC_ENV_OPTIONS), err, sizeof err) != 0) {
        fprintf(stderr, "cucheck: synccheck: %s; device checks are off\n", err);
        return NULL;
    }
    return cc_sy_client_init();
}

const cc_agent_plugin cc_synccheck_plugin = {
    .tool = "synccheck",
    .instr_client = synccheck_client,
};
