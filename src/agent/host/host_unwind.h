/* Capturing the raw return addresses of the calling thread's stack, cheaply enough to run on
 * every kernel launch: libunwind's unw_backtrace (loaded with dlopen from libunwind.so.8, the
 * Debian runtime package libunwind8; its x86-64 fast path caches frame layouts per address),
 * else glibc's backtrace(). Symbolizing is left to host_symbolize.c, once per distinct stack. */
#ifndef CUCHECK_AGENT_HOST_UNWIND_H
#define CUCHECK_AGENT_HOST_UNWIND_H

#include <stdint.h>

/* Fills pcs with up to max return addresses, innermost first; returns how many. */
int cc_host_unwind(uint64_t *pcs, int max);
/* "libunwind" or "glibc backtrace": which unwinder cc_host_unwind uses. */
const char *cc_host_unwinder_name(void);

#endif
