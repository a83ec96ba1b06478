/* streamcheck's agent half: kernels' access sets, instrumented and learned (sc_client.c,
 * sc_learn.c: the instrumentation manager's client, default and full modes) or inferred from
 * pointer arguments (access_infer.c); --mode api takes its events from CUPTI's callbacks. It
 * watches only the API calls it reads, analyses on the event thread, and has the agent's NCCL
 * interposer report collectives as stream operations (host/nccl_calls.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/instr/instr_internal.h"
#include "agent/tools/streamcheck/access_infer.h"
#include "agent/tools/streamcheck/sc_agent.h"
#include "core/agent_env.h"
#include "core/hb_engine.h"
#include "tools/streamcheck/sc_options.h"
#include "agent/core/agent_knobs.h"

/* --mode, by the tool's own parser (the session refuses a bad value before anything runs). */
static int streamcheck_mode(void)
{
    cc_streamcheck_options o;
    char err[256];
    if (cc_streamcheck_options_parse(&o, getenv(CC_ENV_OPTIONS), err, sizeof err) != 0) {
        return CC_HB_MODE_DEFAULT;
    }
    return o.mode;
}

/* CUCHECK_API_BACKEND=sanitizer keeps --mode api on the Compute Sanitizer (comparisons). */
static cc_agent_backend streamcheck_backend(void)
{
    const char *b = cc_knob_get(CC_KNOB_API_BACKEND);
    if (streamcheck_mode() != CC_HB_MODE_API || (b != NULL && strcmp(b, "sanitizer") == 0)) {
        return CC_BACKEND_SANITIZER;
    }
    return CC_BACKEND_CUPTI_API;
}

static const cc_instr_client *streamcheck_client(void)
{
    int mode = streamcheck_mode();
    if (mode == CC_HB_MODE_API) {
        return NULL; /* inferred sets only: nothing is patched */
    }
    if (!cc_agent_patches_available()) {
        fprintf(stderr, "cucheck: streamcheck: this agent was built without device patches; "
                        "kernel access sets are inferred from pointer arguments only\n");
        return NULL;
    }
    return cc_sc_client_init(mode == CC_HB_MODE_FULL ? CC_SC_MODE_FULL : CC_SC_MODE_DEFAULT);
}

const cc_agent_plugin cc_streamcheck_plugin = {
    .tool = "streamcheck",
    .backend = streamcheck_backend,
    .default_track = (CC_TRACK_ALL & ~(CC_TRACK_RUNTIME | CC_TRACK_DRIVER)) | CC_TRACK_APIWORK,
    .event_thread = 1,
    .needs_collectives = 1,
    .needs_library_owner = 1, /* races inside cuDNN, cuBLAS, ... are counted, not reported */
    .instr_client = streamcheck_client,
    .init = cc_access_init,
    .on_resource = cc_access_on_resource,
    .on_api = cc_access_on_api,
    .after_launch = cc_access_after_launch,
    .after_graph_node = cc_access_after_graph_node,
};
