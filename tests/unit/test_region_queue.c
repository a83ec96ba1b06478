/* The queue of region changes (core/region_queue.h): an unregistration cancels its waiting
 * registration and nothing of the pair is applied; an unregistration of a region applied before
 * passes through; a second registration at a waiting base cancels the first; changes come out
 * in order; the full signal comes at max live changes; cancelled pairs never fill it; and
 * 100,000 random changes of a caching-allocator-like program (blocks at fixed slots, allocated,
 * freed and allocated again), drained at random points, leave the same regions as applying every
 * change at once. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/region_queue.h"

#define SLOTS 512

/* The reference book: a region per slot base (size 0: none), ended by a registration that
 * overlaps it, as the agent's book does. */
typedef struct book {
    uint64_t size[SLOTS];
    uint64_t heap[SLOTS];
    unsigned applied;
} book;

static void book_apply(void *arg, const cc_region_change *c)
{
    book *b = arg;
    size_t slot = (size_t)(c->base / 256);
    b->applied++;
    if (c->size == 0) {
        b->size[slot] = 0;
        b->heap[slot] = 0;
        return;
    }
    b->size[slot] = c->size;
    b->heap[slot] = c->heap;
}

typedef struct log {
    cc_region_change c[16];
    int n;
} log_t;

static void log_apply(void *arg, const cc_region_change *c)
{
    log_t *l = arg;
    if (l->n < 16) {
        l->c[l->n++] = *c;
    }
}

static void test_cases(void)
{
    cc_region_queue q;
    cc_region_queue_init(&q, 4);
    log_t l = {.n = 0};

    /* a pair cancels; an unregistration of an applied region passes through */
    CHECK(cc_region_queue_register(&q, 7, 0x1000, 64) == 0);
    CHECK(cc_region_queue_unregister(&q, 7, 0x1000) == 0);
    CHECK(cc_region_queue_unregister(&q, 7, 0x2000) == 0);
    CHECK(q.cancelled == 1);
    cc_region_queue_drain(&q, log_apply, &l);
    CHECK(l.n == 1 && l.c[0].base == 0x2000 && l.c[0].size == 0 && l.c[0].heap == 7);
    CHECK(cc_region_queue_count(&q) == 0);

    /* after a drain, a registration is no longer waiting: its unregistration is queued */
    l.n = 0;
    CHECK(cc_region_queue_register(&q, 7, 0x3000, 32) == 0);
    cc_region_queue_drain(&q, log_apply, &l);
    CHECK(cc_region_queue_unregister(&q, 7, 0x3000) == 0);
    cc_region_queue_drain(&q, log_apply, &l);
    CHECK(l.n == 2 && l.c[0].size == 32 && l.c[1].base == 0x3000 && l.c[1].size == 0);

    /* a second registration at a waiting base cancels the first; order is kept */
    l.n = 0;
    CHECK(cc_region_queue_register(&q, 7, 0x4000, 16) == 0);
    CHECK(cc_region_queue_register(&q, 8, 0x5000, 16) == 0);
    CHECK(cc_region_queue_register(&q, 7, 0x4000, 48) == 0);
    CHECK(cc_region_queue_register(&q, 8, 0x6000, 16) == 0); /* the cancelled one is no change */
    CHECK(cc_region_queue_count(&q) == 3);
    CHECK(cc_region_queue_register(&q, 8, 0x7000, 16) == 1); /* the fourth live one: full */
    cc_region_queue_drain(&q, log_apply, &l);
    CHECK(l.n == 4);
    CHECK(l.c[0].base == 0x5000 && l.c[1].base == 0x4000 && l.c[1].size == 48 &&
          l.c[2].base == 0x6000 && l.c[3].base == 0x7000);

    /* the unregistration after a double registration leaves nothing */
    l.n = 0;
    CHECK(cc_region_queue_register(&q, 7, 0x4000, 16) == 0);
    CHECK(cc_region_queue_register(&q, 7, 0x4000, 48) == 0);
    CHECK(cc_region_queue_unregister(&q, 7, 0x4000) == 0);
    cc_region_queue_drain(&q, log_apply, &l);
    CHECK(l.n == 0);
    cc_region_queue_free(&q);
    CHECK(q.ch == NULL && q.max == 4);
}

/* Short-lived blocks never fill the queue: their holes are squeezed out, and the index of the
 * registrations still waiting is rebuilt, so a later free still cancels its allocation. */
