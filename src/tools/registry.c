/* The tool registry: the one list of every tool cucheck knows. Adding a tool = one line here
 * plus its folder src/tools/<name>/. */
#include <string.h>
#include "cucheck/tool.h"

extern const cc_tool cc_tool_run;
extern const cc_tool cc_tool_profile;
extern const cc_tool cc_tool_streamcheck;
extern const cc_tool cc_tool_memcheck;
extern const cc_tool cc_tool_racecheck;
extern const cc_tool cc_tool_synccheck;
extern const cc_tool cc_tool_initcheck;

static const cc_tool *const registry[] = {
    &cc_tool_run,
    &cc_tool_profile,
    &cc_tool_streamcheck,
    &cc_tool_memcheck,
    &cc_tool_racecheck,
    &cc_tool_synccheck,
    &cc_tool_initcheck,
    NULL,
};

const cc_tool *const *cc_tool_list(void) { return registry; }

const cc_tool *cc_tool_find(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}
