/* Unit tests of the one hash table (core/hashmap.h) and the shared hash functions (core/hash.h):
 * insert, find, replace and remove, with every key valid (0 and UINT64_MAX too); long collision
 * runs that wrap around the end of the table, emptied from the middle (backward shift);
 * several values for one key; iteration; a fixed table that fills up and refuses, never
 * allocating; and a few hundred thousand random operations on growing and fixed tables checked
 * against a plain reference model after each one. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "core/hashmap.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void test_hash_functions(void)
{
    /* Values of the project's FNV-1a (its own offset basis): they appear in reports (SARIF
     * fingerprints) and must never change. */
    CHECK_EQ_U64(cc_hash_str(""), 0x14650FB0739D0383ull);
    CHECK_EQ_U64(cc_hash_str("a"), 0x44BD8AD473CD9906ull);
    CHECK_EQ_U64(cc_hash_str("foobar"), 0x88FAD7C0A8FF07F2ull);
    CHECK_EQ_U64(cc_hash_bytes("foobar", 6), cc_hash_str("foobar"));
    CHECK_EQ_U64(cc_hash_more(cc_hash_bytes("foo", 3), "bar", 3), cc_hash_str("foobar"));
    CHECK(cc_hash_u64(1) != cc_hash_u64(2));
    CHECK(cc_hash_pair(1, 2) != cc_hash_pair(2, 1));
    CHECK(cc_hash_combine(cc_hash_combine(7, 1), 2) != cc_hash_combine(cc_hash_combine(7, 2), 1));
}

static void test_basic(void)
{
    cc_hashmap m = CC_HASHMAP_INIT;
    CHECK(cc_hashmap_get(&m, 0) == NULL); /* empty, nothing allocated */
    CHECK(cc_hashmap_remove(&m, 5, NULL) == 0);
    CHECK(cc_hashmap_put(&m, 0, 10) == 0);
    CHECK(cc_hashmap_put(&m, UINT64_MAX, 20) == 0);
    CHECK(cc_hashmap_put(&m, 42, 30) == 0);
    CHECK_EQ_U64(m.count, 3);
    CHECK(cc_hashmap_get(&m, 0) && *cc_hashmap_get(&m, 0) == 10);
    CHECK(cc_hashmap_get(&m, UINT64_MAX) && *cc_hashmap_get(&m, UINT64_MAX) == 20);
    CHECK(cc_hashmap_get(&m, 43) == NULL);
    CHECK(cc_hashmap_put(&m, 42, 31) == 0); /* replaced, not added */
    CHECK_EQ_U64(m.count, 3);
    CHECK_EQ_U64(*cc_hashmap_get(&m, 42), 31);
    int added = -1;
    uint64_t *v = cc_hashmap_get_or_add(&m, 42, 99, &added);
    CHECK(v != NULL && *v == 31 && added == 0);
    v = cc_hashmap_get_or_add(&m, 7, 99, &added);
    CHECK(v != NULL && *v == 99 && added == 1);
    *v = 100; /* values are changed in place */
    CHECK_EQ_U64(*cc_hashmap_get(&m, 7), 100);
    uint64_t out = 0;
    CHECK(cc_hashmap_remove(&m, 0, &out) == 1 && out == 10);
    CHECK(cc_hashmap_get(&m, 0) == NULL);
    CHECK(cc_hashmap_remove(&m, 0, &out) == 0);
    CHECK_EQ_U64(m.count, 3);
    cc_hashmap_clear(&m);
    CHECK_EQ_U64(m.count, 0);
    CHECK(cc_hashmap_get(&m, 42) == NULL);
    CHECK(cc_hashmap_put(&m, 42, 1) == 0);
    cc_hashmap_free(&m);
    CHECK(m.cap == 0 && m.count == 0 && m.slots == NULL);
    CHECK(cc_hashmap_put(&m, 1, 1) == 0); /* usable again after free */
    cc_hashmap_free(&m);
}

