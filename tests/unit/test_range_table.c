/* The sorted range table with tombstones (core/range_table.h): a freed range re-added at the
 * same base takes its tombstone's place (no entry added); lookups never find a tombstone; an
 * insert drops the live ranges and tombstones it covers, a weak one changes nothing on overlap;
 * take reports only live ranges; compaction leaves the live ranges; and 200,000 random
 * operations agree with a plain sorted array after every step (live ranges, lookups, no
 * tombstone inside a live range, the table bounded by the compaction rule). */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/range_table.h"

/* The reference: live ranges only, sorted, the behaviour the agent's table always had. */
typedef struct ref {
    cc_range r[4096];
    size_t n;
} ref;

static void ref_remove_at(ref *m, size_t i)
{
    memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof m->r[0]);
    m->n--;
}

static void ref_insert(ref *m, uint64_t base, uint64_t end, int weak)
{
    if (end <= base) {
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        if (weak && m->r[i].base < end && m->r[i].end > base) {
            return;
        }
    }
    for (size_t i = 0; i < m->n;) {
        if (m->r[i].base < end && m->r[i].end > base) {
            ref_remove_at(m, i);
        } else {
            i++;
        }
    }
    size_t at = 0;
    while (at < m->n && m->r[at].base <= base) {
        at++;
    }
    memmove(&m->r[at + 1], &m->r[at], (m->n - at) * sizeof m->r[0]);
    m->r[at].base = base;
    m->r[at].end = end;
    m->n++;
}

static void ref_erase(ref *m, uint64_t base)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->r[i].base == base) {
            ref_remove_at(m, i);
            return;
        }
    }
}

static size_t ref_taken;
static void count_taken(void *arg, uint64_t base, uint64_t end)
{
    ref *m = arg;
    int found = 0;
    for (size_t i = 0; i < m->n; i++) {
        found |= m->r[i].base == base && m->r[i].end == end;
    }
    CHECK(found);
    ref_taken++;
}

static void ref_take(ref *m, uint64_t lo, uint64_t hi, size_t *count)
{
    *count = 0;
    for (size_t i = 0; i < m->n;) {
        if (m->r[i].base < hi && m->r[i].end > lo) {
            ref_remove_at(m, i);
            (*count)++;
        } else {
            i++;
        }
    }
}

static const cc_range *ref_find(const ref *m, uint64_t addr)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->r[i].base <= addr && addr < m->r[i].end) {
            return &m->r[i];
        }
    }
    return NULL;
}

/* The table's live ranges equal the reference's; no tombstone lies inside a live range. */
static int agrees(const cc_range_table *t, const ref *m)
{
    size_t k = 0, tombs = 0;
    uint64_t live_end = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (i > 0 && t->r[i].base < t->r[i - 1].base) {
            return 0; /* unsorted */
        }
        if (t->r[i].end == t->r[i].base) {
            tombs++;
            if (t->r[i].base < live_end) {
                return 0; /* a tombstone inside a live range */
            }
            continue;
        }
        if (k >= m->n || t->r[i].base != m->r[k].base || t->r[i].end != m->r[k].end) {
            return 0;
        }
        live_end = t->r[i].end;
        k++;
    }
    return k == m->n && tombs == t->ntomb;
}

static void check_revive_in_place(void)
{
    cc_range_table t = {0};
    cc_range_table_insert(&t, 0x1000, 0x2000, 0);
    cc_range_table_insert(&t, 0x3000, 0x3800, 0);
    cc_range_table_insert(&t, 0x5000, 0x6000, 0);
    uint64_t v = t.version;
    cc_range_table_erase(&t, 0x3000);
    CHECK_EQ_U64(t.n, 3);
    CHECK_EQ_U64(t.ntomb, 1);
    CHECK(t.version != v);
    CHECK(cc_range_table_find(&t, 0x3000) == NULL);
    CHECK(cc_range_table_find(&t, 0x3100) == NULL);
    CHECK(cc_range_table_find(&t, 0x1fff) != NULL);
    cc_range_table_erase(&t, 0x3000); /* again: nothing */
    CHECK_EQ_U64(t.ntomb, 1);
    /* Re-added at the same base, larger: in place. */
    cc_range_table_insert(&t, 0x3000, 0x4000, 0);
    CHECK_EQ_U64(t.n, 3);
    CHECK_EQ_U64(t.ntomb, 0);
    const cc_range *r = cc_range_table_find(&t, 0x3fff);
    CHECK(r != NULL && r->base == 0x3000 && r->end == 0x4000);
    /* Too large for the gap: the live neighbour it overlaps goes, like any missed removal. */
    cc_range_table_erase(&t, 0x3000);
    cc_range_table_insert(&t, 0x3000, 0x5800, 0);
    CHECK(cc_range_table_find(&t, 0x5900) == NULL);
    r = cc_range_table_find(&t, 0x5000);
    CHECK(r != NULL && r->base == 0x3000 && r->end == 0x5800);
    CHECK_EQ_U64(t.ntomb, 0);
    CHECK_EQ_U64(t.n, 2);
    cc_range_table_free(&t);
}

