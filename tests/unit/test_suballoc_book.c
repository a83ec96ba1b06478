/* The sub-allocators' book (core/suballoc_book.h) over a table of its own that behaves as the
 * agent's allocation table does (sorted, an insert drops what it overlaps): a heap's span leaves
 * the table and its regions enter it; unregistering puts the allocation back; a heap inside part
 * of an allocation keeps the rest as ranges; two heaps in one allocation; reset; resize (grow,
 * shrink, over a neighbour); freeing the heap's allocation ends the heap (and its regions) with
 * the callback; an allocation made inside a heap is hidden, one partly over a heap ends it;
 * reservations stay out; bad input (unknown ids, regions outside the heap, empty and wrapping
 * ranges, overlapping heaps) changes nothing; many regions in and out keep the table exact. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/suballoc_book.h"

typedef struct range {
    uint64_t base, end;
} range;

typedef struct table {
    range r[4096];
    size_t n;
} table;

static size_t upper(const table *t, uint64_t addr)
{
    size_t i = 0;
    while (i < t->n && t->r[i].base <= addr) {
        i++;
    }
    return i;
}

static void t_remove_at(table *t, size_t i)
{
    memmove(&t->r[i], &t->r[i + 1], (t->n - i - 1) * sizeof t->r[0]);
    t->n--;
}

static void t_insert(void *ctx, uint64_t base, uint64_t end)
{
    table *t = ctx;
    for (size_t i = 0; i < t->n;) {
        if (t->r[i].base < end && t->r[i].end > base) {
            t_remove_at(t, i);
        } else {
            i++;
        }
    }
    size_t at = upper(t, base);
    memmove(&t->r[at + 1], &t->r[at], (t->n - at) * sizeof t->r[0]);
    t->r[at].base = base;
    t->r[at].end = end;
    t->n++;
}

static void t_remove(void *ctx, uint64_t base)
{
    table *t = ctx;
    for (size_t i = 0; i < t->n; i++) {
        if (t->r[i].base == base) {
            t_remove_at(t, i);
            return;
        }
    }
}

static void t_take(void *ctx, uint64_t lo, uint64_t hi,
                   void (*each)(void *arg, uint64_t base, uint64_t end), void *arg)
{
    table *t = ctx;
    for (size_t i = 0; i < t->n;) {
        if (t->r[i].base < hi && t->r[i].end > lo) {
            each(arg, t->r[i].base, t->r[i].end);
            t_remove_at(t, i);
        } else {
            i++;
        }
    }
}

/* "base-end base-end ..." in hex, offsets from 0x1000 for short expectations */
static const char *show(const table *t)
{
    static char out[8192];
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < t->n && o < sizeof out - 64; i++) {
        o += (size_t)snprintf(out + o, sizeof out - o, "%s%" PRIx64 "-%" PRIx64, i ? " " : "",
                              t->r[i].base, t->r[i].end);
    }
    return out;
}

static uint64_t dropped[16];
static size_t ndropped;

static void on_dropped(void *arg, const cc_sa_heap *h)
{
    (void)arg;
    if (ndropped < 16) {
        dropped[ndropped++] = h->id;
    }
}

static void setup(cc_sa_book *b, table *t)
{
    memset(t, 0, sizeof *t);
    cc_sa_table ops = {t, t_insert, t_remove, t_take};
    cc_sa_book_init(b, &ops);
    b->heap_dropped = on_dropped;
    ndropped = 0;
}

