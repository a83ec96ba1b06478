/* The agent's own time on the program's threads (CUCHECK_SELF_TIME=1, a diagnostic for the
 * benchmarks): nanoseconds and calls per Sanitizer callback domain and for host-stack capture (by path),
 * summed over all threads and printed to stderr when the process exits. Off, it costs one
 * predictable branch per callback. */
#ifndef CUCHECK_AGENT_SELF_TIME_H
#define CUCHECK_AGENT_SELF_TIME_H

#include <stdint.h>

/* Slots 0..15: callback domains. Host-stack capture, inside those callbacks, by the path taken:
 * the thread's Python frames; a native stack found in the call-site cache; a native stack
 * unwound; and, within the last, the cache fills (locating the new site's return addresses). */
enum {
    CC_SELF_STACKS_PY = 16,
    CC_SELF_STACKS_CACHED = 17,
    CC_SELF_STACKS_UNWOUND = 18,
    CC_SELF_SITE_FILLS = 19,
    CC_SELF_PY_WALK = 20, /* reading the Python frames, inside the first slot */
    CC_SELF_EMIT = 21,    /* handing events to the tool (and the recorder), all callbacks */
    CC_SELF_ACCESS = 22,  /* streamcheck: a launch's access set (learned or inferred), emits included */
    CC_SELF_DEFERRED = 23, /* instrumenting tools: module (un)patching deferred to an API exit */
    CC_SELF_ACCESS_INFER = 24, /* streamcheck: laying out and scanning arguments, inside ACCESS */
    CC_SELF_LAUNCH_FILL = 25,  /* a launch event's fields (handles, name, ids), inside LAUNCH */
    CC_SELF_TORCH = 26,        /* memcheck: PyTorch allocator trace entries (outside callbacks) */
    CC_SELF_PATCH = 27,        /* inside DEFERRED: the Sanitizer's module patch calls */
    CC_SELF_UNPATCH = 28,      /* inside DEFERRED: the Sanitizer's module unpatch calls */
    CC_SELF_UNPATCH_READS = 29, /* inside DEFERRED: checked launches read back for an unpatch */
    CC_SELF_SUBALLOC = 30,      /* a region registered or unregistered (the event and the
                                 * queue, or the book and the table under the manager's lock),
                                 * inside TORCH */
    CC_SELF_LAUNCH_GATE = 31,   /* instrumenting tools: a launch's decision and binding, inside
                                 * LAUNCH */
    CC_SELF_PATCHED_UNCHECKED = 32, /* inside LAUNCH_GATE: a launch run unchecked in a patched
                                     * module (its callback data cleared) */
    CC_SELF_SLOTS = 33
};

extern int cc_self_time_on;

void cc_self_time_init(void);        /* reads CUCHECK_SELF_TIME */
uint64_t cc_self_time_now(void);      /* monotonic ns */
void cc_self_time_add(unsigned slot, uint64_t start_ns);
/* One entry into a runtime (runtime 1) or driver API call, by callback id; `nested`: a driver
 * call the runtime makes inside one of its own calls. The report lists the most frequent calls
 * of each domain, so that a benchmark shows which callbacks a workload pays for. */
void cc_self_time_api(int runtime, unsigned cbid, const char *name, int nested);
/* The time since start_ns, spent in one enter or exit callback of that call. */
void cc_self_time_api_add(int runtime, unsigned cbid, uint64_t start_ns);
void cc_self_time_report(void);      /* stderr; once, at exit */

#endif
