/* Unit tests of holds on the allocation map (cc_allocmap_hold): a held moment is answered as it
 * was, however many frees and reallocations at the same address follow (more than the plain
 * freed history holds): the allocation live then (an overrun stays an overrun), and one freed
 * shortly before then (a use after free stays one). Without holds nothing is kept beyond the
 * history; what holds kept goes when they are released, and only what some hold needs is kept. */
#include <string.h>
#include "check.h"
#include "core/allocmap.h"
#include "cucheck/event.h"

static cc_alloc_rec rec(uint64_t base, uint64_t size)
{
    cc_alloc_rec r;
    memset(&r, 0, sizeof r);
    r.base = base;
    r.size = size;
    r.mem_kind = CC_MEM_DEVICE;
    return r;
}

/* n frees and reallocations of base (sizes 8192 and 4000 in turn), plus one short-lived
 * allocation elsewhere per round. */
static void churn(cc_allocmap *m, uint64_t base, int n)
{
    for (int i = 0; i < n; i++) {
        cc_alloc_rec a = rec(base, i % 2 == 0 ? 8192 : 4000);
        cc_alloc_rec t = rec(0x900000, 64);
        CHECK(cc_allocmap_remove(m, base, 0, NULL) == CC_FREE_OK);
        CHECK(cc_allocmap_add(m, &a) == 0);
        CHECK(cc_allocmap_add(m, &t) == 0);
        CHECK(cc_allocmap_remove(m, 0x900000, 0, NULL) == CC_FREE_OK);
    }
}

static void test_held_overrun_survives_churn(void)
{
    cc_allocmap *m = cc_allocmap_new();
    cc_alloc_rec a = rec(0x10000, 4000);
    CHECK(cc_allocmap_add(m, &a) == 0);
    uint64_t at = 0;
    CHECK(cc_allocmap_hold(m, &at) == 0);
    CHECK_EQ_U64(at, cc_allocmap_clock(m));
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 1);
    churn(m, 0x10000, CC_ALLOCMAP_FREED_HISTORY + 100);
    char s[256];
    cc_where_info w = cc_allocmap_where_at(m, 0x10000 + 4004, 4, at, s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER);
    CHECK_EQ_U64(w.distance, 4);
    CHECK_STR(s, "4 bytes after the end of a 4000-byte device allocation at 0x10000");
    CHECK(w.alloc != NULL && w.alloc->seq <= at);
    /* Only the record the hold needs was kept, not the churn made after it. */
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 1);
    cc_allocmap_release(m, at);
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 0);
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 0);
    /* Released: the moment is answered from the plain history, which lost it. */
    w = cc_allocmap_where_at(m, 0x10000 + 4004, 4, at, s, sizeof s);
    CHECK(w.where != CC_WHERE_AFTER || w.alloc == NULL || w.alloc->size != 4000 ||
          w.alloc->seq > at);
    cc_allocmap_free(m);
}

static void test_without_holds_nothing_kept(void)
{
    cc_allocmap *m = cc_allocmap_new();
    cc_alloc_rec a = rec(0x10000, 4000);
    CHECK(cc_allocmap_add(m, &a) == 0);
    uint64_t at = cc_allocmap_clock(m);
    churn(m, 0x10000, CC_ALLOCMAP_FREED_HISTORY + 100);
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 0);
    char s[256];
    cc_where_info w = cc_allocmap_where_at(m, 0x10000 + 4004, 4, at, s, sizeof s);
    CHECK(!(w.where == CC_WHERE_AFTER && w.alloc != NULL && w.alloc->size == 4000 &&
            w.alloc->seq <= at)); /* the history lost it: what holds are for */
    cc_allocmap_free(m);
}

static void test_held_use_after_free_survives_churn(void)
{
    cc_allocmap *m = cc_allocmap_new();
    cc_alloc_rec a = rec(0x20000, 256), b = rec(0x40000, 4000);
    CHECK(cc_allocmap_add(m, &a) == 0);
    CHECK(cc_allocmap_add(m, &b) == 0);
    CHECK(cc_allocmap_remove(m, 0x20000, 77, NULL) == CC_FREE_OK); /* freed before the moment */
    uint64_t at = 0;
    CHECK(cc_allocmap_hold(m, &at) == 0);
    churn(m, 0x40000, CC_ALLOCMAP_FREED_HISTORY + 10);
    char s[256];
    cc_where_info w = cc_allocmap_where_at(m, 0x20000 + 16, 4, at, s, sizeof s);
    CHECK(w.where == CC_WHERE_FREED);
    CHECK(w.alloc != NULL && w.alloc->free_callsite == 77);
    CHECK_STR(s, "at offset 16 of a 256-byte device allocation at 0x20000 that was already "
                 "freed");
    /* Both the freed one and the one live at the moment were kept. */
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 2);
    w = cc_allocmap_where_at(m, 0x40000 + 100, 4, at, s, sizeof s);
    CHECK(w.where == CC_WHERE_INSIDE && w.alloc->size == 4000);
    cc_allocmap_release(m, at);
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 0);
    cc_allocmap_free(m);
}

/* Several holds: releasing the older keeps what the newer still needs; two holds of one moment
 * are released one at a time; a clock never held is ignored. */
