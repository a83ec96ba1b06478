/* The sub-allocators' book (suballoc_book.h): heaps sorted by base, the table ranges they hide
 * (an allocation a heap overlaps, wholly or partly) and the live regions by base. An allocation
 * a heap hides is out of the table; its parts outside every heap ("gaps") are in it, recomputed
 * from the heaps whenever a heap that overlaps it comes or goes. Inside a heap's span the table
 * holds the heap's regions and nothing else, so taking the span's ranges out of the table is
 * how a reset or an unregistration finds them. */
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "core/suballoc_book.h"
#include "core/sorted_search.h"

void cc_sa_book_init(cc_sa_book *b, const cc_sa_table *t)
{
    memset(b, 0, sizeof *b);
    b->t = *t;
}

void cc_sa_book_free(cc_sa_book *b)
{
    free(b->heaps);
    free(b->hidden);
    cc_hashmap_free(&b->heap_ids);
    cc_hashmap_free(&b->hidden_bases);
    cc_hashmap_free(&b->regions);
    b->heaps = NULL;
    b->hidden = NULL;
    b->nheaps = b->heaps_cap = b->nhidden = b->hidden_cap = 0;
}

/* The first heap with a base above addr. */
static size_t heap_upper(const cc_sa_book *b, uint64_t addr)
{
    return CC_SORTED_UPPER(b->heaps, b->nheaps, cc_sa_heap, base, addr);
}

/* The first heap that may overlap [lo, ...): the one holding lo, else the next. */
static size_t heap_first_from(const cc_sa_book *b, uint64_t lo)
{
    size_t i = heap_upper(b, lo);
    return i > 0 && b->heaps[i - 1].end > lo ? i - 1 : i;
}

const cc_sa_heap *cc_sa_heap_at(const cc_sa_book *b, uint64_t addr)
{
    size_t i = heap_upper(b, addr);
    return i > 0 && addr < b->heaps[i - 1].end ? &b->heaps[i - 1] : NULL;
}

const cc_sa_heap *cc_sa_heap_find(const cc_sa_book *b, uint64_t id)
{
    const uint64_t *base = cc_hashmap_get(&b->heap_ids, id);
    if (base == NULL) {
        return NULL;
    }
    const cc_sa_heap *h = cc_sa_heap_at(b, *base);
    return h != NULL && h->id == id ? h : NULL;
}

static int overlaps_heap(const cc_sa_book *b, uint64_t lo, uint64_t hi)
{
    size_t i = heap_first_from(b, lo);
    return i < b->nheaps && b->heaps[i].base < hi;
}

/* The parts of [lo, hi) outside every heap, to the table (insert 1) or out of it (0). */
static void gaps(cc_sa_book *b, uint64_t lo, uint64_t hi, int insert)
{
    uint64_t cur = lo;
    for (size_t i = heap_first_from(b, lo); i < b->nheaps && b->heaps[i].base < hi; i++) {
        if (b->heaps[i].base > cur) {
            if (insert) {
                b->t.insert(b->t.ctx, cur, b->heaps[i].base);
            } else {
                b->t.remove(b->t.ctx, cur);
            }
        }
        if (b->heaps[i].end > cur) {
            cur = b->heaps[i].end;
        }
    }
    if (cur < hi) {
        if (insert) {
            b->t.insert(b->t.ctx, cur, hi);
        } else {
            b->t.remove(b->t.ctx, cur);
        }
    }
}

static int hidden_add(cc_sa_book *b, uint64_t base, uint64_t end)
{
    for (size_t i = 0; i < b->nhidden; i++) {
        if (b->hidden[i].base == base) {
            b->hidden[i].end = end > b->hidden[i].end ? end : b->hidden[i].end;
            return 0;
        }
    }
    if (CC_ARRAY_RESERVE(b->hidden, b->hidden_cap, b->nhidden + 1) ||
        cc_hashmap_put(&b->hidden_bases, base, 1) != 0) {
        return -1;
    }
    b->hidden[b->nhidden].base = base;
    b->hidden[b->nhidden].end = end;
    b->nhidden++;
    return 0;
}

static void hidden_remove_at(cc_sa_book *b, size_t i)
{
    cc_hashmap_remove(&b->hidden_bases, b->hidden[i].base, NULL);
    b->hidden[i] = b->hidden[--b->nhidden];
}

/* ---- heap registration ---- */

#define SA_TAKEN_MAX 64 /* table ranges one registration re-places without memory of its own */

