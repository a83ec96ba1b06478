/* The per-thread table of launches decided for good (core/decided_cache.h): a remembered
 * (kernel, grid, block) hits until the policy changes, any other dimension or kernel misses,
 * another thread sees none of this thread's entries, a full table keeps the latest entry, and
 * the steady mark is read once. */
#include <pthread.h>
#include <string.h>
#include "check.h"
#include "core/decided_cache.h"

static int kernel_a, kernel_b; /* stand-ins for two CUfunction handles */

static cc_decided_key key(const void *fn, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t bz)
{
    cc_decided_key k = {fn, {gx, gy, 1}, {bx, 1, bz}};
    return k;
}

static void *other_thread(void *arg)
{
    const cc_decided_key *k = arg;
    int hit = cc_decided_hit(k);
    cc_decided_remember(k); /* its own table: the main thread's is not touched */
    return (void *)(intptr_t)(hit + 2 * cc_decided_hit(k));
}

int main(void)
{
    cc_decided_key a = key(&kernel_a, 64, 1, 256, 1);
    CHECK(!cc_decided_hit(&a));
    cc_decided_remember(&a);
    CHECK(cc_decided_hit(&a));
    /* every dimension and the kernel are part of the key */
    cc_decided_key other[] = {key(&kernel_b, 64, 1, 256, 1), key(&kernel_a, 65, 1, 256, 1),
                              key(&kernel_a, 64, 2, 256, 1), key(&kernel_a, 64, 1, 128, 1),
                              key(&kernel_a, 64, 1, 256, 2)};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        CHECK(!cc_decided_hit(&other[i]));
    }
    cc_decided_key z = a;
    z.grid[2] = 3;
    CHECK(!cc_decided_hit(&z));

    /* another thread starts empty and fills only its own table */
    pthread_t t;
    void *res = NULL;
    CHECK(pthread_create(&t, NULL, other_thread, &a) == 0);
    CHECK(pthread_join(t, &res) == 0);
    CHECK((intptr_t)res == 2);
    CHECK(cc_decided_hit(&a));

    /* a policy change forgets everything, here and in other threads */
    cc_decided_invalidate();
    CHECK(!cc_decided_hit(&a));
    cc_decided_remember(&a);
    CHECK(cc_decided_hit(&a));

    /* many shapes: the latest one remembered always hits (a lossy table, never a wrong hit) */
    for (uint32_t g = 1; g <= 5000; g++) {
        cc_decided_key k = key(&kernel_b, g, 1, 32, 1);
        cc_decided_remember(&k);
        CHECK(cc_decided_hit(&k));
        cc_decided_key never = key(&kernel_b, g, 1, 64, 1);
        CHECK(!cc_decided_hit(&never));
    }
    cc_decided_key none = key(NULL, 1, 1, 1, 1);
    cc_decided_remember(&none); /* a launch without a function is never remembered */
    CHECK(!cc_decided_hit(&none));

    /* the steady mark: read once, then cleared */
    CHECK(!cc_decided_take_steady());
    cc_decided_mark_steady();
    CHECK(cc_decided_take_steady());
    CHECK(!cc_decided_take_steady());
    return cc_test_failures != 0;
}