/* n keys whose home slot in m is `home`. */
static void keys_with_home(const cc_hashmap *m, uint64_t *out, size_t n, size_t home)
{
    for (uint64_t k = 1; n > 0; k++) {
        if (cc_hashmap_home(m, k) == home) {
            *out++ = k;
            n--;
        }
    }
}

static void test_collisions_and_backward_shift(void)
{
    enum { CAP = 64 };
    cc_hashmap_slot slots[CAP];
    uint64_t used[CC_HASHMAP_USED_WORDS(CAP)];
    cc_hashmap m;
    CHECK(cc_hashmap_init_fixed(&m, slots, used, CAP) == 0);
    /* A run of 12 keys homed at the last slot (it wraps to the start), then 6 homed at slot 2,
     * which land behind that run. */
    uint64_t a[12], b[6];
    keys_with_home(&m, a, 12, CAP - 1);
    keys_with_home(&m, b, 6, 2);
    for (int i = 0; i < 12; i++) {
        CHECK(cc_hashmap_put(&m, a[i], 100 + (uint64_t)i) == 0);
    }
    for (int i = 0; i < 6; i++) {
        CHECK(cc_hashmap_put(&m, b[i], 200 + (uint64_t)i) == 0);
    }
    /* Remove from the middle and the front of the runs; every other key stays found. */
    int gone_a[12] = {0}, gone_b[6] = {0};
    int order_a[] = {5, 0, 11, 3}, order_b[] = {0, 4};
    for (int r = 0; r < 4; r++) {
        CHECK(cc_hashmap_remove(&m, a[order_a[r]], NULL) == 1);
        gone_a[order_a[r]] = 1;
        if (r < 2) {
            CHECK(cc_hashmap_remove(&m, b[order_b[r]], NULL) == 1);
            gone_b[order_b[r]] = 1;
        }
        for (int i = 0; i < 12; i++) {
            uint64_t *v = cc_hashmap_get(&m, a[i]);
            CHECK(gone_a[i] ? v == NULL : v != NULL && *v == 100 + (uint64_t)i);
        }
        for (int i = 0; i < 6; i++) {
            uint64_t *v = cc_hashmap_get(&m, b[i]);
            CHECK(gone_b[i] ? v == NULL : v != NULL && *v == 200 + (uint64_t)i);
        }
    }
    CHECK_EQ_U64(m.count, 12);
    /* No stale entry left behind: every occupied slot is reachable from its home without
     * crossing an empty slot. */
    for (size_t i = 0; i < CAP; i++) {
        if (!(used[i / 64] >> (i % 64) & 1)) {
            continue;
        }
        size_t j = cc_hashmap_home(&m, slots[i].key);
        while (j != i) {
            CHECK(used[j / 64] >> (j % 64) & 1);
            j = (j + 1) & (CAP - 1);
        }
    }
}

static void test_several_values_per_key(void)
{
    cc_hashmap m = CC_HASHMAP_INIT;
    for (uint64_t v = 1; v <= 5; v++) {
        CHECK(cc_hashmap_add(&m, 77, v) == 0);
        CHECK(cc_hashmap_add(&m, 78, v * 10) == 0);
    }
    CHECK_EQ_U64(m.count, 10);
    size_t cursor = 0;
    uint64_t seen = 0, n = 0;
    for (uint64_t *v; (v = cc_hashmap_find_next(&m, 77, &cursor)) != NULL;) {
        seen |= 1ull << *v;
        n++;
    }
    CHECK(n == 5 && seen == 0x3E);
    CHECK(cc_hashmap_remove_entry(&m, 77, 3) == 1);
    CHECK(cc_hashmap_remove_entry(&m, 77, 3) == 0);
    CHECK(cc_hashmap_remove_entry(&m, 77, 10) == 0); /* 78's value */
    cursor = 0;
    seen = n = 0;
    for (uint64_t *v; (v = cc_hashmap_find_next(&m, 77, &cursor)) != NULL;) {
        seen |= 1ull << *v;
        n++;
    }
    CHECK(n == 4 && seen == 0x36);
    cursor = 0;
    CHECK(cc_hashmap_find_next(&m, 79, &cursor) == NULL);
    cc_hashmap_free(&m);
}