static void test_squeeze(void)
{
    cc_region_queue q;
    cc_region_queue_init(&q, 5);
    log_t l = {.n = 0};
    CHECK(cc_region_queue_register(&q, 1, 0xA000, 8) == 0);
    CHECK(cc_region_queue_unregister(&q, 1, 0xC000) == 0); /* applied earlier: passes through */
    CHECK(cc_region_queue_register(&q, 1, 0xB000, 8) == 0);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t base = 0x100000 + i * 0x100;
        CHECK(cc_region_queue_register(&q, 2, base, 64) == 0);
        CHECK(cc_region_queue_unregister(&q, 2, base) == 0);
        CHECK(cc_region_queue_count(&q) == 3);
        if (i == 500) { /* the full signal stays exact between squeezes */
            CHECK(cc_region_queue_register(&q, 3, 0xD000, 8) == 0);
            CHECK(cc_region_queue_register(&q, 3, 0xE000, 8) == 1);
            CHECK(cc_region_queue_unregister(&q, 3, 0xD000) == 0);
            CHECK(cc_region_queue_unregister(&q, 3, 0xE000) == 0);
        }
    }
    CHECK(q.n <= 20 && q.cap <= 21); /* squeezed, not grown */
    CHECK(cc_region_queue_unregister(&q, 1, 0xA000) == 0);  /* still cancels after squeezes */
    CHECK(cc_region_queue_register(&q, 1, 0xB000, 24) == 0); /* and replaces */
    CHECK(cc_region_queue_count(&q) == 2);
    CHECK(q.cancelled == 1003);
    cc_region_queue_drain(&q, log_apply, &l);
    CHECK(l.n == 2);
    CHECK(l.c[0].base == 0xC000 && l.c[0].size == 0);
    CHECK(l.c[1].base == 0xB000 && l.c[1].size == 24);
    cc_region_queue_free(&q);
}

static void test_random(void)
{
    static book direct, queued;
    memset(&direct, 0, sizeof direct);
    memset(&queued, 0, sizeof queued);
    cc_region_queue q;
    cc_region_queue_init(&q, 64);
    srand(12345);
    int live[SLOTS] = {0};
    size_t recent[8] = {0};
    unsigned nrecent = 0;
    unsigned full = 0;
    for (int step = 0; step < 100000; step++) {
        /* mostly a block allocated lately (a step's short-lived tensors), else any */
        size_t slot = rand() % 4 != 0 ? recent[rand() % 8] : (size_t)rand() % SLOTS;
        uint64_t base = (uint64_t)slot * 256;
        uint64_t heap = 1 + slot / 64;
        cc_region_change c = {heap, base, 0};
        int rc;
        if (!live[slot] || rand() % 16 == 0) {
            if (live[slot]) { /* a block whose free was missed: unregistered first */
                cc_region_change u = {heap, base, 0};
                CHECK(cc_region_queue_unregister(&q, heap, base) >= 0);
                book_apply(&direct, &u);
                if (cc_region_queue_count(&q) == 64) {
                    cc_region_queue_drain(&q, book_apply, &queued);
                }
            }
            c.size = 1 + (uint64_t)(rand() % 256);
            rc = cc_region_queue_register(&q, heap, base, c.size);
            live[slot] = 1;
            recent[nrecent++ % 8] = slot;
        } else {
            rc = cc_region_queue_unregister(&q, heap, base);
            live[slot] = 0;
        }
        book_apply(&direct, &c);
        CHECK(rc == 0 || rc == 1);
        if (rc == 1) {
            full++;
            CHECK(cc_region_queue_count(&q) == 64);
        }
        if (rc == 1 || rand() % 400 == 0) {
            cc_region_queue_drain(&q, book_apply, &queued);
        }
    }
    cc_region_queue_drain(&q, book_apply, &queued);
    CHECK(memcmp(direct.size, queued.size, sizeof direct.size) == 0);
    CHECK(memcmp(direct.heap, queued.heap, sizeof direct.heap) == 0);
    CHECK(full > 0);
    CHECK(q.cancelled > 0);
    CHECK(queued.applied < direct.applied / 2); /* most pairs never reach the book */
    cc_region_queue_free(&q);
}

int main(void)
{
    test_cases();
    test_squeeze();
    test_random();
    return cc_test_failures != 0;
}
