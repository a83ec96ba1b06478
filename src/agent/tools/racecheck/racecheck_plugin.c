/* racecheck's agent half: the instrumentation manager's client (rc_client.c: the race patches,
 * the adaptive launch policy, hazards read back into CC_EV_DEVICE_RACE events) with racecheck's
 * options parsed by the tool's own parser (src/tools/racecheck/racecheck_options.c), and the
 * launch calls' dynamic shared memory noted for the shadow's size (rc_kernel_code.c). */
#include <stdio.h>
#include <stdlib.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/tools/racecheck/rc_client.h"
#include "core/agent_env.h"

static const cc_instr_client *racecheck_client(void)
{
    if (!cc_agent_patches_available()) {
        fprintf(stderr, "cucheck: racecheck: this agent was built without device patches; "
                        "nothing is checked\n");
        return NULL;
    }
    char err[256];
    if (cc_rc_config_load(getenv(CC_ENV_OPTIONS), err, sizeof err) != 0) {
        fprintf(stderr, "cucheck: racecheck: %s; device checks are off\n", err);
        return NULL;
    }
    return cc_rc_client_init();
}

static void racecheck_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                             const Sanitizer_CallbackData *d)
{
    cc_rc_launch_call_note(domain, cbid, d);
}

const cc_agent_plugin cc_racecheck_plugin = {
    .tool = "racecheck",
    .instr_client = racecheck_client,
    .on_api = racecheck_on_api,
};
