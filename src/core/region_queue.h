/* Region changes waiting to be applied: a sub-allocator whose calls come faster than its book is
 * worth updating (PyTorch's caching allocator: a thousand tensor blocks allocated and freed per
 * training step, while the allocation table is read only when a launch is checked) queues them
 * here, in order, and a reader of the table applies them first. The unregistration of a region
 * whose registration is still waiting cancels both: a block allocated and freed between two
 * applications never reaches the book or the table. Cancelling is exact when the caller
 * unregisters a region before it registers another over it, as the torch tracker does (a
 * caching allocator's blocks never overlap; a block seen again at a live base is unregistered
 * first): otherwise the book would have ended the older region with the cancelled registration.
 * The queue is full at `max` changes still to apply; cancelled ones leave holes that are squeezed
 * out when the array reaches four times that, so a stream of short-lived blocks never fills it.
 * Plain C, no CUDA, not thread-safe (the caller locks); steady-state calls allocate nothing. */
#ifndef CUCHECK_CORE_REGION_QUEUE_H
#define CUCHECK_CORE_REGION_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "core/hashmap.h"

typedef struct cc_region_change {
    uint64_t heap;     /* 0: cancelled */
    uint64_t base;
    uint64_t size;     /* 0: an unregistration */
} cc_region_change;

typedef struct cc_region_queue {
    cc_region_change *ch;     /* in the order of the calls, cancelled ones included */
    size_t n, cap;
    size_t live;              /* changes in ch that were not cancelled */
    size_t max;               /* the queue is full at max live changes */
    cc_hashmap waiting;       /* base of a registration still waiting -> its index in ch */
    uint64_t queued, cancelled; /* changes ever queued; registration and unregistration pairs
                                 * that cancelled */
} cc_region_queue;

/* An empty queue that is full at max changes (at least 1); nothing allocated yet. */
void cc_region_queue_init(cc_region_queue *q, size_t max);
/* Queue the registration of [base, base + size) in heap (heap and size not 0). 1 when the queue
 * is now full (the caller applies it), 0, or -1 when it could not grow (nothing queued; the
 * caller applies the queue, then the change itself). */
int cc_region_queue_register(cc_region_queue *q, uint64_t heap, uint64_t base, uint64_t size);
/* Queue the unregistration of the region at base, or cancel its waiting registration. Returns
 * as cc_region_queue_register. */
int cc_region_queue_unregister(cc_region_queue *q, uint64_t heap, uint64_t base);
/* Changes waiting to be applied (cancelled ones not counted). */
static inline size_t cc_region_queue_count(const cc_region_queue *q)
{
    return q->live;
}
/* Hands each change that was not cancelled to apply, in order, then empties the queue. apply may
 * not touch the queue. */
void cc_region_queue_drain(cc_region_queue *q,
                           void (*apply)(void *arg, const cc_region_change *c), void *arg);
void cc_region_queue_free(cc_region_queue *q);

#endif
