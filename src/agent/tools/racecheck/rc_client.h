/* racecheck's agent half, as its plug-in uses it: the instrumentation manager's client
 * (rc_client.c) and the launch call's dynamic shared memory (rc_kernel_code.c); what it reads
 * from a kernel's cubin is in rc_cubin.h. */
#ifndef CUCHECK_AGENT_TOOLS_RACECHECK_RC_CLIENT_H
#define CUCHECK_AGENT_TOOLS_RACECHECK_RC_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include "agent/instr/instr_internal.h"
#include "tools/racecheck/racecheck_options.h"

/* racecheck's options from their encoded form (CUCHECK_OPTIONS), by the tool's own parser. 0
 * ok; -1 with a message in err. */
int cc_rc_config_load(const char *encoded_options, char *err, size_t errlen);
/* The client, for the options loaded. */
const cc_instr_client *cc_rc_client_init(void);

/* The launch call in progress on this thread (runtime or driver API enter): its dynamic shared
 * memory bytes. _note: from the plug-in's API callback; _take: 1 and *bytes if known (the value
 * is consumed). */
void cc_rc_launch_call_note(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                            const Sanitizer_CallbackData *d);
int cc_rc_launch_dynamic_shared(uint64_t *bytes);

#endif