static void check_weak_and_take(void)
{
    cc_range_table t = {0};
    cc_range_table_insert(&t, 0x1000, 0x2000, 0);
    cc_range_table_insert(&t, 0x2000, 0x3000, 0);
    cc_range_table_erase(&t, 0x2000);
    cc_range_table_insert(&t, 0x1800, 0x2800, 1); /* overlaps a live range: refused */
    CHECK(cc_range_table_find(&t, 0x2400) == NULL);
    cc_range_table_insert(&t, 0x2000, 0x2800, 1); /* over its tombstone only: taken */
    CHECK(cc_range_table_find(&t, 0x2400) != NULL);
    cc_range_table_erase(&t, 0x2000);
    cc_range_table_insert(&t, 0x2400, 0x2c00, 0); /* past a tombstone: the tombstone stays */
    ref m = {.n = 0};
    ref_insert(&m, 0x1000, 0x2000, 0);
    ref_insert(&m, 0x2400, 0x2c00, 0);
    CHECK(agrees(&t, &m));
    ref_taken = 0;
    cc_range_table_take(&t, 0x1800, 0x2500, count_taken, &m);
    CHECK_EQ_U64(ref_taken, 2);
    CHECK_EQ_U64(t.n, 0);
    CHECK_EQ_U64(t.ntomb, 0);
    cc_range_table_insert(&t, 0x10, 0x10, 0); /* empty: nothing */
    CHECK_EQ_U64(t.n, 0);
    cc_range_table_free(&t);
}

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rnd(uint64_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state % n;
}

static void check_random_against_reference(void)
{
    static ref m;
    cc_range_table t = {0};
    m.n = 0;
    uint64_t slots[512];
    for (int i = 0; i < 512; i++) {
        slots[i] = 0x100000 + (uint64_t)i * 0x1000; /* block bases reused, as a cache does */
    }
    int ok = 1;
    size_t most = 0;
    for (int step = 0; step < 200000 && ok; step++) {
        uint64_t base = rnd(4) ? slots[rnd(512)] : 0x100000 + rnd(512 * 0x1000);
        uint64_t size = rnd(3) ? 0x400 + rnd(0xc00) : rnd(0x4000);
        int op = (int)rnd(10);
        if (op < 5) {
            int weak = rnd(4) == 0;
            cc_range_table_insert(&t, base, base + size, weak);
            ref_insert(&m, base, base + size, weak);
        } else if (op < 9) {
            uint64_t at = rnd(2) && m.n > 0 ? m.r[rnd(m.n)].base : base;
            cc_range_table_erase(&t, at);
            ref_erase(&m, at);
        } else if (rnd(20) == 0) {
            size_t expect = 0;
            ref_taken = 0;
            ref copy = m;
            cc_range_table_take(&t, base, base + size, count_taken, &copy);
            ref_take(&m, base, base + size, &expect);
            ok &= ref_taken == expect;
        } else if (rnd(50) == 0) {
            cc_range_table_compact(&t);
            ok &= t.ntomb == 0;
        }
        for (int q = 0; q < 4; q++) {
            uint64_t a = 0x100000 + rnd(514 * 0x1000);
            const cc_range *x = cc_range_table_find(&t, a), *y = ref_find(&m, a);
            ok &= (x == NULL) == (y == NULL) &&
                  (x == NULL || (x->base == y->base && x->end == y->end));
        }
        ok &= agrees(&t, &m);
        most = t.n > most ? t.n : most;
    }
    CHECK(ok);
    /* Tombstones are bounded: never more than the slack plus the live ranges. */
    CHECK(most <= 256 + 2 * 512 + 1);
    cc_range_table_free(&t);
}

int main(void)
{
    check_revive_in_place();
    check_weak_and_take();
    check_random_against_reference();
    return cc_test_failures != 0;
}