static void test_several_holds(void)
{
    cc_allocmap *m = cc_allocmap_new();
    cc_alloc_rec a = rec(0x10000, 4000), b = rec(0x80000, 512);
    CHECK(cc_allocmap_add(m, &a) == 0);
    uint64_t first = 0, again = 0, second = 0;
    CHECK(cc_allocmap_hold(m, &first) == 0);
    CHECK(cc_allocmap_hold(m, &again) == 0);
    CHECK_EQ_U64(first, again);
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 1); /* one moment, held twice */
    CHECK(cc_allocmap_add(m, &b) == 0);
    CHECK(cc_allocmap_hold(m, &second) == 0);
    CHECK(second > first);
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 2);
    CHECK(cc_allocmap_remove(m, 0x80000, 0, NULL) == CC_FREE_OK);
    churn(m, 0x10000, CC_ALLOCMAP_FREED_HISTORY + 50);
    cc_allocmap_release(m, first + 12345); /* never held: ignored */
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 2);
    cc_allocmap_release(m, first);
    cc_allocmap_release(m, first);
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 1);
    char s[256];
    cc_where_info w = cc_allocmap_where_at(m, 0x80000 + 8, 4, second, s, sizeof s);
    CHECK(w.where == CC_WHERE_INSIDE && w.alloc != NULL && w.alloc->size == 512);
    w = cc_allocmap_where_at(m, 0x10000 + 4000, 4, second, s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER && w.alloc != NULL && w.alloc->size == 4000);
    cc_allocmap_release(m, second);
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 0);
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 0);
    cc_allocmap_free(m);
}

/* A hold that stays while the program churns on: what is kept does not grow with the churn. */
static void test_kept_bounded_by_held_state(void)
{
    cc_allocmap *m = cc_allocmap_new();
    for (uint64_t i = 0; i < 8; i++) {
        cc_alloc_rec r = rec(0x100000 + i * 0x10000, 1024);
        CHECK(cc_allocmap_add(m, &r) == 0);
    }
    uint64_t at = 0;
    CHECK(cc_allocmap_hold(m, &at) == 0);
    for (uint64_t i = 0; i < 8; i++) {
        CHECK(cc_allocmap_remove(m, 0x100000 + i * 0x10000, 0, NULL) == CC_FREE_OK);
    }
    cc_alloc_rec x = rec(0x10000000, 64);
    CHECK(cc_allocmap_add(m, &x) == 0);
    churn(m, 0x10000000, 5 * CC_ALLOCMAP_FREED_HISTORY);
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 8);
    cc_allocmap_release(m, at);
    cc_allocmap_free(m);
}

/* Many holds released out of order and in order, with new ones taken meanwhile (the released
 * front reused): each remaining hold still answers for its own moment. */
static void test_many_holds_any_order(void)
{
    enum { N = 1000 };
    cc_allocmap *m = cc_allocmap_new();
    uint64_t clocks[N];
    for (int i = 0; i < N; i++) {
        cc_alloc_rec r = rec(0x1000000 + (uint64_t)i * 0x1000, 16 + (uint64_t)i);
        CHECK(cc_allocmap_add(m, &r) == 0);
        CHECK(cc_allocmap_hold(m, &clocks[i]) == 0);
    }
    CHECK_EQ_U64(cc_allocmap_hold_count(m), N);
    for (int i = 1; i < N; i += 2) { /* every other one, from the middle */
        cc_allocmap_release(m, clocks[i]);
    }
    CHECK_EQ_U64(cc_allocmap_hold_count(m), N / 2);
    for (int i = 0; i < N / 2; i += 2) { /* the oldest first */
        cc_allocmap_release(m, clocks[i]);
    }
    CHECK_EQ_U64(cc_allocmap_hold_count(m), N / 2 - N / 4);
    uint64_t later[N];
    for (int i = 0; i < N; i++) { /* new holds reuse the released front */
        cc_alloc_rec r = rec(0x9000000 + (uint64_t)i * 0x1000, 32);
        CHECK(cc_allocmap_add(m, &r) == 0);
        CHECK(cc_allocmap_hold(m, &later[i]) == 0);
    }
    for (int i = 0; i < N; i++) { /* free everything past the history */
        CHECK(cc_allocmap_remove(m, 0x1000000 + (uint64_t)i * 0x1000, 0, NULL) == CC_FREE_OK);
        CHECK(cc_allocmap_remove(m, 0x9000000 + (uint64_t)i * 0x1000, 0, NULL) == CC_FREE_OK);
    }
    cc_alloc_rec x = rec(0x40000000, 8);
    CHECK(cc_allocmap_add(m, &x) == 0);
    churn(m, 0x40000000, CC_ALLOCMAP_FREED_HISTORY);
    CHECK(cc_allocmap_kept_count(m) >= N); /* the held ones left the history */
    char s[256];
    int k = N - 2; /* an even index of the second half: still held */
    cc_where_info w = cc_allocmap_where_at(m, 0x1000000 + (uint64_t)k * 0x1000, 4, clocks[k],
                                           s, sizeof s);
    CHECK(w.where == CC_WHERE_INSIDE && w.alloc != NULL && w.alloc->size == 16 + (uint64_t)k);
    w = cc_allocmap_where_at(m, 0x9000000 + 5 * 0x1000, 4, later[7], s, sizeof s);
    CHECK(w.where == CC_WHERE_INSIDE && w.alloc != NULL && w.alloc->size == 32);
    for (int i = N / 2; i < N; i += 2) {
        cc_allocmap_release(m, clocks[i]);
    }
    for (int i = 0; i < N; i++) {
        cc_allocmap_release(m, later[i]);
    }
    CHECK_EQ_U64(cc_allocmap_hold_count(m), 0);
    CHECK_EQ_U64(cc_allocmap_kept_count(m), 0);
    cc_allocmap_free(m);
}

int main(void)
{
    test_held_overrun_survives_churn();
    test_without_holds_nothing_kept();
    test_held_use_after_free_survives_churn();
    test_several_holds();
    test_kept_bounded_by_held_state();
    test_many_holds_any_order();
    TEST_MAIN_END();
}
