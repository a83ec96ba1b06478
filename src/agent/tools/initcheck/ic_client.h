/* initcheck's agent half, as its plug-in uses it: the instrumentation manager's client
 * (ic_client.c). */
#ifndef CUCHECK_AGENT_TOOLS_INITCHECK_IC_CLIENT_H
#define CUCHECK_AGENT_TOOLS_INITCHECK_IC_CLIENT_H

#include <stddef.h>
#include "agent/instr/instr_internal.h"
#include "tools/initcheck/initcheck_options.h"

/* initcheck's options from their encoded form (CUCHECK_OPTIONS), by the tool's own parser. 0
 * ok; -1 with a message in err. */
int cc_ic_config_load(const char *encoded_options, char *err, size_t errlen);
/* The client, for the options loaded (CUCHECK_IC_PATCH=floor: empty patches). */
const cc_instr_client *cc_ic_client_init(void);

#endif
