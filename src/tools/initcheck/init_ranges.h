/* initcheck's host-side model of which bytes of one allocation hold written data: a sorted set
 * of disjoint initialised byte ranges [lo, hi) in allocation offsets. A new allocation (or a
 * caching allocator's block handed to a new tensor) has none; a memset, a copy from the host or a
 * kernel's writes mark bytes; a copy between device buffers carries the source's state byte for
 * byte (an uninitialised source leaves the destination uninitialised); a copy to the host asks
 * for the first uninitialised byte it reads. Per byte, as the issue asks: a memset over half a
 * buffer leaves the other half uninitialised. Typical buffers need a handful of ranges, so the
 * state of a large allocation costs a few dozen bytes, not a bit per byte. No CUDA dependency. */
#ifndef CUCHECK_TOOLS_INITCHECK_INIT_RANGES_H
#define CUCHECK_TOOLS_INITCHECK_INIT_RANGES_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_init_range {
    uint64_t lo, hi; /* [lo, hi), lo < hi */
} cc_init_range;

typedef struct cc_init_ranges {
    cc_init_range *v; /* sorted by lo, disjoint and not touching (merged) */
    size_t n, cap;
} cc_init_ranges;

void cc_init_ranges_free(cc_init_ranges *r);

/* Bytes [lo, hi) become initialised / uninitialised. 0 ok, -1 out of memory (r unchanged). An
 * empty or inverted range changes nothing. */
int cc_init_mark(cc_init_ranges *r, uint64_t lo, uint64_t hi);
int cc_init_clear(cc_init_ranges *r, uint64_t lo, uint64_t hi);

/* The first uninitialised byte of [lo, hi), or UINT64_MAX when all are initialised; *uninit (if
 * not NULL) gets the number of uninitialised bytes there. */
uint64_t cc_init_first_uninit(const cc_init_ranges *r, uint64_t lo, uint64_t hi,
                              uint64_t *uninit);

/* 1 if every byte of [lo, hi) is initialised (an empty range is). */
int cc_init_all(const cc_init_ranges *r, uint64_t lo, uint64_t hi);

/* Bytes [dst_lo, dst_lo + n) of dst take the state of [src_lo, src_lo + n) of src, byte for byte
 * (dst and src may be the same set, the ranges may overlap: as memmove). 0 ok, -1 out of memory
 * or an offset range that wraps (dst unchanged). */
int cc_init_copy(cc_init_ranges *dst, uint64_t dst_lo, const cc_init_ranges *src,
                 uint64_t src_lo, uint64_t n);

/* Initialised bytes in all. */
uint64_t cc_init_bytes(const cc_init_ranges *r);

#endif
