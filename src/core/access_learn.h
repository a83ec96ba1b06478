/* Learned access sets for streamcheck's default mode: the pure logic, no CUDA. A kernel's first
 * launches of each launch shape run instrumented; from what the device saw (per allocation, the
 * lowest/highest byte read and written) the agent learns, per pointer argument, whether the
 * kernel reads and writes through it and how far from the pointer value; later launches of the
 * same shape get their access sets from those facts applied to their own pointer values, clipped
 * to each pointer's allocation. A pointer argument is one 8-byte word of the parameter buffer
 * (identified by its byte offset there: argument ordinal and position inside a by-value struct
 * both map to it) that holds an address inside a live allocation. A launch that touched memory
 * outside every pointer argument's allocation (pointers loaded from memory, module globals)
 * cannot be learned; after CC_AL_POLICY stray_limit such launches the kernel falls back to
 * inferred sets. Used by src/agent/sc_*.c; tested by tests/unit/test_sc_access_learn.c. */
#ifndef CUCHECK_CORE_ACCESS_LEARN_H
#define CUCHECK_CORE_ACCESS_LEARN_H

#include <stddef.h>
#include <stdint.h>
#include "core/allocmap.h"
#include "core/ptr_infer.h"

#define CC_AL_MAX_WORDS 64u /* pointer arguments tracked per launch (more: not learnable) */

/* One pointer argument of a launch. */
typedef struct cc_al_word {
    uint32_t offset;       /* byte offset of the word in the parameter buffer */
    uint64_t value;        /* the pointer */
    uint64_t base, end;    /* its live allocation [base, end) */
} cc_al_word;

/* Scan a parameter buffer like cc_ptr_infer (aligned words wholly inside an argument slot, or
 * every aligned word without slots) and list the words that point inside a live allocation, in
 * buffer order. Returns their number (at most cap); *truncated is set to 1 if more existed. */
size_t cc_al_scan(const unsigned char *buf, size_t len, const cc_ptr_slot *slots, size_t nslots,
                  const cc_allocmap *allocs, cc_al_word *out, size_t cap, int *truncated);

/* The launch shape learned facts are kept for: function, grid, block, and for every pointer
 * argument its offset and its allocation's size (not the allocation's identity: a kernel given
 * another tensor of the same size behaves the same). Never 0. */
uint64_t cc_al_shape_key(uint64_t function, const uint32_t grid[3], const uint32_t block[3],
                         const cc_al_word *words, size_t nwords);

/* What an instrumented launch did to one allocation (absolute addresses; lo >= end: none). */
typedef struct cc_al_range {
    uint64_t base, end;            /* the allocation */
    uint64_t read_lo, read_end;    /* bytes read [read_lo, read_end) */
    uint64_t write_lo, write_end;  /* bytes written */
} cc_al_range;

/* What a kernel does through one pointer argument, relative to the pointer value. */
typedef struct cc_al_fact {
    uint32_t offset;               /* the word's offset in the parameter buffer */
    uint32_t read, written;        /* 0/1 */
    int64_t read_lo, read_end;     /* [pointer + read_lo, pointer + read_end) */
    int64_t write_lo, write_end;
    /* 1 while every learnable launch left the word's allocation untouched (policy
     * untouched_inferred): the kernel may reach it only through accesses no patch sees (the
     * Tensor Memory Accelerator's cp.async.bulk.tensor), so it gets the inferred range. */
    uint32_t untouched;
} cc_al_fact;

/* Per launch shape. */
typedef struct cc_al_shape {
    uint64_t key;
    uint32_t observed;             /* learnable instrumented launches merged into facts */
    uint32_t stray;                /* 1 once a launch of this shape was not learnable */
    uint32_t nfacts;
    cc_al_fact facts[CC_AL_MAX_WORDS];
} cc_al_shape;

