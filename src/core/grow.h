/* The one growable array of cucheck: an array of elements owned by a parent struct, with a count
 * and a capacity (both size_t) kept next to it, grown geometrically on demand. Sizes are checked
 * (count * element size never wraps); a failed growth leaves the array as it was and returns -1,
 * never aborts. New code grows arrays with these and nothing else.
 *
 *     struct table { item *items; size_t n, cap; } t = {0};
 *     item *it = CC_ARRAY_PUSH(t.items, t.n, t.cap);      NULL: out of memory, t unchanged
 *     if (CC_ARRAY_RESERVE(t.items, t.cap, t.n + k)) ...   -1: out of memory or too large
 *
 * The macros evaluate their arguments more than once: pass plain lvalues. The capacity must be a
 * size_t lvalue (a wrong type fails to compile). Room already there costs one comparison, no call.
 * Growth: at least twice the old capacity, at least what is needed, at least 8 elements. */
#ifndef CUCHECK_CORE_GROW_H
#define CUCHECK_CORE_GROW_H

#include <stddef.h>

/* Makes *data (an array of *cap elements of elem_size bytes) hold at least need elements:
 * 0 when it does (possibly moved, *cap updated), -1 when memory is short or need * elem_size
 * does not fit (then *data and *cap are unchanged). */
int cc_array_grow(void **data, size_t *cap, size_t need, size_t elem_size);

/* 0 when arr (capacity cap) holds at least need elements, growing it if needed; -1 otherwise. */
#define CC_ARRAY_RESERVE(arr, cap, need)                                                       \
    ((size_t)(need) <= (cap) ? 0 : cc_array_grow((void **)&(arr), &(cap), (need), sizeof *(arr)))

/* A pointer to a new last element (n is incremented; the element is not initialized), or NULL
 * when the array cannot grow (n unchanged). */
#define CC_ARRAY_PUSH(arr, n, cap) (CC_ARRAY_RESERVE(arr, cap, (n) + 1) == 0 ? &(arr)[(n)++] : NULL)

#endif
