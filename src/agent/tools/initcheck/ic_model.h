/* initcheck's agent-side model of device memory: the tool's own model (tools/initcheck/
 * init_model.h) fed every event the agent emits (the plug-in's on_event hook), so that it agrees
 * with the tool's, and read by the instrumentation client when a checked launch needs its
 * context's uninitialised ranges. One lock; it is taken after the instrumentation manager's
 * lock where both are held, never before it. */
#ifndef CUCHECK_AGENT_TOOLS_INITCHECK_IC_MODEL_H
#define CUCHECK_AGENT_TOOLS_INITCHECK_IC_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/event.h"
#include "tools/initcheck/init_ranges.h"

/* Every event the agent emits, in order. */
void cc_ic_model_on_event(const cc_event *ev);
/* The uninitialised ranges of context's allocations: up to max into out (absolute [lo, hi), in
 * address order); returns how many there are in all. */
size_t cc_ic_model_uninit(uint64_t context, cc_init_range *out, size_t max);

#endif