static void test_iteration(void)
{
    cc_hashmap m = CC_HASHMAP_INIT;
    uint64_t want_keys = 0, want_values = 0;
    for (uint64_t k = 0; k < 1000; k++) {
        uint64_t key = k * 0x10001ull;
        CHECK(cc_hashmap_put(&m, key, k) == 0);
        want_keys += key;
        want_values += k;
    }
    for (uint64_t k = 0; k < 1000; k += 3) {
        CHECK(cc_hashmap_remove(&m, k * 0x10001ull, NULL) == 1);
        want_keys -= k * 0x10001ull;
        want_values -= k;
    }
    uint64_t keys = 0, values = 0, n = 0;
    size_t it = 0;
    for (cc_hashmap_slot *s; (s = cc_hashmap_next(&m, &it)) != NULL;) {
        keys += s->key;
        values += s->value;
        n++;
    }
    CHECK_EQ_U64(n, m.count);
    CHECK_EQ_U64(n, 666);
    CHECK_EQ_U64(keys, want_keys);
    CHECK_EQ_U64(values, want_values);
    it = 0;
    cc_hashmap empty = CC_HASHMAP_INIT;
    CHECK(cc_hashmap_next(&empty, &it) == NULL);
    cc_hashmap_free(&m);
}

static void test_fixed_full(void)
{
    enum { CAP = 64 };
    cc_hashmap_slot slots[CAP];
    uint64_t used[CC_HASHMAP_USED_WORDS(CAP)];
    cc_hashmap m;
    CHECK(cc_hashmap_init_fixed(&m, slots, used, 48) == -1); /* not a power of two */
    CHECK(cc_hashmap_init_fixed(&m, slots, used, 1) == -1);
    CHECK(cc_hashmap_init_fixed(&m, slots, used, CAP) == 0);
    for (uint64_t k = 0; k < CAP; k++) {
        CHECK(cc_hashmap_put(&m, k * 3, k) == 0); /* fills every slot */
    }
    CHECK_EQ_U64(m.count, CAP);
    CHECK(cc_hashmap_put(&m, 1, 1) == -1);           /* full: refused */
    CHECK(cc_hashmap_add(&m, 3, 1) == -1);
    CHECK(cc_hashmap_get_or_add(&m, 1, 0, NULL) == NULL);
    CHECK(cc_hashmap_get(&m, 1) == NULL);            /* an absent key in a full table */
    CHECK(cc_hashmap_put(&m, 9, 99) == 0);           /* replacing needs no room */
    CHECK_EQ_U64(*cc_hashmap_get(&m, 9), 99);
    CHECK(cc_hashmap_reserve(&m, CAP) == 0);
    CHECK(cc_hashmap_reserve(&m, CAP + 1) == -1);
    CHECK(m.slots == slots && m.used == used);       /* never replaced */
    CHECK(cc_hashmap_remove(&m, 9, NULL) == 1);
    CHECK(cc_hashmap_put(&m, 1, 1) == 0);            /* room again */
    CHECK(cc_hashmap_put(&m, 2, 2) == -1);
    for (uint64_t k = 0; k < CAP; k++) {
        if (k != 3) {
            CHECK(cc_hashmap_get(&m, k * 3) != NULL && *cc_hashmap_get(&m, k * 3) == k);
        }
    }
    cc_hashmap_free(&m); /* fixed: emptied, storage kept */
    CHECK(m.count == 0 && m.slots == slots);
    CHECK(cc_hashmap_get(&m, 0) == NULL);
    CHECK(cc_hashmap_put(&m, 5, 5) == 0);
}

