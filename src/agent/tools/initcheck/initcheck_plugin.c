/* initcheck's agent half: the instrumentation manager's client (ic_client.c: the global-access
 * patches, the adaptive launch policy, the uninitialised ranges and write bitmap of a checked
 * launch, read back into events at the launch call's exit), the agent-side model every emitted
 * event moves along (ic_model.c), and PyTorch's caching allocator's tensor blocks, read as
 * memcheck reads them (mc_torch.h), so that a block handed to a new tensor is uninitialised
 * again. Options are parsed by the tool's own parser (src/tools/initcheck/initcheck_options.c). */
#include <stdio.h>
#include <stdlib.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/nvtx/nvtx_inject.h"
#include "agent/tools/initcheck/ic_client.h"
#include "agent/tools/initcheck/ic_model.h"
#include "agent/tools/memcheck/mc_torch.h"
#include "core/agent_env.h"

static const cc_instr_client *initcheck_client(void)
{
    if (!cc_agent_patches_available()) {
        fprintf(stderr, "cucheck: initcheck: this agent was built without device patches; only "
                        "copies to the host are checked\n");
        return NULL;
    }
    char err[256];
    if (cc_ic_config_load(getenv(CC_ENV_OPTIONS), err, sizeof err) != 0) {
        fprintf(stderr, "cucheck: initcheck: %s; device checks are off\n", err);
        return NULL;
    }
    return cc_ic_client_init();
}

static void initcheck_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                             const Sanitizer_CallbackData *d)
{
    (void)domain, (void)cbid;
    if (d->callbackSite == SANITIZER_API_EXIT) {
        cc_mc_torch_at_api_exit();
    }
}

static void initcheck_init(void)
{
    cc_nvtx_attach("initcheck");
}

const cc_agent_plugin cc_initcheck_plugin = {
    .tool = "initcheck",
    .init = initcheck_init,
    .instr_client = initcheck_client,
    .on_resource = cc_mc_torch_on_resource,
    .on_api = initcheck_on_api,
    .on_event = cc_ic_model_on_event,
};
