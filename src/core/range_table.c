/* The sorted range table with tombstones (range_table.h). */
#include "core/range_table.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/sorted_search.h"

/* Past this many tombstones, and more of them than live ranges, the table is compacted at the
 * next removal: lookups stay a binary search over about twice the live ranges at most. */
#define CC_RANGE_TOMB_SLACK 256u

static int is_tomb(const cc_range *r)
{
    return r->end == r->base;
}

/* The index of the first entry whose base is above addr. */
static size_t upper(const cc_range_table *t, uint64_t addr)
{
    return CC_SORTED_UPPER(t->r, t->n, cc_range, base, addr);
}

static void remove_at(cc_range_table *t, size_t i)
{
    t->ntomb -= is_tomb(&t->r[i]);
    memmove(&t->r[i], &t->r[i + 1], (t->n - i - 1) * sizeof t->r[0]);
    t->n--;
}

void cc_range_table_free(cc_range_table *t)
{
    free(t->r);
    memset(t, 0, sizeof *t);
}

void cc_range_table_insert(cc_range_table *t, uint64_t base, uint64_t end, int weak)
{
    if (end <= base) {
        return;
    }
    size_t i = upper(t, base);
    /* The common case: a tombstone at base, and nothing else in [base, end). */
    if (i > 0 && t->r[i - 1].base == base && is_tomb(&t->r[i - 1]) &&
        (i == t->n || t->r[i].base >= end)) {
        t->r[i - 1].end = end;
        t->ntomb--;
        t->version++;
        return;
    }
    if (weak) {
        size_t k = i > 0 ? i - 1 : 0;
        for (; k < t->n && t->r[k].base < end; k++) {
            if (!is_tomb(&t->r[k]) && t->r[k].end > base) {
                return;
            }
        }
    }
    /* Drop what lies in [base, end): live ranges it overlaps, tombstones from base on (the
     * range before base, live or not, ends at or before base). */
    if (i > 0 && (t->r[i - 1].end > base || t->r[i - 1].base == base)) {
        i--;
    }
    while (i < t->n && t->r[i].base < end) {
        if (t->r[i].end > base || t->r[i].base >= base) {
            remove_at(t, i);
        } else {
            i++;
        }
    }
    if (CC_ARRAY_RESERVE(t->r, t->cap, t->n + 1)) {
        return;
    }
    size_t at = upper(t, base);
    memmove(&t->r[at + 1], &t->r[at], (t->n - at) * sizeof t->r[0]);
    t->r[at].base = base;
    t->r[at].end = end;
    t->n++;
    t->version++;
}

void cc_range_table_erase(cc_range_table *t, uint64_t base)
{
    size_t i = upper(t, base);
    if (i == 0 || t->r[i - 1].base != base || is_tomb(&t->r[i - 1])) {
        return;
    }
    t->r[i - 1].end = base;
    t->ntomb++;
    t->version++;
    if (t->ntomb > CC_RANGE_TOMB_SLACK && t->ntomb > t->n - t->ntomb) {
        cc_range_table_compact(t);
    }
}

void cc_range_table_take(cc_range_table *t, uint64_t lo, uint64_t hi,
                         void (*each)(void *arg, uint64_t base, uint64_t end), void *arg)
{
    size_t i = upper(t, lo);
    if (i > 0 && t->r[i - 1].end > lo) {
        i--;
    }
    size_t first = i, live = 0;
    for (; i < t->n && t->r[i].base < hi; i++) {
        if (!is_tomb(&t->r[i])) {
            each(arg, t->r[i].base, t->r[i].end);
            live++;
        } else {
            t->ntomb--;
        }
    }
    if (i > first) {
        memmove(&t->r[first], &t->r[i], (t->n - i) * sizeof t->r[0]);
        t->n -= i - first;
        t->version += live > 0;
    }
}

const cc_range *cc_range_table_find(const cc_range_table *t, uint64_t addr)
{
    size_t i = upper(t, addr);
    return i > 0 && addr < t->r[i - 1].end ? &t->r[i - 1] : NULL;
}

void cc_range_table_compact(cc_range_table *t)
{
    if (t->ntomb == 0) {
        return;
    }
    size_t out = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (!is_tomb(&t->r[i])) {
            t->r[out++] = t->r[i];
        }
    }
    t->n = out;
    t->ntomb = 0;
}
