/* profile's agent half: nothing of its own in the process but its backend, CUPTI's activity
 * records (backends/cupti/cupti_backend.c): a process has one tools API, and the Compute
 * Sanitizer's subscription alone would cost more than the whole profile. */
#include "agent/core/agent_plugin.h"

static cc_agent_backend profile_backend(void)
{
    return CC_BACKEND_CUPTI_TRACE;
}

const cc_agent_plugin cc_profile_plugin = {
    .tool = "profile",
    .backend = profile_backend,
};