/* The NVTX pool of tests/gpu/memcheck/mc_nvtx_pool.cu: 4 KiB, a 63-byte region at +16. */
static void check_pool_lifecycle(void)
{
    static table t;
    cc_sa_book b;
    setup(&b, &t);
    t_insert(&t, 0x1000, 0x2000); /* the pool */
    t_insert(&t, 0x3000, 0x3100); /* another allocation */
    uint64_t h = cc_sa_heap_register(&b, 1, 0x1000, 0x1000);
    CHECK(h != 0);
    CHECK_STR(show(&t), "3000-3100");
    CHECK(cc_sa_heap_at(&b, 0x1fff) != NULL && cc_sa_heap_at(&b, 0x1fff)->id == h);
    CHECK(cc_sa_heap_at(&b, 0x2000) == NULL);
    CHECK(cc_sa_region_register(&b, h, 0x1010, 63) == 0);
    CHECK_STR(show(&t), "1010-104f 3000-3100");
    uint64_t heap = 0, size = 0;
    CHECK(cc_sa_region_resize(&b, 0x1010, 64, &heap) == 0);
    CHECK_EQ_U64(heap, h);
    CHECK_STR(show(&t), "1010-1050 3000-3100");
    CHECK(cc_sa_region_unregister(&b, 0x1010, &heap, &size) == 0);
    CHECK_EQ_U64(size, 64);
    CHECK_EQ_U64(heap, h);
    CHECK_STR(show(&t), "3000-3100");
    CHECK(cc_sa_region_unregister(&b, 0x1010, &heap, &size) == -1); /* twice */
    CHECK(cc_sa_region_register(&b, h, 0x1010, 63) == 0);
    CHECK(cc_sa_region_register(&b, h, 0x1800, 0x100) == 0);
    CHECK_EQ_U64(cc_sa_region_count(&b), 2);
    CHECK_EQ_U64(cc_sa_heap_reset(&b, h), 2);
    CHECK_EQ_U64(cc_sa_region_count(&b), 0);
    CHECK_STR(show(&t), "3000-3100");
    CHECK(cc_sa_region_register(&b, h, 0x1010, 63) == 0);
    CHECK(cc_sa_heap_unregister(&b, h) == 0);
    CHECK_STR(show(&t), "1000-2000 3000-3100");
    CHECK_EQ_U64(cc_sa_region_count(&b), 0);
    CHECK(cc_sa_heap_find(&b, h) == NULL);
    CHECK(cc_sa_heap_unregister(&b, h) == -1);
    /* Registered again: a new id. */
    uint64_t h2 = cc_sa_heap_register(&b, 1, 0x1000, 0x1000);
    CHECK(h2 != 0 && h2 != h);
    CHECK_EQ_U64(ndropped, 0);
    cc_sa_book_free(&b);
}

static void check_bad_input(void)
{
    static table t;
    cc_sa_book b;
    setup(&b, &t);
    t_insert(&t, 0x1000, 0x2000);
    CHECK_EQ_U64(cc_sa_heap_register(&b, 1, 0x1000, 0), 0);
    CHECK_EQ_U64(cc_sa_heap_register(&b, 1, UINT64_MAX - 4, 16), 0);
    uint64_t h = cc_sa_heap_register(&b, 1, 0x1000, 0x800);
    CHECK(h != 0);
    CHECK_EQ_U64(cc_sa_heap_register(&b, 1, 0x17ff, 0x10), 0); /* overlaps h */
    CHECK_EQ_U64(cc_sa_heap_register(&b, 1, 0x800, 0x801), 0);
    CHECK_STR(show(&t), "1800-2000");
    CHECK(cc_sa_region_register(&b, h + 7, 0x1000, 16) == -1);     /* unknown heap */
    CHECK(cc_sa_region_register(&b, h, 0x17f0, 0x20) == -1);       /* leaves the heap */
    CHECK(cc_sa_region_register(&b, h, 0xff0, 0x20) == -1);        /* starts before it */
    CHECK(cc_sa_region_register(&b, h, 0x1000, 0) == -1);
    CHECK(cc_sa_region_register(&b, h, UINT64_MAX - 1, 8) == -1);
    CHECK_STR(show(&t), "1800-2000");
    uint64_t heap, size;
    CHECK(cc_sa_region_resize(&b, 0x1000, 8, &heap) == -1);        /* no region there */
    CHECK(cc_sa_region_register(&b, h, 0x1000, 16) == 0);
    CHECK(cc_sa_region_resize(&b, 0x1000, 0, &heap) == -1);
    CHECK(cc_sa_region_resize(&b, 0x1000, 0x801, &heap) == -1);    /* leaves the heap */
    CHECK(cc_sa_region_unregister(&b, 0x1001, &heap, &size) == -1);
    CHECK(cc_sa_heap_reset(&b, 12345) == -1);
    CHECK_STR(show(&t), "1000-1010 1800-2000");
    cc_sa_book_free(&b);
}

