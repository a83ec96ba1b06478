/* Holds on the allocation map (allocmap.h, cc_allocmap_hold): a held moment keeps the freed
 * records it needs after they leave the plain history ring. A record is needed by a hold when
 * it was made by the held moment (seq <= clock) and was still in the history then (freed after
 * the oldest record the ring held at that moment): live then, or freed shortly before. Holds are
 * sorted by clock and their history_from grows with the clock, so the first hold at or after a
 * record's seq decides. Releasing the oldest hold (the usual order) costs O(log n); kept records
 * are swept when holds are released, at a cost amortized over the releases. */
#include <stdlib.h>
#include <string.h>
#include "core/allocmap_internal.h"
#include "core/grow.h"

static cc_allocmap_held *hold_at(const cc_allocmap *m, size_t i)
{
    return &m->holds[m->holds_first + i];
}

/* The first hold (index from the oldest) with clock >= at; nholds if none. */
static size_t first_hold_from(const cc_allocmap *m, uint64_t at)
{
    size_t lo = 0, hi = m->nholds;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (hold_at(m, mid)->clock < at) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static int needed(const cc_allocmap *m, const cc_alloc_rec *r)
{
    size_t i = first_hold_from(m, r->seq);
    return i < m->nholds && hold_at(m, i)->history_from <= r->free_seq;
}

void cc_allocmap_evicting(cc_allocmap *m, const cc_alloc_rec *r)
{
    if (m->nholds == 0 || !needed(m, r)) {
        return;
    }
    cc_alloc_rec *k = CC_ARRAY_PUSH(m->kept, m->nkept, m->kept_cap);
    if (k == NULL) {
        return; /* out of memory: the record goes, as it would without the hold */
    }
    *k = *r;
}

/* Room for one more hold at the end: the released front is reused before the array grows. */
static int hold_room(cc_allocmap *m)
{
    if (m->holds_first + m->nholds < m->holds_cap) {
        return 0;
    }
    if (m->holds_first > 0 && m->holds_first >= m->nholds) {
        memmove(m->holds, hold_at(m, 0), m->nholds * sizeof *m->holds);
        m->holds_first = 0;
        return 0;
    }
    return CC_ARRAY_RESERVE(m->holds, m->holds_cap, m->holds_first + m->nholds + 1);
}

int cc_allocmap_hold(cc_allocmap *m, uint64_t *clock)
{
    *clock = m->clock;
    if (m->nholds > 0 && hold_at(m, m->nholds - 1)->clock == m->clock) {
        hold_at(m, m->nholds - 1)->refs++;
        return 0;
    }
    if (hold_room(m) != 0) {
        return -1;
    }
    cc_allocmap_held *h = hold_at(m, m->nholds++);
    h->clock = m->clock;
    /* The ring's oldest record, once the ring is full; every free so far before that. */
    h->history_from = m->nfreed == CC_ALLOCMAP_FREED_HISTORY ? m->freed[m->freed_next].free_seq
                                                             : 0;
    h->refs = 1;
    return 0;
}

static void sweep_kept(cc_allocmap *m)
{
    size_t w = 0;
    for (size_t r = 0; r < m->nkept; r++) {
        if (m->nholds > 0 && needed(m, &m->kept[r])) {
            m->kept[w++] = m->kept[r];
        }
    }
    m->nkept = w;
    m->releases_since_sweep = 0;
}

void cc_allocmap_release(cc_allocmap *m, uint64_t clock)
{
    size_t i = first_hold_from(m, clock);
    if (i == m->nholds || hold_at(m, i)->clock != clock) {
        return;
    }
    if (--hold_at(m, i)->refs == 0) {
        if (i == 0) {
            m->holds_first++;
        } else {
            memmove(hold_at(m, i), hold_at(m, i + 1), (m->nholds - i - 1) * sizeof *m->holds);
        }
        if (--m->nholds == 0) {
            m->holds_first = 0;
        }
    }
    /* A sweep walks every kept record: one after every nkept/64 releases costs each release 64. */
    if (m->nkept > 0 && (m->nholds == 0 || ++m->releases_since_sweep * 64 >= m->nkept)) {
        sweep_kept(m);
    }
}

size_t cc_allocmap_kept_count(const cc_allocmap *m)
{
    return m->nkept;
}

size_t cc_allocmap_hold_count(const cc_allocmap *m)
{
    return m->nholds;
}

void cc_allocmap_holds_free(cc_allocmap *m)
{
    free(m->kept);
    free(m->holds);
    m->kept = NULL;
    m->holds = NULL;
    m->nkept = m->kept_cap = m->holds_first = m->nholds = m->holds_cap = 0;
}
