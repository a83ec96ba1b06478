/* In-flight launch tracking for asynchronous error attribution: which kernel launches and graph
 * launches may still be running, given only the orderings CUDA guarantees (stream order, stream
 * and event synchronization, successful queries, device/context synchronization, synchronous
 * copies). When a sticky error surfaces, the launches still in flight are the candidates. */
#ifndef CUCHECK_TOOLS_ASYNC_ERROR_INFLIGHT_H
#define CUCHECK_TOOLS_ASYNC_ERROR_INFLIGHT_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/event.h"

typedef struct cc_inflight_launch {
    uint64_t launch_id;
    uint64_t context;
    uint64_t stream;
    uint64_t seq;          /* position in the stream's order */
    uint64_t callsite;
    uint64_t graph_exec;   /* non-zero for a whole-graph launch */
    uint64_t grid_id;      /* the driver's grid id (0 if unknown or a whole-graph launch) */
    uint32_t flags;        /* the launch's CC_LAUNCH_FLAG_* (0 for a whole-graph launch) */
    uint32_t grid[3], block[3];
    const char *name;      /* mangled kernel name, interned (owned by the tracker) */
} cc_inflight_launch;

/* Launches remembered as in flight at most; past it the oldest half is forgotten (counted by
 * cc_inflight_forgotten), so a program that never synchronizes costs bounded memory. */
#define CC_INFLIGHT_MAX 8192

typedef struct cc_inflight cc_inflight;

cc_inflight *cc_inflight_new(void);
void cc_inflight_free(cc_inflight *t);
/* Update the tracker with one event of the stream. */
void cc_inflight_event(cc_inflight *t, const cc_event *ev);
/* Launches that may still be running, oldest first. Valid until the next event. */
size_t cc_inflight_pending(const cc_inflight *t, const cc_inflight_launch **out);
/* Launches dropped from the pending list unordered (CC_INFLIGHT_MAX reached). */
uint64_t cc_inflight_forgotten(const cc_inflight *t);

#endif
