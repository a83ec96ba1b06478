/* memcheck's client of the instrumentation manager (mc_client.c), as its plug-in uses it. */
#ifndef CUCHECK_AGENT_TOOLS_MEMCHECK_MC_CLIENT_H
#define CUCHECK_AGENT_TOOLS_MEMCHECK_MC_CLIENT_H

#include <stddef.h>
#include "agent/instr/instr_internal.h"
#include "tools/memcheck/memcheck_options.h"

/* memcheck's options from their encoded form (CUCHECK_OPTIONS), by the tool's own parser. 0 ok;
 * -1 with a message in err. */
int cc_mc_config_load(const char *encoded_options, char *err, size_t errlen);
/* The client, for the options loaded. */
const cc_instr_client *cc_mc_client_init(void);
/* 1 if the launch this thread's last decision was about ran unchecked as a repeat of a checked
 * launch (mc_repeat.h); reading clears it. */
int cc_mc_launch_was_repeat(void);

#endif