typedef struct sa_taken {
    cc_sa_book *b;
    uint64_t lo, hi;                 /* the hull of what was taken */
    uint64_t lost[SA_TAKEN_MAX][2];  /* ranges that could not be recorded: put back */
    size_t nlost;
} sa_taken;

static void took_range(void *arg, uint64_t base, uint64_t end)
{
    sa_taken *k = arg;
    cc_sa_book *b = k->b;
    k->lo = base < k->lo ? base : k->lo;
    k->hi = end > k->hi ? end : k->hi;
    for (size_t i = 0; i < b->nhidden; i++) {
        if (base >= b->hidden[i].base && end <= b->hidden[i].end) {
            return; /* a gap of an allocation hidden already: recomputed below */
        }
    }
    if (hidden_add(b, base, end) != 0 && k->nlost < SA_TAKEN_MAX) {
        k->lost[k->nlost][0] = base;
        k->lost[k->nlost][1] = end;
        k->nlost++;
    }
}

uint64_t cc_sa_heap_register(cc_sa_book *b, uint32_t source, uint64_t base, uint64_t size)
{
    uint64_t end = base + size;
    if (size == 0 || end < base || overlaps_heap(b, base, end) ||
        CC_ARRAY_RESERVE(b->heaps, b->heaps_cap, b->nheaps + 1) ||
        cc_hashmap_reserve(&b->heap_ids, b->heap_ids.count + 1) != 0) {
        return 0;
    }
    uint64_t id = ++b->next_id;
    sa_taken k = {b, base, end, {{0}}, 0};
    b->t.take(b->t.ctx, base, end, took_range, &k);
    size_t at = heap_upper(b, base);
    memmove(&b->heaps[at + 1], &b->heaps[at], (b->nheaps - at) * sizeof b->heaps[0]);
    cc_sa_heap *h = &b->heaps[at];
    memset(h, 0, sizeof *h);
    h->id = id;
    h->base = base;
    h->end = end;
    h->source = source;
    b->nheaps++;
    cc_hashmap_put(&b->heap_ids, id, base); /* room reserved above */
    /* The hidden allocations' parts outside every heap go back (only those in the hull: the
     * rest of the table was not touched). */
    for (size_t i = 0; i < b->nhidden; i++) {
        const cc_sa_hidden *o = &b->hidden[i];
        if (o->base < k.hi && o->end > k.lo) {
            uint64_t lo = o->base > k.lo ? o->base : k.lo;
            uint64_t hi = o->end < k.hi ? o->end : k.hi;
            gaps(b, lo, hi, 1);
        }
    }
    for (size_t i = 0; i < k.nlost; i++) {
        gaps(b, k.lost[i][0], k.lost[i][1], 1);
    }
    return id;
}

/* ---- regions ---- */

typedef struct sa_forget {
    cc_sa_book *b;
    long count;
} sa_forget;

static void forget_region(void *arg, uint64_t base, uint64_t end)
{
    (void)end;
    sa_forget *f = arg;
    if (cc_hashmap_remove(&f->b->regions, base, NULL)) {
        f->count++;
    }
}

static long regions_take(cc_sa_book *b, uint64_t lo, uint64_t hi)
{
    sa_forget f = {b, 0};
    b->t.take(b->t.ctx, lo, hi, forget_region, &f);
    return f.count;
}

int cc_sa_region_register(cc_sa_book *b, uint64_t id, uint64_t base, uint64_t size)
{
    const cc_sa_heap *h = cc_sa_heap_find(b, id);
    uint64_t end = base + size;
    if (h == NULL || size == 0 || end < base || base < h->base || end > h->end) {
        return -1;
    }
    if (cc_hashmap_reserve(&b->regions, b->regions.count + 1) != 0) {
        return -1;
    }
    regions_take(b, base, end); /* regions it overlaps (unregistered without a call) */
    cc_hashmap_put(&b->regions, base, size);
    b->t.insert(b->t.ctx, base, end);
    return 0;
}

int cc_sa_region_resize(cc_sa_book *b, uint64_t base, uint64_t new_size, uint64_t *heap)
{
    const uint64_t *size = cc_hashmap_get(&b->regions, base);
    const cc_sa_heap *h = cc_sa_heap_at(b, base);
    uint64_t end = base + new_size;
    if (size == NULL || h == NULL || new_size == 0 || end < base || end > h->end) {
        return -1;
    }
    *heap = h->id;
    regions_take(b, base, end > base + *size ? end : base + *size);
    cc_hashmap_put(&b->regions, base, new_size); /* its slot was just freed: room */
    b->t.insert(b->t.ctx, base, end);
    return 0;
}

