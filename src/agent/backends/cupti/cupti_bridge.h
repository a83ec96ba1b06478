/* What the CUPTI backend uses of the rest of the agent, without including agent.h: the Compute
 * Sanitizer header (included by agent.h) and cupti.h cannot be included in one file (both
 * define the same legacy CUDA types). cupti_bridge.c forwards these to the agent. */
#ifndef CUCHECK_AGENT_CUPTI_BRIDGE_H
#define CUCHECK_AGENT_CUPTI_BRIDGE_H

#include "cucheck/event.h"

void cc_cupti_event_init(cc_event *ev, cc_event_kind kind); /* cc_agent_event_init */
void cc_cupti_emit(const cc_event *ev);                     /* cc_agent_emit */
int cc_cupti_open_outputs(void);                            /* cc_agent_open_outputs */
void cc_cupti_install_agent_exit_handlers(void);            /* cc_agent_install_exit_handlers */
void cc_cupti_note(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* verbose */

#endif
