/* racecheck's agent half, as its plug-in uses it: the instrumentation manager's client
 * (rc_client.c) and what it reads from a kernel's code and launch call (rc_kernel_code.c). */
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

/* Bytes of static shared memory of `kernel` (its cubin's .nv.shared.<kernel> section), 0 if
 * none or unknown. */
uint64_t cc_rc_static_shared(const void *cubin, size_t size, const char *kernel);
/* 1 if the code of `kernel` in the cubin has a memory fence (MEMBAR) after byte offset `pc`
 * (an offset from the kernel's first instruction), 0 if not, -1 if its code was not found. */
int cc_rc_fence_after(const void *cubin, size_t size, const char *kernel, uint64_t pc);
/* The launch call in progress on this thread (runtime or driver API enter): its dynamic shared
 * memory bytes. _note: from the plug-in's API callback; _take: 1 and *bytes if known (the value
 * is consumed). */
void cc_rc_launch_call_note(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                            const Sanitizer_CallbackData *d);
int cc_rc_launch_dynamic_shared(uint64_t *bytes);

#endif
