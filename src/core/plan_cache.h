/* A launching thread's memo of settled access sets (streamcheck's default mode): once a launch
 * of a kernel, with its grid, block and laid-out argument bytes, got a learned access set in a
 * module that runs unpatched, the same launch again gets the same set until something it was
 * computed from changes: the allocations the arguments point into, the kernel's learned facts,
 * its module's patching (two generations the caller reads before deciding and passes here). A
 * hit skips the manager's lock, the argument scan and the learned tables. Per thread, a 2-way
 * table of 8,192 entries (about 2 MiB) allocated at the thread's first store, freed at its
 * exit; keys carry a 64-bit hash of the argument bytes with their length, not the bytes. No CUDA
 * types: tested on the CPU. */
#ifndef CUCHECK_CORE_PLAN_CACHE_H
#define CUCHECK_CORE_PLAN_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "core/access_learn.h"

#define CC_PLAN_ACCESSES 8u /* launches with larger sets are not memoised */

typedef struct cc_plan_key {
    const void *function;     /* the CUfunction */
    uint32_t grid[3], block[3];
    uint32_t args_len;        /* bytes of the laid-out arguments */
    uint32_t zero;            /* 0 (no padding: keys compare with memcmp) */
    uint64_t args_hash;       /* cc_hash_block of them */
} cc_plan_key;

typedef struct cc_plan {
    uint32_t n;
    cc_al_access acc[CC_PLAN_ACCESSES];
} cc_plan;

/* The plan this thread stored for k under the generations gens, or NULL. */
const cc_plan *cc_plan_find(const cc_plan_key *k, const unsigned gens[2]);
/* This thread remembers acc[0..n) for k under gens (read before the decision was made, so that
 * a change during it makes the entry stale; gens[0] is never 0). 0 stored; -1 not (n too large,
 * no memory). */
int cc_plan_store(const cc_plan_key *k, const unsigned gens[2], const cc_al_access *acc,
                  size_t n);

#endif
