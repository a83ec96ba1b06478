/* The allocation map's state, shared by allocmap.c (live allocations, the freed history, where
 * an address lies) and allocmap_holds.c (holds: freed records kept for earlier moments). */
#ifndef CUCHECK_CORE_ALLOCMAP_INTERNAL_H
#define CUCHECK_CORE_ALLOCMAP_INTERNAL_H

#include "core/allocmap.h"

/* One held moment: the map's clock then, and the free_seq of the oldest record the plain
 * history still held then (0: it held every free so far). Sorted by clock; both grow. */
typedef struct cc_allocmap_held {
    uint64_t clock;
    uint64_t history_from;
    uint64_t refs;
} cc_allocmap_held;

struct cc_allocmap {
    cc_alloc_rec *live; /* sorted by base, non-overlapping */
    size_t nlive, cap;
    uint64_t live_bytes;
    /* At least the end of every live allocation (it only grows): with live[0].base it rejects
     * most words of a parameter buffer (sizes, strides, flags) before any search. */
    uint64_t max_end;
    cc_alloc_rec freed[CC_ALLOCMAP_FREED_HISTORY]; /* ring: the plain history */
    size_t freed_next, nfreed;
    uint64_t clock; /* adds and frees so far */
    /* Records that left the ring while a hold needed them, oldest free first (all older than
     * the ring's). */
    cc_alloc_rec *kept;
    size_t nkept, kept_cap;
    /* Held moments: holds[holds_first .. holds_first + nholds), sorted by clock. Holds are
     * mostly released oldest first (launches are read back in launch order): the front moves
     * instead of the rest. */
    cc_allocmap_held *holds;
    size_t holds_first, nholds, holds_cap;
    size_t releases_since_sweep;
};

/* The k-th most recently freed record of the ring and then of the kept records
 * (k < nfreed + nkept). */
const cc_alloc_rec *cc_allocmap_freed_newest(const cc_allocmap *m, size_t k);
/* r is leaving the ring: keep it if a hold needs it. */
void cc_allocmap_evicting(cc_allocmap *m, const cc_alloc_rec *r);
/* Free what the holds own. */
void cc_allocmap_holds_free(cc_allocmap *m);

#endif
