/* memcheck's agent half: the instrumentation manager's client (mc_client.c: global-access
 * patches, the adaptive launch policy, violations read back into events) with memcheck's
 * options parsed by the tool's own parser (src/tools/memcheck/memcheck_options.c), and the
 * module variables (mc_modvars.c: listed when a module loads, named at the next API exit). */
#include <stdio.h>
#include <stdlib.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/tools/launch_args.h"
#include "agent/tools/memcheck/mc_client.h"
#include "agent/tools/memcheck/mc_modvars.h"
#include "agent/nvtx/nvtx_inject.h"
#include "agent/tools/memcheck/mc_torch.h"
#include "agent/tools/memcheck/mc_windows.h"
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

static void memcheck_on_resource(Sanitizer_CallbackId cbid, const void *data)
{
    cc_mc_torch_on_resource(cbid, data);
    switch (cbid) {
    case SANITIZER_CBID_RESOURCE_MODULE_LOADED:
        cc_mc_modvars_module_loaded(data);
        break;
    case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
        cc_mc_modvars_module_unloading(((const Sanitizer_ResourceModuleData *)data)->module);
        break;
    case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
        cc_mc_modvars_context_destroying(((const Sanitizer_ResourceContextData *)data)->context);
        break;
    default:
        break;
    }
}

/* A module loaded in a call (lazy loading: inside its first launch) has its variables named at
 * that call's exit, before any of its launches is read back. */
static void memcheck_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                            const Sanitizer_CallbackData *d)
{
    cc_launch_args_on_api(domain, cbid, d); /* a launch's arguments, for mc_repeat.c */
    if (d->callbackSite == SANITIZER_API_EXIT) {
        cc_mc_modvars_resolve();
        cc_mc_torch_at_api_exit();
        cc_mc_windows_on_api(domain, cbid, d->context);
    }
}

/* A launch that repeated a checked one says so in its event (the closing note counts them). */
static void memcheck_on_launch(const Sanitizer_LaunchData *d, cc_event *ev, int graph_node)
{
    (void)d;
    if (cc_mc_launch_was_repeat() && !graph_node) {
        ev->u.launch.flags |= CC_LAUNCH_FLAG_REPEAT;
    }
}

/* The program's NVTX memory annotations (sub-allocator heaps and regions) come to the agent. */
static void memcheck_init(void)
{
    cc_nvtx_attach("memcheck");
}

const cc_agent_plugin cc_memcheck_plugin = {
    .tool = "memcheck",
    .init = memcheck_init,
    .instr_client = memcheck_client,
    .on_resource = memcheck_on_resource,
    .on_api = memcheck_on_api,
    .on_launch = memcheck_on_launch,
    /* PyTorch's tensors: a step's thousand region events cost about 0.9 us each analysed on
     * the program's thread (H200, transformer step), a copy into the ring less. */
    .event_thread = 1,
};
