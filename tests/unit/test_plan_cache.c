/* The per-thread memo of settled access sets (core/plan_cache.h) and cc_hash_block: a stored
 * plan comes back for the same key and generations only (any field of the key, either
 * generation, differs: none); a newer store for a key replaces the plan; the table holds a
 * launch-bound step's thousands of distinct launches; another thread sees none of this
 * thread's plans; oversized sets are refused; the argument hash tells bytes and lengths apart. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "core/hash.h"
#include "core/plan_cache.h"

static cc_plan_key key_of(uintptr_t fn, uint64_t args)
{
    cc_plan_key k;
    memset(&k, 0, sizeof k);
    k.function = (const void *)fn;
    k.grid[0] = 40;
    k.grid[1] = k.grid[2] = 1;
    k.block[0] = 256;
    k.block[1] = k.block[2] = 1;
    k.args_len = 64;
    k.args_hash = args;
    return k;
}

static void *other_thread(void *arg)
{
    const cc_plan_key *k = arg;
    const unsigned gens[2] = {3, 7};
    return (void *)(uintptr_t)(cc_plan_find(k, gens) == NULL);
}

int main(void)
{
    const unsigned gens[2] = {3, 7};
    cc_al_access acc[3] = {{0x7f0000001000ull, 4096, 1}, {0x7f0000002000ull, 512, 2},
                           {0x7f0000003000ull, 8, 3}};
    cc_plan_key k = key_of(0x5000, 0x1234);
    CHECK(cc_plan_find(&k, gens) == NULL); /* no table yet */
    CHECK(cc_plan_store(&k, gens, acc, 3) == 0);
    const cc_plan *p = cc_plan_find(&k, gens);
    CHECK(p != NULL && p->n == 3 && memcmp(p->acc, acc, sizeof acc) == 0);

    /* every field of the key and both generations count */
    const unsigned g0[2] = {4, 7}, g1[2] = {3, 8};
    CHECK(cc_plan_find(&k, g0) == NULL && cc_plan_find(&k, g1) == NULL);
    cc_plan_key v = k;
    v.args_hash ^= 1;
    CHECK(cc_plan_find(&v, gens) == NULL);
    v = k;
    v.args_len = 72;
    CHECK(cc_plan_find(&v, gens) == NULL);
    v = k;
    v.function = (const void *)0x5010;
    CHECK(cc_plan_find(&v, gens) == NULL);
    v = k;
    v.grid[2] = 2;
    CHECK(cc_plan_find(&v, gens) == NULL);
    v = k;
    v.block[1] = 2;
    CHECK(cc_plan_find(&v, gens) == NULL);

    /* a newer store for the key replaces its plan; stale generations are not found */
    CHECK(cc_plan_store(&k, g0, acc + 1, 1) == 0);
    p = cc_plan_find(&k, g0);
    CHECK(p != NULL && p->n == 1 && p->acc[0].address == acc[1].address);
    CHECK(cc_plan_find(&k, gens) == NULL);

    /* too many accesses: refused, and nothing is found for the key */
    cc_al_access many[CC_PLAN_ACCESSES + 1];
    memset(many, 0, sizeof many);
    cc_plan_key big = key_of(0x6000, 1);
    CHECK(cc_plan_store(&big, gens, many, CC_PLAN_ACCESSES + 1) != 0);
    CHECK(cc_plan_find(&big, gens) == NULL);
    CHECK(cc_plan_store(&big, gens, many, CC_PLAN_ACCESSES) == 0);
    CHECK(cc_plan_find(&big, gens) != NULL);

    /* 2,500 distinct launches of a step (kernels x arguments), stored then looked up again */
    enum { STEP = 2500 };
    for (unsigned i = 0; i < STEP; i++) {
        cc_plan_key s = key_of(0x10000 + 0x40 * (i % 50), cc_hash_u64(i));
        cc_al_access a = {0x7f0000000000ull + 256ull * i, 256, 1};
        CHECK(cc_plan_store(&s, gens, &a, 1) == 0);
    }
    unsigned found = 0, right = 0;
    for (unsigned i = 0; i < STEP; i++) {
        cc_plan_key s = key_of(0x10000 + 0x40 * (i % 50), cc_hash_u64(i));
        const cc_plan *q = cc_plan_find(&s, gens);
        found += q != NULL;
        right += q != NULL && q->n == 1 && q->acc[0].address == 0x7f0000000000ull + 256ull * i;
    }
    CHECK(found >= STEP * 9 / 10);
    CHECK_EQ_U64(right, found);

    /* another thread has a table of its own */
    pthread_t t;
    void *none = NULL;
    CHECK(pthread_create(&t, NULL, other_thread, &k) == 0 && pthread_join(t, &none) == 0);
    CHECK(none == (void *)1);

    /* the argument hash: equal bytes agree; a changed byte or length does not */
    unsigned char a1[100], a2[100];
    for (int i = 0; i < 100; i++) {
        a1[i] = a2[i] = (unsigned char)(i * 7);
    }
    CHECK(cc_hash_block(a1, 100) == cc_hash_block(a2, 100));
    for (int i = 0; i < 100; i++) {
        a2[i] ^= 1;
        CHECK(cc_hash_block(a1, 100) != cc_hash_block(a2, 100));
        a2[i] ^= 1;
    }
    CHECK(cc_hash_block(a1, 99) != cc_hash_block(a1, 100));
    CHECK(cc_hash_block(a1, 31) != cc_hash_block(a1, 32));
    unsigned char zeros[40] = {0};
    CHECK(cc_hash_block(zeros, 8) != cc_hash_block(zeros, 16));
    TEST_MAIN_END();
}
