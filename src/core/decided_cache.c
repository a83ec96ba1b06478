/* The per-thread table of launches decided for good (decided_cache.h). Measured before it
 * (H200): the locked decision took 162 ns per launch on a launch-bound PyTorch step and
 * 389-680 ns on a transformer step. */
#include "core/decided_cache.h"

#include <stdatomic.h>
#include <stddef.h>

#define CC_DECIDED_WAYS 128 /* per thread; a step's distinct (kernel, shape) pairs mostly fit */

typedef struct cc_decided {
    cc_decided_key key;
    unsigned gen; /* 0: empty */
} cc_decided;

static atomic_uint cc_decided_gen = 1;
static _Thread_local cc_decided cc_decided_tab[CC_DECIDED_WAYS];
static _Thread_local int cc_decided_steady_flag;

static cc_decided *entry_of(const cc_decided_key *k)
{
    uint64_t h = (uint64_t)(uintptr_t)k->function ^ (uint64_t)k->grid[0] << 20 ^
                 (uint64_t)k->block[0] << 40 ^ k->grid[1] ^ (uint64_t)k->block[1] << 8 ^
                 (uint64_t)k->grid[2] << 28;
    h *= 0x9E3779B97F4A7C15ull;
    return &cc_decided_tab[h >> 57]; /* the top 7 bits: CC_DECIDED_WAYS */
}

static int same_key(const cc_decided_key *a, const cc_decided_key *b)
{
    return a->function == b->function && a->grid[0] == b->grid[0] && a->grid[1] == b->grid[1] &&
           a->grid[2] == b->grid[2] && a->block[0] == b->block[0] &&
           a->block[1] == b->block[1] && a->block[2] == b->block[2];
}

int cc_decided_hit(const cc_decided_key *k)
{
    const cc_decided *e = entry_of(k);
    unsigned gen = atomic_load_explicit(&cc_decided_gen, memory_order_acquire);
    return e->gen == gen && same_key(&e->key, k);
}

void cc_decided_remember(const cc_decided_key *k)
{
    if (k->function == NULL) {
        return;
    }
    cc_decided *e = entry_of(k);
    e->key = *k;
    e->gen = atomic_load_explicit(&cc_decided_gen, memory_order_relaxed);
}

void cc_instr_policy_changed(void)
{
    if (atomic_fetch_add_explicit(&cc_decided_gen, 1, memory_order_acq_rel) + 1 == 0) {
        atomic_fetch_add_explicit(&cc_decided_gen, 1, memory_order_acq_rel); /* 0: empty */
    }
}

void cc_instr_decision_steady(void)
{
    cc_decided_steady_flag = 1;
}

int cc_instr_decision_take_steady(void)
{
    int steady = cc_decided_steady_flag;
    cc_decided_steady_flag = 0;
    return steady;
}
