/* The NVTX memory extension's functions (nvtx_mem.c), by the extension's callback ids. */
#ifndef CUCHECK_AGENT_NVTX_MEM_H
#define CUCHECK_AGENT_NVTX_MEM_H

#include <stddef.h>
#include <stdint.h>

/* Fill the function slots of the memory extension's segment (slot i = callback id i; slots at
 * or past slot_count are left alone). Returns the number of slots filled. */
size_t cc_nvtx_mem_fill(intptr_t *slots, size_t slot_count);

#endif
