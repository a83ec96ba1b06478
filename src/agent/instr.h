/* The instrumentation manager (memcheck's device side in the agent): mirrors live allocations
 * into a device-resident sorted table per context, patches modules with memcheck's device
 * checks, decides per launch whether it runs checked (--mode full: all; adaptive: the first
 * --checks-per-kernel launches of each kernel and launch shape, after which a module whose
 * launches no longer need checking is unpatched), binds a per-launch record slot with
 * sanitizerSetLaunchCallbackData, and at LAUNCH_END waits for the launch, reads the violations
 * back and emits them as CC_EV_DEVICE_ACCESS_ERROR events (pc -> file:line from the module's
 * cubin). Inactive unless the tool is memcheck. Files: instr_state.c (contexts, table, slots),
 * instr_modules.c (modules, functions, patch policy), instr_launch.c (launch begin/end). */
#ifndef CUCHECK_AGENT_INSTR_H
#define CUCHECK_AGENT_INSTR_H

#include <sanitizer.h>
#include "cucheck/event.h"

/* Hooks (one line each in agent_entry.c / translate_*.c). */
void cc_instr_init(void);                                     /* after the outputs are open */
void cc_instr_on_resource(Sanitizer_CallbackId cbid, const void *data);
void cc_instr_on_launch_begin(const Sanitizer_LaunchData *d, cc_event *ev); /* before emit */
void cc_instr_on_launch_end(Sanitizer_CallbackId cbid, const void *data);

#endif
