/* The one binary search of cucheck's sorted tables (allocations, heaps, segments, module
 * variables, ranges): elements `stride` bytes apart, sorted by the uint64_t at byte `key_off`. */
#ifndef CUCHECK_CORE_SORTED_SEARCH_H
#define CUCHECK_CORE_SORTED_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The index of the first of the n elements whose key is above k (n when none is). */
static inline size_t cc_sorted_upper(const void *elems, size_t n, size_t stride, size_t key_off,
                                     uint64_t k)
{
    const unsigned char *p = elems;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t v;
        memcpy(&v, p + mid * stride + key_off, sizeof v);
        if (v <= k) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* The same for an array of `type` sorted by its uint64_t member `field`. */
#define CC_SORTED_UPPER(arr, n, type, field, k) \
    cc_sorted_upper((arr), (n), sizeof(type), offsetof(type, field), (k))

#endif