/* Per kernel (function). */
typedef struct cc_al_kernel {
    uint32_t instrumented;         /* instrumented launches, all shapes */
    uint32_t strays;               /* of them, not learnable */
    uint32_t fallback;             /* 1: inferred from now on */
    uint32_t shapes_learned;
} cc_al_kernel;

typedef struct cc_al_policy {
    uint32_t learn_launches;       /* learnable instrumented launches before a shape's facts apply */
    uint32_t stray_limit;          /* unlearnable instrumented launches before a kernel falls back */
    uint32_t kernel_budget;        /* instrumented launches per kernel at most (then inferred) */
    /* 1: an allocation a pointer argument points into but no instrumented access touched is
     * taken as read and written from the pointer to its end, as an inferred set would (TMA
     * loads and stores address memory through tensor maps, which no patch sees). */
    uint32_t untouched_inferred;
} cc_al_policy;

#define CC_AL_DEFAULT_LEARN_LAUNCHES 2u
#define CC_AL_DEFAULT_STRAY_LIMIT 4u
#define CC_AL_DEFAULT_KERNEL_BUDGET 64u
#define CC_AL_DEFAULT_UNTOUCHED_INFERRED 1u

void cc_al_policy_default(cc_al_policy *p);

/* What to do with a launch. */
typedef enum cc_al_action {
    CC_AL_INSTRUMENT = 0, /* run it instrumented and learn from it */
    CC_AL_LEARNED = 1,    /* apply the shape's facts */
    CC_AL_INFER = 2,      /* inferred set (kernel not learnable, or out of budget) */
} cc_al_action;

/* Decide for a launch of kernel k with shape s (s NULL: no room for a new shape). */
cc_al_action cc_al_decide(const cc_al_kernel *k, const cc_al_shape *s, const cc_al_policy *p);

/* Outcomes of cc_al_observe. */
#define CC_AL_OBS_LEARNED 0   /* merged into the shape's facts */
#define CC_AL_OBS_STRAY 1     /* accesses outside every pointer argument's allocation */

/* Learn from one instrumented launch of shape s with pointer arguments words[] (those of the
 * launch) and the accessed allocations ranges[] (only those with accesses), `outside` accesses
 * in no allocation at all. Updates s and k (k->instrumented, strays, fallback, shapes_learned by
 * policy p). Returns CC_AL_OBS_*. *stray_at is set to one address that made the launch
 * unlearnable (0 if none or if it was in no allocation). */
int cc_al_observe(cc_al_kernel *k, cc_al_shape *s, const cc_al_policy *p, const cc_al_word *words,
                  size_t nwords, const cc_al_range *ranges, size_t nranges, uint64_t outside,
                  uint64_t *stray_at);

/* One access range to emit (CC_ACCESS_FLAG_READ / _WRITE in flags). */
typedef struct cc_al_access {
    uint64_t address, size;
    uint32_t flags;
} cc_al_access;

/* The access set of a launch of shape s whose pointer arguments are words[]: each fact applied
 * to the word at the same offset, clipped to that word's allocation; a range both read and
 * written becomes one read|write access; exact duplicates are dropped. Returns the number
 * written to out (at most cap; *dropped counts the rest). */
size_t cc_al_apply(const cc_al_shape *s, const cc_al_word *words, size_t nwords,
                   cc_al_access *out, size_t cap, uint32_t *dropped);

/* The allocations that words[] point into and ranges[] (an instrumented launch's accessed
 * allocations) do not touch: one read|write access each, from the lowest pointer into it to its
 * end — what an inferred set gives, flagged CC_ACCESS_FLAG_UNTOUCHED. Returns the number written
 * to out (at most cap). */
size_t cc_al_untouched(const cc_al_word *words, size_t nwords, const cc_al_range *ranges,
                       size_t nranges, cc_al_access *out, size_t cap);

/* The access set an instrumented launch reports for one allocation: read and write ranges
 * clipped to [base, end), merged into one read|write access when equal. Returns 0, 1 or 2. */
size_t cc_al_range_accesses(const cc_al_range *r, cc_al_access out[2]);

#endif
