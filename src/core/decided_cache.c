/* The per-thread table of launches decided for good (decided_cache.h). Measured before it
 * (H200): the locked decision took 162 ns per launch on a launch-bound PyTorch step and
 * 389-680 ns on a transformer step. */
#include "core/decided_cache.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "core/hash.h"

#define CC_DECIDED_WAYS 128 /* per thread; a step's distinct (kernel, shape) pairs mostly fit */

typedef struct cc_decided {
    cc_decided_key key;
    unsigned gen; /* 0: empty */
} cc_decided;

static atomic_uint cc_decided_gen = 1;
static _Thread_local cc_decided cc_decided_tab[CC_DECIDED_WAYS];
static _Thread_local int cc_decided_steady_flag;
/* This thread remembered a launch once: a client that never marks a "no" steady (streamcheck,
 * whose decisions depend on the arguments) pays no key hash on its launches. */
static _Thread_local int cc_decided_used;

_Static_assert(sizeof(cc_decided_key) == sizeof(void *) + 6 * sizeof(uint32_t),
               "cc_decided_key has no padding: keys compare with memcmp");

static cc_decided *entry_of(const cc_decided_key *k)
{
    /* Dimensions two to a word, as launch_policy.h keys its shape counters. */
    uint64_t h = cc_hash_combine(
        cc_hash_pair((uint64_t)(uintptr_t)k->function, k->grid[0] | (uint64_t)k->grid[1] << 32),
        cc_hash_pair(k->grid[2] | (uint64_t)k->block[0] << 32,
                     k->block[1] | (uint64_t)k->block[2] << 32));
    return &cc_decided_tab[h % CC_DECIDED_WAYS];
}

int cc_decided_hit(const cc_decided_key *k)
{
    if (!cc_decided_used) {
        return 0;
    }
    const cc_decided *e = entry_of(k);
    unsigned gen = atomic_load_explicit(&cc_decided_gen, memory_order_acquire);
    return e->gen == gen && memcmp(&e->key, k, sizeof *k) == 0;
}

void cc_decided_remember(const cc_decided_key *k)
{
    if (k->function == NULL) {
        return;
    }
    cc_decided *e = entry_of(k);
    cc_decided_used = 1;
    e->key = *k;
    e->gen = atomic_load_explicit(&cc_decided_gen, memory_order_relaxed);
}

void cc_decided_invalidate(void)
{
    if (atomic_fetch_add_explicit(&cc_decided_gen, 1, memory_order_acq_rel) + 1 == 0) {
        atomic_fetch_add_explicit(&cc_decided_gen, 1, memory_order_acq_rel); /* 0: empty */
    }
}

void cc_decided_mark_steady(void)
{
    cc_decided_steady_flag = 1;
}

int cc_decided_take_steady(void)
{
    int steady = cc_decided_steady_flag;
    cc_decided_steady_flag = 0;
    return steady;
}
