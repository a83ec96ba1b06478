/* The agent's own time on the program's threads (CUCHECK_SELF_TIME=1, a diagnostic for the
 * benchmarks): nanoseconds and calls per Sanitizer callback domain and for host-stack capture,
 * summed over all threads and printed to stderr when the process exits. Off, it costs one
 * predictable branch per callback. */
#ifndef CUCHECK_AGENT_SELF_TIME_H
#define CUCHECK_AGENT_SELF_TIME_H

#include <stdint.h>

enum { CC_SELF_STACKS = 16, CC_SELF_SLOTS = 17 }; /* slots 0..15: callback domains */

extern int cc_self_time_on;

void cc_self_time_init(void);        /* reads CUCHECK_SELF_TIME */
uint64_t cc_self_time_now(void);      /* monotonic ns */
void cc_self_time_add(unsigned slot, uint64_t start_ns);
void cc_self_time_report(void);      /* stderr; once, at exit */

#endif
