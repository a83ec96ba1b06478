/* The allocation map: every live device-visible allocation of a process, sorted by address for
 * interval lookup, plus a bounded history of freed ones (for use-after-free and double-free
 * verdicts), and the "where it lies" sentence a memory finding carries ("16 bytes after the end
 * of a 4000-byte allocation at 0x..."). Holds keep the map answerable about an earlier moment
 * (memcheck: a launch whose device findings are read back later) however many frees follow.
 * Plain C, no CUDA; used by memcheck and its tests. */
#ifndef CUCHECK_CORE_ALLOCMAP_H
#define CUCHECK_CORE_ALLOCMAP_H

#include <stddef.h>
#include <stdint.h>

/* Made by the CUDA runtime/driver for itself (e.g. while creating a context): never a leak. */
#define CC_ALLOC_FLAG_INTERNAL 0x1u

typedef struct cc_alloc_rec {
    uint64_t base;
    uint64_t size;          /* bytes; 0-byte allocations occupy no address */
    uint32_t mem_kind;      /* cc_mem_kind */
    int32_t device;
    uint64_t context;
    uint64_t stream;        /* stream-ordered allocations */
    uint64_t callsite;      /* host stack id of the allocation, 0 if none */
    uint64_t free_callsite; /* freed records: host stack id of the free */
    uint64_t seq;           /* the map's clock when it was added (set by the map): order */
    uint64_t free_seq;      /* freed records: the map's clock when it was freed */
    uint32_t flags;         /* CC_ALLOC_FLAG_* */
} cc_alloc_rec;

typedef struct cc_allocmap cc_allocmap;

/* Freed records kept for verdicts about stale pointers (oldest dropped first, unless a hold
 * needs them). */
#define CC_ALLOCMAP_FREED_HISTORY 4096

cc_allocmap *cc_allocmap_new(void);
void cc_allocmap_free(cc_allocmap *m);

/* Add a live allocation. Live allocations that overlap it (the program never freed them as far
 * as we saw, e.g. a missed callback) are retired into the freed history first. Returns the number
 * retired (0 normally), -1 on allocation failure. */
int cc_allocmap_add(cc_allocmap *m, const cc_alloc_rec *rec);

/* Outcomes of cc_allocmap_remove. */
typedef enum cc_free_verdict {
    CC_FREE_OK = 0,       /* base was the start of a live allocation; *out is it */
    CC_FREE_DOUBLE = 1,   /* base was freed before and not allocated again; *out is the freed one */
    CC_FREE_INTERIOR = 2, /* base lies inside a live allocation but is not its start; *out is it */
    CC_FREE_UNKNOWN = 3,  /* base is in no allocation we know of */
} cc_free_verdict;

/* Free the live allocation starting at base; free_callsite is recorded in the history. */
cc_free_verdict cc_allocmap_remove(cc_allocmap *m, uint64_t base, uint64_t free_callsite,
                                   cc_alloc_rec *out);

/* The live allocation containing addr, or NULL. */
const cc_alloc_rec *cc_allocmap_find(const cc_allocmap *m, uint64_t addr);
/* [*lo, *hi): no live allocation lies outside it (lo: the lowest base; hi: at least the highest
 * end). Empty (lo == hi == 0) when none is live. For scanning many words cheaply. */
void cc_allocmap_span(const cc_allocmap *m, uint64_t *lo, uint64_t *hi);
/* The most recently freed allocation containing addr (that no live one covers now), or NULL. */
const cc_alloc_rec *cc_allocmap_find_freed(const cc_allocmap *m, uint64_t addr);
/* The live allocation nearest to addr (by distance to its nearest byte), or NULL if none. */
const cc_alloc_rec *cc_allocmap_nearest(const cc_allocmap *m, uint64_t addr);

size_t cc_allocmap_live_count(const cc_allocmap *m);
const cc_alloc_rec *cc_allocmap_live_at(const cc_allocmap *m, size_t i); /* sorted by base */
uint64_t cc_allocmap_live_bytes(const cc_allocmap *m);

/* Drop every live allocation of a context (destroyed) into the history. Returns how many. */
size_t cc_allocmap_drop_context(cc_allocmap *m, uint64_t context);

/* The map's clock: it advances with every allocation added and every one freed, so a reader
 * that remembers it (memcheck, at a launch) can later ask about the map as it was then. */
uint64_t cc_allocmap_clock(const cc_allocmap *m);

/* Hold the present moment: until released, cc_allocmap_where_at at *clock (set to
 * cc_allocmap_clock now) answers as it would now, however many allocations are freed meanwhile:
 * the allocations live now stay known after they are freed, and so do the
 * CC_ALLOCMAP_FREED_HISTORY frees before now. What is kept for holds is dropped once no hold
 * needs it, so memory grows only with what the held moments had live. Allocations made after
 * the held moment are kept only as long as the plain history holds them
 * (cc_allocmap_find_made_after may miss one freed long since). Returns 0, or -1 when out of
 * memory: the hold is not recorded and the map answers from its plain history. */
int cc_allocmap_hold(cc_allocmap *m, uint64_t *clock);
/* Release one hold taken at clock (a clock no recorded hold was taken at is ignored). */
void cc_allocmap_release(cc_allocmap *m, uint64_t clock);
/* Freed records kept beyond the plain history for holds, and holds outstanding (for tests and
 * notes). */
size_t cc_allocmap_kept_count(const cc_allocmap *m);
size_t cc_allocmap_hold_count(const cc_allocmap *m);

/* Where [addr, addr+size) lies relative to the known allocations. */
typedef enum cc_where {
    CC_WHERE_INSIDE = 0,   /* entirely inside one live allocation */
    CC_WHERE_OVERRUN = 1,  /* starts inside a live allocation and runs past its end */
    CC_WHERE_AFTER = 2,    /* after the end of the nearest live allocation */
    CC_WHERE_BEFORE = 3,   /* before the start of the nearest live allocation */
    CC_WHERE_FREED = 4,    /* inside an allocation that was freed */
    CC_WHERE_NOWHERE = 5,  /* no allocation is known at all */
} cc_where;

typedef struct cc_where_info {
    cc_where where;
    const cc_alloc_rec *alloc; /* the allocation the sentence talks about (NULL for NOWHERE) */
    uint64_t distance;         /* AFTER: bytes after the end; BEFORE: bytes before the start;
                                * INSIDE/OVERRUN/FREED: offset from the base */
} cc_where_info;

/* Classify a range and write one sentence into out, e.g.
 *   "16 bytes after the end of a 4000-byte device allocation at 0x7f0000001000"
 *   "at offset 12 of a 4000-byte device allocation at 0x... that was freed"
 * Returns the classification. */
cc_where_info cc_allocmap_where(const cc_allocmap *m, uint64_t addr, uint64_t size, char *out,
                                size_t outlen);

/* cc_allocmap_where against the map as it was at `clock` (cc_allocmap_clock then): the
 * allocations live then, including those freed since (as long as the freed history holds them,
 * always while `clock` is held: cc_allocmap_hold), and not those made since; FREED means freed
 * before then. Memcheck reads a launch's device findings after later frees and allocations. */
cc_where_info cc_allocmap_where_at(const cc_allocmap *m, uint64_t addr, uint64_t size,
                                   uint64_t clock, char *out, size_t outlen);
/* An allocation (live or freed) made after `clock` that contains addr, or NULL. */
const cc_alloc_rec *cc_allocmap_find_made_after(const cc_allocmap *m, uint64_t addr,
                                                uint64_t clock);

#endif