static void test_reserve(void)
{
    cc_hashmap m = CC_HASHMAP_INIT;
    CHECK(cc_hashmap_reserve(&m, 0) == 0);
    CHECK(m.slots == NULL);
    CHECK(cc_hashmap_reserve(&m, 5000) == 0);
    cc_hashmap_slot *slots = m.slots;
    for (uint64_t k = 0; k < 5000; k++) {
        CHECK(cc_hashmap_put(&m, rng(), k) == 0);
    }
    CHECK(m.slots == slots); /* no growth inside the reservation */
    CHECK(cc_hashmap_reserve(&m, SIZE_MAX / 4) == -1);
    CHECK_EQ_U64(m.count, 5000);
    cc_hashmap_free(&m);
}

/* Random operations against a reference model (present/value per key of a pool). The pool
 * holds 0, UINT64_MAX, regular and random keys; `fixed` tables hold fewer slots
 * than the pool has keys, so insertions meet a full table. */
static void churn(cc_hashmap *m, size_t pool_n, size_t ops, size_t full_at)
{
    uint64_t *pool = malloc(pool_n * sizeof *pool);
    unsigned char *present = calloc(pool_n, 1);
    uint64_t *value = calloc(pool_n, sizeof *value);
    CHECK(pool != NULL && present != NULL && value != NULL);
    if (pool == NULL || present == NULL || value == NULL) {
        goto out;
    }
    pool[0] = 0;
    pool[1] = UINT64_MAX;
    for (size_t i = 2; i < pool_n; i++) {
        /* a quarter of the keys are small multiples of 2^40, the rest random */
        pool[i] = i % 4 == 0 ? (uint64_t)i << 40 : rng();
    }
    size_t model_count = 0, bad = 0;
    for (size_t op = 0; op < ops; op++) {
        size_t i = (size_t)(rng() % pool_n);
        uint64_t k = pool[i], v = rng();
        switch (rng() % 4) {
        case 0:
        case 1: { /* put */
            int full = !present[i] && model_count == full_at;
            int rc = cc_hashmap_put(m, k, v);
            if (full) {
                bad += rc != -1;
            } else {
                bad += rc != 0;
                model_count += !present[i];
                present[i] = 1;
                value[i] = v;
            }
            break;
        }
        case 2: { /* remove */
            uint64_t out = 0;
            int rc = cc_hashmap_remove(m, k, &out);
            bad += rc != present[i] || (rc && out != value[i]);
            model_count -= present[i];
            present[i] = 0;
            break;
        }
        default: { /* find */
            uint64_t *got = cc_hashmap_get(m, k);
            bad += present[i] ? got == NULL || *got != value[i] : got != NULL;
            break;
        }
        }
        bad += m->count != model_count;
        if (bad != 0) {
            fprintf(stderr, "churn: mismatch at operation %zu\n", op);
            break;
        }
    }
    CHECK_EQ_U64(bad, 0);
    /* Every model key present with its value, and iteration gives exactly the model. */
    size_t found = 0;
    for (size_t i = 0; i < pool_n; i++) {
        uint64_t *got = cc_hashmap_get(m, pool[i]);
        found += present[i] ? got != NULL && *got == value[i] : got == NULL;
    }
    CHECK_EQ_U64(found, pool_n);
    size_t it = 0, n = 0;
    for (cc_hashmap_slot *s; (s = cc_hashmap_next(m, &it)) != NULL;) {
        n++;
    }
    CHECK_EQ_U64(n, model_count);
out:
    free(pool);
    free(present);
    free(value);
}

static void test_churn(void)
{
    cc_hashmap grown = CC_HASHMAP_INIT;
    churn(&grown, 5000, 400000, SIZE_MAX);
    cc_hashmap_free(&grown);

    static cc_hashmap_slot slots[1024];
    static uint64_t used[CC_HASHMAP_USED_WORDS(1024)];
    cc_hashmap fixed;
    CHECK(cc_hashmap_init_fixed(&fixed, slots, used, 1024) == 0);
    churn(&fixed, 1500, 300000, 1024);
    CHECK(fixed.slots == slots);
}

int main(void)
{
    test_hash_functions();
    test_basic();
    test_collisions_and_backward_shift();
    test_several_values_per_key();
    test_iteration();
    test_fixed_full();
    test_reserve();
    test_churn();
    TEST_MAIN_END();
}