/* A heap over the middle of one allocation, and a second heap in the same allocation. */
static void check_partial_and_shared(void)
{
    static table t;
    cc_sa_book b;
    setup(&b, &t);
    t_insert(&t, 0x1000, 0x3000);
    uint64_t h1 = cc_sa_heap_register(&b, 1, 0x1400, 0x400);
    CHECK(h1 != 0);
    CHECK_STR(show(&t), "1000-1400 1800-3000");
    uint64_t h2 = cc_sa_heap_register(&b, 2, 0x2000, 0x800);
    CHECK(h2 != 0);
    CHECK_STR(show(&t), "1000-1400 1800-2000 2800-3000");
    CHECK(cc_sa_region_register(&b, h2, 0x2000, 0x10) == 0);
    CHECK(cc_sa_region_register(&b, h1, 0x1400, 0x10) == 0);
    CHECK_STR(show(&t), "1000-1400 1400-1410 1800-2000 2000-2010 2800-3000");
    CHECK(cc_sa_heap_unregister(&b, h1) == 0);
    CHECK_STR(show(&t), "1000-2000 2000-2010 2800-3000");
    CHECK(cc_sa_heap_unregister(&b, h2) == 0);
    CHECK_STR(show(&t), "1000-3000");
    /* Freeing the allocation with both heaps registered ends both, the allocation stays out
     * (the caller's remove finds nothing more to remove). */
    h1 = cc_sa_heap_register(&b, 1, 0x1400, 0x400);
    h2 = cc_sa_heap_register(&b, 2, 0x2000, 0x800);
    CHECK(cc_sa_region_register(&b, h2, 0x2100, 0x10) == 0);
    CHECK(cc_sa_table_removing(&b, 0x1400) == 0); /* not an allocation's base */
    CHECK(cc_sa_table_removing(&b, 0x1000) == 1);
    CHECK_STR(show(&t), "");
    CHECK_EQ_U64(ndropped, 2);
    CHECK(cc_sa_heap_find(&b, h1) == NULL && cc_sa_heap_find(&b, h2) == NULL);
    CHECK_EQ_U64(cc_sa_region_count(&b), 0);
    CHECK(cc_sa_table_removing(&b, 0x1000) == 0); /* the book forgot it */
    cc_sa_book_free(&b);
}

/* A heap spanning two allocations; one of them freed. */
static void check_heap_over_two_allocations(void)
{
    static table t;
    cc_sa_book b;
    setup(&b, &t);
    t_insert(&t, 0x1000, 0x2000);
    t_insert(&t, 0x2000, 0x3000);
    uint64_t h = cc_sa_heap_register(&b, 1, 0x1800, 0x1000);
    CHECK_STR(show(&t), "1000-1800 2800-3000");
    CHECK(cc_sa_region_register(&b, h, 0x1f00, 0x200) == 0);
    CHECK(cc_sa_table_removing(&b, 0x2000) == 1);
    CHECK_EQ_U64(ndropped, 1);
    CHECK_STR(show(&t), "1000-2000"); /* the other allocation is whole again */
    cc_sa_book_free(&b);
}

/* Allocations the table adds while heaps are registered, and reservations. */
static void check_adds_while_registered(void)
{
    static table t;
    cc_sa_book b;
    setup(&b, &t);
    CHECK(cc_sa_table_adding(&b, 0x1000, 0x2000, 0) == 0); /* no heap: the table adds it */
    uint64_t h = cc_sa_heap_register(&b, 1, 0x1000, 0x1000); /* nothing in the table yet */
    CHECK(h != 0);
    CHECK(cc_sa_region_register(&b, h, 0x1100, 0x10) == 0);
    /* the pool allocated after the registration: hidden, the region stays */
    CHECK(cc_sa_table_adding(&b, 0x1000, 0x2000, 0) == 1);
    CHECK_STR(show(&t), "1100-1110");
    CHECK(cc_sa_table_adding(&b, 0x0, 0x4000, 1) == 1);     /* reservation over it: out */
    CHECK(cc_sa_table_adding(&b, 0x5000, 0x6000, 0) == 0);  /* elsewhere: the table's */
    CHECK(cc_sa_table_removing(&b, 0x1000) == 1);           /* freed: the heap ends */
    CHECK_EQ_U64(ndropped, 1);
    CHECK_STR(show(&t), "");
    h = cc_sa_heap_register(&b, 1, 0x1000, 0x1000);
    CHECK(cc_sa_region_register(&b, h, 0x1100, 0x10) == 0);
    /* an allocation partly over the heap ends it; the table then adds the allocation */
    CHECK(cc_sa_table_adding(&b, 0x1800, 0x2800, 0) == 0);
    CHECK_EQ_U64(ndropped, 2);
    CHECK(cc_sa_heap_find(&b, h) == NULL);
    CHECK_STR(show(&t), "");
    cc_sa_book_free(&b);
}

