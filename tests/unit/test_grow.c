/* Unit tests of the one growable array (core/grow.h): pushes keep every element, capacity grows
 * geometrically (few reallocations), reserving what is there changes nothing, and sizes whose
 * byte count would wrap or exceed what an object may hold are refused with the array untouched. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "core/grow.h"

typedef struct item {
    uint64_t id;
    char tag[24];
} item;

typedef struct owner {
    item *items;
    size_t n, cap;
} owner;

static void test_push_keeps_elements(void)
{
    owner o = {0};
    size_t moves = 0, last_cap = 0;
    for (uint64_t i = 0; i < 100000; i++) {
        item *it = CC_ARRAY_PUSH(o.items, o.n, o.cap);
        CHECK(it != NULL);
        if (it == NULL) {
            break;
        }
        it->id = i * 7;
        snprintf(it->tag, sizeof it->tag, "#%llu", (unsigned long long)i);
        if (o.cap != last_cap) {
            CHECK(o.cap >= 2 * last_cap); /* geometric */
            last_cap = o.cap;
            moves++;
        }
    }
    CHECK_EQ_U64(o.n, 100000);
    CHECK(o.cap >= o.n);
    CHECK(moves <= 16); /* 8, 16, ..., 131072 */
    int ok = 1;
    for (uint64_t i = 0; i < o.n; i++) {
        char want[24];
        snprintf(want, sizeof want, "#%llu", (unsigned long long)i);
        ok &= o.items[i].id == i * 7 && strcmp(o.items[i].tag, want) == 0;
    }
    CHECK(ok);
    free(o.items);
}

static void test_reserve_sizes(void)
{
    int *a = NULL;
    size_t cap = 0, none = 0;
    CHECK(CC_ARRAY_RESERVE(a, cap, none) == 0); /* nothing needed: nothing allocated */
    CHECK(a == NULL && cap == 0);
    CHECK(CC_ARRAY_RESERVE(a, cap, 1) == 0);
    CHECK_EQ_U64(cap, 8); /* the smallest allocation */
    int *before = a;
    CHECK(CC_ARRAY_RESERVE(a, cap, 8) == 0);
    CHECK(a == before && cap == 8); /* room already there: untouched */
    CHECK(CC_ARRAY_RESERVE(a, cap, 9) == 0);
    CHECK_EQ_U64(cap, 16); /* doubled */
    CHECK(CC_ARRAY_RESERVE(a, cap, 1000) == 0);
    CHECK_EQ_U64(cap, 1000); /* more than double: exactly what is needed */
    for (int i = 0; i < 1000; i++) {
        a[i] = i;
    }
    CHECK(CC_ARRAY_RESERVE(a, cap, 1001) == 0);
    CHECK_EQ_U64(cap, 2000);
    CHECK(a[999] == 999 && a[0] == 0);
    free(a);
}

static void test_overflow_refused(void)
{
    /* need * 16 wraps around to 16 bytes if unchecked. */
    item *a = NULL;
    size_t cap = 0;
    size_t wraps = SIZE_MAX / sizeof(item) + 2;
    CHECK(CC_ARRAY_RESERVE(a, cap, wraps) == -1);
    CHECK(a == NULL && cap == 0);
    /* More bytes than any object may have (above PTRDIFF_MAX), without wrapping. */
    CHECK(CC_ARRAY_RESERVE(a, cap, (size_t)PTRDIFF_MAX / sizeof(item) + 1) == -1);
    CHECK(a == NULL && cap == 0);
    CHECK(cc_array_grow((void **)&a, &cap, SIZE_MAX, 1) == -1);

    /* An existing array refused a growth keeps its elements and capacity. */
    CHECK(CC_ARRAY_RESERVE(a, cap, 3) == 0);
    a[2].id = 42;
    item *kept = a;
    size_t kept_cap = cap;
    CHECK(CC_ARRAY_RESERVE(a, cap, wraps) == -1);
    CHECK(a == kept && cap == kept_cap && a[2].id == 42);
    free(a);

    /* A push onto an array at the largest count: refused, count unchanged (no allocation is
     * attempted, so the array need not exist). */
    uint64_t *big = NULL;
    size_t n = (size_t)PTRDIFF_MAX / sizeof *big, bcap = n;
    CHECK(CC_ARRAY_PUSH(big, n, bcap) == NULL);
    CHECK(n == (size_t)PTRDIFF_MAX / sizeof *big && bcap == n);
}

int main(void)
{
    test_push_keeps_elements();
    test_reserve_sizes();
    test_overflow_refused();
    TEST_MAIN_END();
}
