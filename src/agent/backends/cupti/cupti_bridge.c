/* Forwards the CUPTI backend's calls to the agent (see cupti_bridge.h for why). */
#include <stdarg.h>
#include <stdio.h>
#include "agent/core/agent.h"
#include "agent/backends/cupti/cupti_bridge.h"

void cc_cupti_event_init(cc_event *ev, cc_event_kind kind) { cc_agent_event_init(ev, kind); }

void cc_cupti_emit(const cc_event *ev) { cc_agent_emit(ev); }

int cc_cupti_open_outputs(void) { return cc_agent_open_outputs(); }

void cc_cupti_install_agent_exit_handlers(void) { cc_agent_install_exit_handlers(); }

void cc_cupti_note(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    cc_agent_note("%s", line);
}