/* Regions that overlap: a registration over older regions replaces them; a resize that grows
 * over a neighbour ends it; shrinking frees the tail. */
static void check_overlapping_regions(void)
{
    static table t;
    cc_sa_book b;
    setup(&b, &t);
    t_insert(&t, 0x1000, 0x2000);
    uint64_t h = cc_sa_heap_register(&b, 2, 0x1000, 0x1000);
    CHECK(cc_sa_region_register(&b, h, 0x1000, 0x100) == 0);
    CHECK(cc_sa_region_register(&b, h, 0x1100, 0x100) == 0);
    CHECK(cc_sa_region_register(&b, h, 0x1080, 0x100) == 0); /* over both */
    CHECK_STR(show(&t), "1080-1180");
    CHECK_EQ_U64(cc_sa_region_count(&b), 1);
    CHECK(cc_sa_region_register(&b, h, 0x1200, 0x100) == 0);
    uint64_t heap;
    CHECK(cc_sa_region_resize(&b, 0x1080, 0x200, &heap) == 0);
    CHECK_STR(show(&t), "1080-1280");
    CHECK_EQ_U64(cc_sa_region_count(&b), 1);
    CHECK(cc_sa_region_resize(&b, 0x1080, 0x8, &heap) == 0);
    CHECK_STR(show(&t), "1080-1088");
    cc_sa_book_free(&b);
}

/* Many regions in and out (the caching allocator's pattern): the table holds exactly the live
 * ones, and a steady state allocates nothing more in the book. */
static void check_churn(void)
{
    static table t;
    cc_sa_book b;
    setup(&b, &t);
    t_insert(&t, 0x100000, 0x200000);
    uint64_t h = cc_sa_heap_register(&b, 2, 0x100000, 0x100000);
    unsigned seed = 12345;
    static int live[2048];
    memset(live, 0, sizeof live);
    size_t cap_after_warmup = 0;
    for (int round = 0; round < 60000; round++) {
        seed = seed * 1103515245u + 12345u;
        unsigned k = (seed >> 8) % 2048;
        uint64_t base = 0x100000 + (uint64_t)k * 512;
        uint64_t heap, size;
        if (live[k]) {
            CHECK(cc_sa_region_unregister(&b, base, &heap, &size) == 0);
            CHECK_EQ_U64(size, 256);
            live[k] = 0;
        } else {
            CHECK(cc_sa_region_register(&b, h, base, 256) == 0);
            live[k] = 1;
        }
        if (round == 20000) {
            cap_after_warmup = b.regions.cap;
        }
    }
    size_t n = 0;
    for (int k = 0; k < 2048; k++) {
        n += (size_t)live[k];
    }
    CHECK_EQ_U64(t.n, n);
    CHECK_EQ_U64(cc_sa_region_count(&b), n);
    CHECK_EQ_U64(b.regions.cap, cap_after_warmup);
    for (size_t i = 0; i < t.n; i++) {
        CHECK(live[(t.r[i].base - 0x100000) / 512] && t.r[i].end == t.r[i].base + 256);
    }
    CHECK(cc_sa_heap_unregister(&b, h) == 0);
    CHECK_STR(show(&t), "100000-200000");
    cc_sa_book_free(&b);
}

int main(void)
{
    check_pool_lifecycle();
    check_bad_input();
    check_partial_and_shared();
    check_heap_over_two_allocations();
    check_adds_while_registered();
    check_overlapping_regions();
    check_churn();
    TEST_MAIN_END();
}
