/* The sub-allocators' book: the heaps and regions the agent keeps (src/agent/instr/
 * instr_suballoc.c) and how they change a sorted table of live ranges (the instrumentation
 * manager's allocation table, which the device checks accesses against). A heap covers a span;
 * while it is registered the table ranges that overlap the span (its allocations: "hidden"
 * ranges) are out of the table, their parts outside every heap stay in it, and each live region
 * of the heap is one range. Unregistering the heap puts its hidden ranges back; freeing
 * one of them (the table's remove of its base) ends the heap. Plain C, no CUDA: the table is
 * reached through cc_sa_table, so that tests drive the book over a table of their own. Not
 * thread-safe (the agent calls it under the manager's lock). Steady-state region calls allocate
 * nothing: hash maps keyed by address and heap id, heaps sorted by base (O(log h)). */
#ifndef CUCHECK_CORE_SUBALLOC_BOOK_H
#define CUCHECK_CORE_SUBALLOC_BOOK_H

#include <stddef.h>
#include <stdint.h>
#include "core/hashmap.h"

/* The table the book maintains: sorted, non-overlapping [base, end) ranges. */
typedef struct cc_sa_table {
    void *ctx;
    /* Insert [base, end) (ranges it overlaps are dropped, as a re-used address does). */
    void (*insert)(void *ctx, uint64_t base, uint64_t end);
    /* Remove the range starting at base (nothing if none does). */
    void (*remove)(void *ctx, uint64_t base);
    /* Remove every range that overlaps [lo, hi), calling each(arg, base, end) for each one
     * before it goes (each may not touch the table). */
    void (*take)(void *ctx, uint64_t lo, uint64_t hi,
                 void (*each)(void *arg, uint64_t base, uint64_t end), void *arg);
} cc_sa_table;

typedef struct cc_sa_heap {
    uint64_t id;
    uint64_t base, end;
    uint32_t source;           /* CC_SUBALLOC_SRC_* */
} cc_sa_heap;

/* A table range (an allocation) that heaps overlap: out of the table while any heap does; its
 * parts outside every heap ("gaps") are in the table. */
typedef struct cc_sa_hidden {
    uint64_t base, end;
} cc_sa_hidden;

typedef struct cc_sa_book {
    cc_sa_table t;
    cc_sa_heap *heaps;         /* sorted by base, non-overlapping */
    size_t nheaps, heaps_cap;
    cc_sa_hidden *hidden;
    size_t nhidden, hidden_cap;
    cc_hashmap heap_ids;       /* heap id -> its base */
    cc_hashmap hidden_bases;   /* hidden range's base -> its heap's id */
    cc_hashmap regions;        /* live region's base -> its size */
    uint64_t next_id;
    /* A heap the book ended on its own (its memory was freed, or an allocation overlapped it
     * partly): called before it goes. May be NULL. */
    void (*heap_dropped)(void *arg, const cc_sa_heap *h);
    void *heap_dropped_arg;
} cc_sa_book;

/* An empty book over table t (no allocation). */
void cc_sa_book_init(cc_sa_book *b, const cc_sa_table *t);
/* Frees the book's storage (the table is left as it is). */
void cc_sa_book_free(cc_sa_book *b);

/* Registers [base, base + size) as a heap: its id (never 0), or 0 when it cannot be tracked
 * (empty or wrapping span, overlap with a registered heap, out of memory): nothing changed. */
uint64_t cc_sa_heap_register(cc_sa_book *b, uint32_t source, uint64_t base, uint64_t size);
/* The heap of that id, or NULL. */
const cc_sa_heap *cc_sa_heap_find(const cc_sa_book *b, uint64_t id);
/* The heap whose span holds addr, or NULL. */
const cc_sa_heap *cc_sa_heap_at(const cc_sa_book *b, uint64_t addr);
/* Unregister: its regions go, its hidden ranges come back. 0, or -1 for an unknown id. */
int cc_sa_heap_unregister(cc_sa_book *b, uint64_t id);
/* Every region of the heap goes. The number of regions that went, or -1 for an unknown id. */
long cc_sa_heap_reset(cc_sa_book *b, uint64_t id);
/* A region [base, base + size) of heap id: 0, or -1 (unknown heap, empty or wrapping range, not
 * inside the heap's span, out of memory). Regions it overlaps go. */
int cc_sa_region_register(cc_sa_book *b, uint64_t id, uint64_t base, uint64_t size);
/* The region starting at base gets new_size bytes: 0 (*heap its heap's id), or -1 (no region
 * starts there, new_size 0, or the new range leaves the heap's span). Regions it now overlaps
 * go. */
int cc_sa_region_resize(cc_sa_book *b, uint64_t base, uint64_t new_size, uint64_t *heap);
/* The region starting at base goes: 0 (*heap its heap's id, *size its size), or -1 if no
 * region starts there. */
int cc_sa_region_unregister(cc_sa_book *b, uint64_t base, uint64_t *heap, uint64_t *size);
/* Live regions (all heaps). */
size_t cc_sa_region_count(const cc_sa_book *b);

/* The table's own add and remove (allocations made and freed), asked first:
 * adding [base, end) (weak: an address reservation) -> 1 when the book took care of it (do not
 * add it): a range inside one heap becomes one of its hidden ranges, a reservation overlapping a
 * heap is left out. A range that overlaps heaps only partly ends them (heap_dropped) and the
 * caller adds it (0).
 * removing base -> 1 when base is a heap's hidden range: the heap ends (heap_dropped; its other
 * hidden ranges come back) and nothing else is to be removed; else 0. */
int cc_sa_table_adding(cc_sa_book *b, uint64_t base, uint64_t end, int weak);
int cc_sa_table_removing(cc_sa_book *b, uint64_t base);

#endif
