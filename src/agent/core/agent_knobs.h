/* The agent's environment knobs (core/agent_knobs.inc): ids, names, values. */
#ifndef CUCHECK_AGENT_CORE_AGENT_KNOBS_H
#define CUCHECK_AGENT_CORE_AGENT_KNOBS_H

typedef enum cc_knob {
#define CC_KNOB(id, var, kind, values, meaning, checks) CC_KNOB_##id,
#include "core/agent_knobs.inc"
#undef CC_KNOB
    CC_KNOB_COUNT
} cc_knob;

const char *cc_knob_name(cc_knob k);  /* the environment variable */
const char *cc_knob_get(cc_knob k);   /* its value, or NULL when unset */

#endif
