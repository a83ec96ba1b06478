/* Queued region changes with cancellation of short-lived regions (region_queue.h). */
#include "core/region_queue.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

void cc_region_queue_init(cc_region_queue *q, size_t max)
{
    memset(q, 0, sizeof *q);
    q->max = max > 0 ? max : 1;
}

void cc_region_queue_free(cc_region_queue *q)
{
    free(q->ch);
    cc_hashmap_free(&q->waiting);
    size_t max = q->max;
    cc_region_queue_init(q, max);
}

/* Entries the array holds before its holes are squeezed out. */
static size_t hold(const cc_region_queue *q)
{
    return q->max * 4;
}

/* The cancelled changes dropped, order kept, the index of waiting registrations rebuilt. A
 * registration the index could not take again is only never cancelled (it applies, then its
 * unregistration does): an index entry is either right or missing. */
static void squeeze(cc_region_queue *q)
{
    size_t j = 0;
    cc_hashmap_clear(&q->waiting);
    for (size_t i = 0; i < q->n; i++) {
        if (q->ch[i].heap == 0) {
            continue;
        }
        q->ch[j] = q->ch[i];
        if (q->ch[j].size != 0) {
            (void)cc_hashmap_put(&q->waiting, q->ch[j].base, j);
        }
        j++;
    }
    q->n = j;
}

/* Room for one more change (and its index entry). 0 or -1. */
static int room(cc_region_queue *q)
{
    if (q->n >= hold(q) && q->live < q->n) {
        squeeze(q);
    }
    size_t want = q->n + 1 > hold(q) ? q->n + 1 : hold(q); /* all at once: no growth later */
    if (CC_ARRAY_RESERVE(q->ch, q->cap, want) != 0) {
        return -1;
    }
    return cc_hashmap_reserve(&q->waiting, q->live + 1 > q->max ? q->live + 1 : q->max);
}

static int push(cc_region_queue *q, uint64_t heap, uint64_t base, uint64_t size)
{
    cc_region_change *c = &q->ch[q->n++];
    c->heap = heap;
    c->base = base;
    c->size = size;
    q->queued++;
    q->live++;
    return q->live >= q->max;
}

/* The waiting change at index `at` will never apply. */
static void cancel(cc_region_queue *q, uint64_t at)
{
    if (at < q->n && q->ch[at].heap != 0) {
        q->ch[at].heap = 0;
        q->live--;
    }
}

int cc_region_queue_register(cc_region_queue *q, uint64_t heap, uint64_t base, uint64_t size)
{
    if (room(q) != 0) {
        return -1;
    }
    int added = 0;
    uint64_t *at = cc_hashmap_get_or_add(&q->waiting, base, q->n, &added);
    if (at == NULL) {
        return -1;
    }
    if (!added) {
        /* One still waiting at this base: the new one would end it, so it never applies. */
        cancel(q, *at);
        *at = q->n;
    }
    return push(q, heap, base, size);
}

int cc_region_queue_unregister(cc_region_queue *q, uint64_t heap, uint64_t base)
{
    uint64_t at;
    if (cc_hashmap_remove(&q->waiting, base, &at) == 1 && at < q->n) {
        cancel(q, at); /* never reaches the book: nothing to undo */
        q->cancelled++;
        return 0;
    }
    if (room(q) != 0) {
        return -1;
    }
    return push(q, heap, base, 0);
}

void cc_region_queue_drain(cc_region_queue *q,
                           void (*apply)(void *arg, const cc_region_change *c), void *arg)
{
    for (size_t i = 0; i < q->n; i++) {
        if (q->ch[i].heap != 0) {
            apply(arg, &q->ch[i]);
        }
    }
    q->n = 0;
    q->live = 0;
    cc_hashmap_clear(&q->waiting);
}