int cc_sa_region_unregister(cc_sa_book *b, uint64_t base, uint64_t *heap, uint64_t *size)
{
    if (!cc_hashmap_remove(&b->regions, base, size)) {
        return -1;
    }
    const cc_sa_heap *h = cc_sa_heap_at(b, base);
    *heap = h != NULL ? h->id : 0;
    b->t.remove(b->t.ctx, base);
    return 0;
}

size_t cc_sa_region_count(const cc_sa_book *b)
{
    return b->regions.count;
}

long cc_sa_heap_reset(cc_sa_book *b, uint64_t id)
{
    const cc_sa_heap *h = cc_sa_heap_find(b, id);
    return h != NULL ? regions_take(b, h->base, h->end) : -1;
}

/* ---- heaps ending ---- */

/* The heap at index i goes: its regions, and the gaps of the allocations it overlaps are
 * recomputed without it; an allocation no heap overlaps any more comes back whole, unless it is
 * `freed` (its base; then it is being freed and stays out). */
static void heap_drop(cc_sa_book *b, size_t i, uint64_t freed, int has_freed)
{
    cc_sa_heap h = b->heaps[i];
    regions_take(b, h.base, h.end);
    for (size_t k = 0; k < b->nhidden; k++) {
        if (b->hidden[k].base < h.end && b->hidden[k].end > h.base) {
            gaps(b, b->hidden[k].base, b->hidden[k].end, 0);
        }
    }
    memmove(&b->heaps[i], &b->heaps[i + 1], (b->nheaps - i - 1) * sizeof b->heaps[0]);
    b->nheaps--;
    cc_hashmap_remove(&b->heap_ids, h.id, NULL);
    for (size_t k = 0; k < b->nhidden;) {
        cc_sa_hidden o = b->hidden[k];
        if (!(o.base < h.end && o.end > h.base) || (has_freed && o.base == freed)) {
            k++;
            continue;
        }
        if (overlaps_heap(b, o.base, o.end)) {
            gaps(b, o.base, o.end, 1);
            k++;
        } else {
            hidden_remove_at(b, k);
            b->t.insert(b->t.ctx, o.base, o.end);
        }
    }
}

int cc_sa_heap_unregister(cc_sa_book *b, uint64_t id)
{
    const cc_sa_heap *h = cc_sa_heap_find(b, id);
    if (h == NULL) {
        return -1;
    }
    heap_drop(b, (size_t)(h - b->heaps), 0, 0);
    return 0;
}

static void heap_end_by_itself(cc_sa_book *b, size_t i, uint64_t freed, int has_freed)
{
    if (b->heap_dropped != NULL) {
        b->heap_dropped(b->heap_dropped_arg, &b->heaps[i]);
    }
    heap_drop(b, i, freed, has_freed);
}

int cc_sa_table_adding(cc_sa_book *b, uint64_t base, uint64_t end, int weak)
{
    if (b->nheaps == 0 || end <= base) {
        return 0;
    }
    size_t i = heap_first_from(b, base);
    if (i >= b->nheaps || b->heaps[i].base >= end) {
        return 0;
    }
    if (weak) {
        return 1; /* a reservation adds nothing where a range is (a heap's span is one) */
    }
    const cc_sa_heap *h = &b->heaps[i];
    if (base >= h->base && end <= h->end && hidden_add(b, base, end) == 0) {
        return 1; /* made inside the heap: the heap's regions keep describing it */
    }
    /* Partly over heaps: the allocation wins (their spans count as allocations again). */
    while ((i = heap_first_from(b, base)) < b->nheaps && b->heaps[i].base < end) {
        heap_end_by_itself(b, i, 0, 0);
    }
    return 0;
}

int cc_sa_table_removing(cc_sa_book *b, uint64_t base)
{
    if (b->nhidden == 0 || cc_hashmap_get(&b->hidden_bases, base) == NULL) {
        return 0;
    }
    uint64_t end = base;
    for (size_t k = 0; k < b->nhidden; k++) {
        if (b->hidden[k].base == base) {
            end = b->hidden[k].end;
            break;
        }
    }
    size_t i;
    while ((i = heap_first_from(b, base)) < b->nheaps && b->heaps[i].base < end) {
        heap_end_by_itself(b, i, base, 1);
    }
    for (size_t k = 0; k < b->nhidden; k++) {
        if (b->hidden[k].base == base) {
            hidden_remove_at(b, k);
            break;
        }
    }
    return 1;
}
