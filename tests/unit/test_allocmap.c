/* Unit tests of the allocation map (core/allocmap.h): interval lookup, overlap retirement,
 * free verdicts (ok, double, interior, unknown), nearest allocation and the "where it lies"
 * sentences memcheck prints. */
#include <string.h>
#include "check.h"
#include "core/allocmap.h"
#include "cucheck/event.h"

static cc_alloc_rec rec(uint64_t base, uint64_t size, uint64_t ctx)
{
    cc_alloc_rec r;
    memset(&r, 0, sizeof r);
    r.base = base;
    r.size = size;
    r.mem_kind = CC_MEM_DEVICE;
    r.context = ctx;
    return r;
}

int main(void)
{
    cc_allocmap *m = cc_allocmap_new();
    CHECK(m != NULL);
    uint64_t span_lo = 1, span_hi = 1;
    cc_allocmap_span(m, &span_lo, &span_hi); /* empty: nothing lies inside */
    CHECK(span_lo == 0 && span_hi == 0);
    CHECK(cc_allocmap_find(m, 0x1000) == NULL);
    cc_alloc_rec a = rec(0x1000, 4000, 1), b = rec(0x3000, 256, 1), c = rec(0x10000, 64, 2);
    CHECK(cc_allocmap_add(m, &c) == 0);
    CHECK(cc_allocmap_add(m, &a) == 0);
    CHECK(cc_allocmap_add(m, &b) == 0);
    CHECK_EQ_U64(cc_allocmap_live_count(m), 3);
    CHECK_EQ_U64(cc_allocmap_live_bytes(m), 4000 + 256 + 64);
    CHECK_EQ_U64(cc_allocmap_live_at(m, 0)->base, 0x1000); /* sorted */
    CHECK_EQ_U64(cc_allocmap_live_at(m, 2)->base, 0x10000);

    /* Interval lookup at the edges. */
    CHECK(cc_allocmap_find(m, 0x1000) != NULL);
    CHECK(cc_allocmap_find(m, 0x1000 + 3999) != NULL);
    CHECK(cc_allocmap_find(m, 0x1000 + 4000) == NULL);
    CHECK(cc_allocmap_find(m, 0xfff) == NULL);
    CHECK_EQ_U64(cc_allocmap_find(m, 0x30ff)->base, 0x3000);
    uint64_t lo = 1, hi = 1;
    cc_allocmap_span(m, &lo, &hi);
    CHECK_EQ_U64(lo, 0x1000);
    CHECK_EQ_U64(hi, 0x10000 + 64);
    /* Outside [lowest base, highest end): small integers, far addresses, the last end. */
    CHECK(cc_allocmap_find(m, 0) == NULL);
    CHECK(cc_allocmap_find(m, 64) == NULL);
    CHECK(cc_allocmap_find(m, 0x10000 + 63) != NULL);
    CHECK(cc_allocmap_find(m, 0x10000 + 64) == NULL);
    CHECK(cc_allocmap_find(m, UINT64_MAX) == NULL);

    /* Where it lies. */
    char s[256];
    cc_where_info w = cc_allocmap_where(m, 0x1000 + 4000, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER);
    CHECK_EQ_U64(w.distance, 0);
    CHECK_STR(s, "0 bytes after the end of a 4000-byte device allocation at 0x1000");
    w = cc_allocmap_where(m, 0x1000 + 4016, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER && w.distance == 16);
    w = cc_allocmap_where(m, 0x2ff8, 4, s, sizeof s); /* closer to b's start than a's end */
    CHECK(w.where == CC_WHERE_BEFORE && w.distance == 8 && w.alloc->base == 0x3000);
    CHECK_STR(s, "8 bytes before the start of a 256-byte device allocation at 0x3000");
    w = cc_allocmap_where(m, 0x1000 + 3998, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_OVERRUN && w.distance == 3998);
    CHECK(strstr(s, "running 2 bytes past its end") != NULL);
    w = cc_allocmap_where(m, 0x1010, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_INSIDE);
    CHECK_STR(s, "at offset 16 of a 4000-byte device allocation at 0x1000");

    /* Frees: ok, double, interior, unknown; use-after-free lookup. */
    cc_alloc_rec out;
    CHECK(cc_allocmap_remove(m, 0x3000, 7, &out) == CC_FREE_OK);
    CHECK_EQ_U64(out.free_callsite, 7);
    CHECK(cc_allocmap_remove(m, 0x3000, 8, &out) == CC_FREE_DOUBLE);
    CHECK_EQ_U64(out.size, 256);
    CHECK(cc_allocmap_remove(m, 0x1010, 0, &out) == CC_FREE_INTERIOR);
    CHECK_EQ_U64(out.base, 0x1000);
    CHECK(cc_allocmap_remove(m, 0x9999, 0, &out) == CC_FREE_UNKNOWN);
    CHECK(cc_allocmap_find(m, 0x3010) == NULL);
    CHECK(cc_allocmap_find(m, 0x10000 + 8) != NULL); /* past a removed one, still found */
    CHECK(cc_allocmap_find_freed(m, 0x3010) != NULL);
    w = cc_allocmap_where(m, 0x3010, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_FREED && w.distance == 16);
    CHECK(strstr(s, "already freed") != NULL);

    /* Re-allocating the freed range: no longer freed, and a free of it is fine again. */
    cc_alloc_rec b2 = rec(0x3000, 128, 1);
    CHECK(cc_allocmap_add(m, &b2) == 0);
    CHECK(cc_allocmap_find_freed(m, 0x3010) == NULL);
    CHECK(cc_allocmap_remove(m, 0x3000, 0, &out) == CC_FREE_OK);

    /* An allocation over a live one (a missed free) retires the old one. */
    cc_alloc_rec big = rec(0x800, 0x1000, 1);
    CHECK(cc_allocmap_add(m, &big) == 1);
    CHECK_EQ_U64(cc_allocmap_find(m, 0x1000)->base, 0x800);

    /* Dropping a context. */
    CHECK_EQ_U64(cc_allocmap_drop_context(m, 2), 1);
    CHECK(cc_allocmap_find(m, 0x10000) == NULL);
    CHECK_EQ_U64(cc_allocmap_live_count(m), 1);

    /* Nothing live. */
    CHECK(cc_allocmap_remove(m, 0x800, 0, &out) == CC_FREE_OK);
    w = cc_allocmap_where(m, 0x5, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_NOWHERE && w.alloc == NULL);

    /* Many allocations stay sorted and searchable. */
    for (uint64_t i = 0; i < 1000; i++) {
        cc_alloc_rec r = rec(0x100000 + ((i * 7919) % 1000) * 0x100, 0x80, 1);
        cc_allocmap_add(m, &r);
    }
    CHECK_EQ_U64(cc_allocmap_live_count(m), 1000);
    for (size_t i = 1; i < cc_allocmap_live_count(m); i++) {
        CHECK(cc_allocmap_live_at(m, i - 1)->base < cc_allocmap_live_at(m, i)->base);
    }
    CHECK(cc_allocmap_find(m, 0x100000 + 500 * 0x100 + 0x7f) != NULL);
    CHECK(cc_allocmap_find(m, 0x100000 + 500 * 0x100 + 0x80) == NULL);
    cc_allocmap_free(m);

    /* The map as it was at a clock (memcheck reads a launch's findings after later changes). */
    m = cc_allocmap_new();
    cc_alloc_rec a1 = rec(0x1000, 0x100, 1), a2 = rec(0x4000, 0x100, 1);
    cc_allocmap_add(m, &a1);
    cc_allocmap_add(m, &a2);
    uint64_t launch = cc_allocmap_clock(m); /* a launch sees a1 and a2 */
    CHECK(cc_allocmap_remove(m, 0x1000, 0, &out) == CC_FREE_OK); /* freed after the launch */
    cc_alloc_rec a3 = rec(0x2000, 0x100, 1);                       /* made after the launch */
    cc_allocmap_add(m, &a3);
    /* 8 bytes past a1: after the end of a1 at the launch (now: freed history says nothing,
     * the nearest live one would be a3). */
    w = cc_allocmap_where_at(m, 0x1108, 4, launch, s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER && w.distance == 8 && w.alloc->base == 0x1000);
    CHECK_STR(s, "8 bytes after the end of a 256-byte device allocation at 0x1000");
    w = cc_allocmap_where(m, 0x1108, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_BEFORE && w.alloc->base == 0x2000);
    /* Inside a3, made after the launch: not an allocation then; use-before-alloc material. */
    w = cc_allocmap_where_at(m, 0x2010, 4, launch, s, sizeof s);
    CHECK(w.where != CC_WHERE_INSIDE);
    CHECK(cc_allocmap_find_made_after(m, 0x2010, launch) != NULL);
    CHECK(cc_allocmap_find_made_after(m, 0x4010, launch) == NULL);
    /* Freed before a later launch: use after free then, also after it is allocated again. */
    uint64_t launch2 = cc_allocmap_clock(m);
    cc_alloc_rec a4 = rec(0x1000, 0x80, 1);
    cc_allocmap_add(m, &a4);
    w = cc_allocmap_where_at(m, 0x1010, 4, launch2, s, sizeof s);
    CHECK(w.where == CC_WHERE_FREED && w.alloc->base == 0x1000 && w.alloc->size == 0x100);
    /* Nothing changed since: the same answer as now. */
    w = cc_allocmap_where_at(m, 0x4108, 4, cc_allocmap_clock(m), s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER && w.alloc->base == 0x4000);
    cc_allocmap_free(m);

    /* A freed block whose memory was handed out again before the launch: an access just past
     * the new, smaller allocation is its overrun, not a use of the old block (tests/gpu/stress:
     * 32 threads reallocating in the padding of a freed 20000-byte buffer). */
    m = cc_allocmap_new();
    cc_alloc_rec old_big = rec(0x8000, 20000, 1);
    cc_allocmap_add(m, &old_big);
    CHECK(cc_allocmap_remove(m, 0x8000, 0, &out) == CC_FREE_OK);
    cc_alloc_rec reused = rec(0x8000, 4000, 1);
    cc_allocmap_add(m, &reused);
    uint64_t launch3 = cc_allocmap_clock(m);
    cc_alloc_rec later = rec(0x20000, 64, 1); /* the map moves on before the read-back */
    cc_allocmap_add(m, &later);
    w = cc_allocmap_where_at(m, 0x8000 + 4000, 4, launch3, s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER && w.distance == 0 && w.alloc->base == 0x8000 &&
          w.alloc->size == 4000);
    w = cc_allocmap_where(m, 0x8000 + 4000, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_AFTER && w.alloc->size == 4000);
    /* Not reused: still the freed block. */
    CHECK(cc_allocmap_remove(m, 0x20000, 0, &out) == CC_FREE_OK);
    w = cc_allocmap_where(m, 0x20010, 4, s, sizeof s);
    CHECK(w.where == CC_WHERE_FREED && w.alloc->base == 0x20000);
    cc_allocmap_free(m);
    TEST_MAIN_END();
}
