/* The one list of the tools' agent halves (core/agent_plugin.h). Adding a device tool: its
 * folder under src/agent/tools/<name>/ with a cc_agent_plugin, and one line here. */
#include <string.h>
#include "agent/core/agent_plugin.h"

extern const cc_agent_plugin cc_run_plugin;
extern const cc_agent_plugin cc_memcheck_plugin;
extern const cc_agent_plugin cc_streamcheck_plugin;
extern const cc_agent_plugin cc_profile_plugin;
extern const cc_agent_plugin cc_racecheck_plugin;
extern const cc_agent_plugin cc_synccheck_plugin;
extern const cc_agent_plugin cc_initcheck_plugin;

static const cc_agent_plugin *const cc_plugins[] = {
    &cc_run_plugin,
    &cc_memcheck_plugin,
    &cc_streamcheck_plugin,
    &cc_profile_plugin,
    &cc_racecheck_plugin,
    &cc_synccheck_plugin,
    &cc_initcheck_plugin,
};

static const cc_agent_plugin cc_no_plugin = {.tool = ""};

const cc_agent_plugin *cc_agent_plugin_find(const char *tool)
{
    for (size_t i = 0; i < sizeof cc_plugins / sizeof cc_plugins[0]; i++) {
        if (tool != NULL && strcmp(cc_plugins[i]->tool, tool) == 0) {
            return cc_plugins[i];
        }
    }
    return &cc_no_plugin;
}
