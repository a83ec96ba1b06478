/* synccheck's agent half, as its plug-in uses it: the instrumentation manager's client
 * (sy_client.c). */
#ifndef CUCHECK_AGENT_TOOLS_SYNCCHECK_SY_CLIENT_H
#define CUCHECK_AGENT_TOOLS_SYNCCHECK_SY_CLIENT_H

#include <stddef.h>
#include "agent/instr/instr_internal.h"
#include "tools/synccheck/synccheck_options.h"

/* synccheck's options from their encoded form (CUCHECK_OPTIONS), by the tool's own parser. 0
 * ok; -1 with a message in err. */
int cc_sy_config_load(const char *encoded_options, char *err, size_t errlen);
/* The client, for the options loaded (CUCHECK_SY_PATCH=floor: empty patches). */
const cc_instr_client *cc_sy_client_init(void);

#endif
