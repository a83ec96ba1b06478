/* initcheck's per-allocation initialised ranges (init_ranges.h): a sorted array of disjoint,
 * merged [lo, hi) ranges, changed by replacing the ranges a span overlaps. Every change is
 * prepared in a fresh array first, so that running out of memory leaves the set as it was. */
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/initcheck/init_ranges.h"
#include "core/sorted_search.h"

void cc_init_ranges_free(cc_init_ranges *r)
{
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}

/* The index of the first range whose hi > off (the first that ends past off), or n. */
static size_t first_ending_after(const cc_init_ranges *r, uint64_t off)
{
    return CC_SORTED_UPPER(r->v, r->n, cc_init_range, hi, off);
}

/* Replace the ranges [from, to) of r by the k ranges of add (k <= 2). 0 ok, -1 out of memory. */
static int splice(cc_init_ranges *r, size_t from, size_t to, const cc_init_range *add, size_t k)
{
    size_t n = r->n - (to - from) + k;
    if (CC_ARRAY_RESERVE(r->v, r->cap, n) != 0) {
        return -1;
    }
    memmove(&r->v[from + k], &r->v[to], (r->n - to) * sizeof r->v[0]);
    memcpy(&r->v[from], add, k * sizeof add[0]);
    r->n = n;
    return 0;
}

int cc_init_mark(cc_init_ranges *r, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) {
        return 0;
    }
    /* The ranges that overlap or touch [lo, hi) merge with it: from the first that ends at or
     * after lo to the last that starts at or before hi. */
    size_t from = lo == 0 ? 0 : first_ending_after(r, lo - 1);
    size_t to = from;
    cc_init_range m = {lo, hi};
    while (to < r->n && r->v[to].lo <= hi) {
        if (r->v[to].lo < m.lo) {
            m.lo = r->v[to].lo;
        }
        if (r->v[to].hi > m.hi) {
            m.hi = r->v[to].hi;
        }
        to++;
    }
    return splice(r, from, to, &m, 1);
}

int cc_init_clear(cc_init_ranges *r, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) {
        return 0;
    }
    size_t from = first_ending_after(r, lo);
    size_t to = from;
    while (to < r->n && r->v[to].lo < hi) {
        to++;
    }
    if (from == to) {
        return 0;
    }
    cc_init_range keep[2];
    size_t k = 0;
    if (r->v[from].lo < lo) {
        keep[k++] = (cc_init_range){r->v[from].lo, lo};
    }
    if (r->v[to - 1].hi > hi) {
        keep[k++] = (cc_init_range){hi, r->v[to - 1].hi};
    }
    return splice(r, from, to, keep, k);
}

uint64_t cc_init_first_uninit(const cc_init_ranges *r, uint64_t lo, uint64_t hi,
                              uint64_t *uninit)
{
    uint64_t first = UINT64_MAX, missing = 0, at = lo;
    for (size_t i = first_ending_after(r, lo); i < r->n && at < hi; i++) {
        if (r->v[i].lo >= hi) {
            break;
        }
        if (r->v[i].lo > at) {
            if (first == UINT64_MAX) {
                first = at;
            }
            missing += r->v[i].lo - at;
        }
        if (r->v[i].hi > at) {
            at = r->v[i].hi;
        }
    }
    if (at < hi) {
        if (first == UINT64_MAX) {
            first = at;
        }
        missing += hi - at;
    }
    if (uninit != NULL) {
        *uninit = missing;
    }
    return first;
}

int cc_init_all(const cc_init_ranges *r, uint64_t lo, uint64_t hi)
{
    return lo >= hi || cc_init_first_uninit(r, lo, hi, NULL) == UINT64_MAX;
}

int cc_init_copy(cc_init_ranges *dst, uint64_t dst_lo, const cc_init_ranges *src,
                 uint64_t src_lo, uint64_t n)
{
    if (n == 0) {
        return 0;
    }
    if (src_lo + n < src_lo || dst_lo + n < dst_lo) {
        return -1;
    }
    /* The source's ranges inside the span, shifted to the destination, taken first (dst may be
     * src); then the destination span is rebuilt from them in a copy of dst. */
    cc_init_ranges moved = {0}, out = {0};
    for (size_t i = first_ending_after(src, src_lo); i < src->n; i++) {
        if (src->v[i].lo >= src_lo + n) {
            break;
        }
        uint64_t a = src->v[i].lo > src_lo ? src->v[i].lo : src_lo;
        uint64_t b = src->v[i].hi < src_lo + n ? src->v[i].hi : src_lo + n;
        cc_init_range *m = CC_ARRAY_PUSH(moved.v, moved.n, moved.cap);
        if (m == NULL) {
            cc_init_ranges_free(&moved);
            return -1;
        }
        *m = (cc_init_range){a - src_lo + dst_lo, b - src_lo + dst_lo};
    }
    if (CC_ARRAY_RESERVE(out.v, out.cap, dst->n + moved.n + 2) != 0) {
        cc_init_ranges_free(&moved);
        return -1;
    }
    memcpy(out.v, dst->v, dst->n * sizeof dst->v[0]);
    out.n = dst->n;
    int rc = cc_init_clear(&out, dst_lo, dst_lo + n);
    for (size_t i = 0; i < moved.n && rc == 0; i++) {
        rc = cc_init_mark(&out, moved.v[i].lo, moved.v[i].hi);
    }
    cc_init_ranges_free(&moved);
    if (rc != 0) {
        cc_init_ranges_free(&out);
        return -1;
    }
    cc_init_ranges_free(dst);
    *dst = out;
    return 0;
}

uint64_t cc_init_bytes(const cc_init_ranges *r)
{
    uint64_t total = 0;
    for (size_t i = 0; i < r->n; i++) {
        total += r->v[i].hi - r->v[i].lo;
    }
    return total;
}
