/* The agent's environment knobs (core/agent_knobs.inc): every knob is read through here. The
 * ones that change what the tool checks are named in the report when the outputs open
 * (core/knob_table.h). */
#include <stdlib.h>
#include "agent/core/agent_knobs.h"

static const char *const cc_knob_names[CC_KNOB_COUNT] = {
#define CC_KNOB(id, var, kind, values, meaning, checks) [CC_KNOB_##id] = var,
#include "core/agent_knobs.inc"
#undef CC_KNOB
};

const char *cc_knob_name(cc_knob k)
{
    return (unsigned)k < CC_KNOB_COUNT ? cc_knob_names[k] : "";
}

const char *cc_knob_get(cc_knob k)
{
    return (unsigned)k < CC_KNOB_COUNT ? getenv(cc_knob_names[k]) : NULL;
}
