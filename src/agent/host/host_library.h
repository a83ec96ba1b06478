/* Which NVIDIA library's code made the CUDA call the agent is in (cc_nvlib), for the
 * stream-creation and allocation events of tools whose plug-in sets needs_library_owner. */
#ifndef CUCHECK_AGENT_HOST_LIBRARY_H
#define CUCHECK_AGENT_HOST_LIBRARY_H

#include <stdint.h>

/* The cc_nvlib of the first caller on this thread's stack outside the agent and CUDA's own
 * layers (driver, runtime, Compute Sanitizer, CUPTI); CC_NVLIB_NONE for the program's code, a
 * library not listed, or a stack that cannot be unwound that far. */
uint32_t cc_host_calling_library(void);
/* The cc_nvlib a shared object's file name names; -1 for CUDA's own layers, which a caller is
 * looked for beyond (exposed for the agent's self-test). */
int cc_host_library_of_file(const char *path);

#endif
