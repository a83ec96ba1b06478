/* Holds on the allocation map (allocmap.h, cc_allocmap_hold): a held moment keeps the freed
 * records it needs after they leave the plain history ring. A record is needed by a hold when
 * it was made by the held moment (seq <= clock) and was still in the history then (freed after
 * the oldest record the ring held at that moment): live then, or freed shortly before. Holds are
 * sorted by clock and their history_from grows with the clock, so the first hold at or after a
 * record's seq decides. Kept records are swept when holds are released, at a cost amortized over
 * the releases. */
#include <stdlib.h>
#include <string.h>
#include "core/allocmap_internal.h"

/* The first hold with clock >= at (nholds if none). */
static size_t first_hold_from(const cc_allocmap *m, uint64_t at)
{
    size_t lo = 0, hi = m->nholds;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->holds[mid].clock < at) {
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
    return i < m->nholds && m->holds[i].history_from <= r->free_seq;
}

void cc_allocmap_evicting(cc_allocmap *m, const cc_alloc_rec *r)
{
    if (m->nholds == 0 || !needed(m, r)) {
        return;
    }
    if (m->nkept == m->kept_cap) {
        size_t cap = m->kept_cap ? m->kept_cap * 2 : 256;
        cc_alloc_rec *k = realloc(m->kept, cap * sizeof *k);
        if (k == NULL) {
            return; /* out of memory: the record goes, as it would without the hold */
        }
        m->kept = k;
        m->kept_cap = cap;
    }
    m->kept[m->nkept++] = *r;
}

int cc_allocmap_hold(cc_allocmap *m, uint64_t *clock)
{
    *clock = m->clock;
    if (m->nholds > 0 && m->holds[m->nholds - 1].clock == m->clock) {
        m->holds[m->nholds - 1].refs++;
        return 0;
    }
    if (m->nholds == m->holds_cap) {
        size_t cap = m->holds_cap ? m->holds_cap * 2 : 64;
        cc_allocmap_held *h = realloc(m->holds, cap * sizeof *h);
        if (h == NULL) {
            return -1;
        }
        m->holds = h;
        m->holds_cap = cap;
    }
    cc_allocmap_held *h = &m->holds[m->nholds++];
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
    if (i == m->nholds || m->holds[i].clock != clock) {
        return;
    }
    if (--m->holds[i].refs == 0) {
        memmove(&m->holds[i], &m->holds[i + 1], (m->nholds - i - 1) * sizeof m->holds[0]);
        m->nholds--;
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
    m->nkept = m->kept_cap = m->nholds = m->holds_cap = 0;
}
