/* Pointer inference for streamcheck --mode api: which device memory a kernel launch may touch,
 * judged only from its parameter buffer. Every 8-byte-aligned word of the argument slots that
 * holds an address inside a live allocation of the map is taken as a pointer argument; the
 * range it yields runs from that address to the end of its allocation (CC_PTR_TO_END, the
 * default: a sub-allocation of a caching allocator does not claim the tensors before it) or
 * covers the whole allocation (CC_PTR_WHOLE_ALLOC: also catches negative indexing). Ranges are
 * sorted and overlapping ones merged. Plain C, no CUDA, no allocation: the caller gives the
 * output array (the agent calls this on every launch). */
#ifndef CUCHECK_CORE_PTR_INFER_H
#define CUCHECK_CORE_PTR_INFER_H

#include <stddef.h>
#include <stdint.h>
#include "core/allocmap.h"

#define CC_PTR_TO_END 0u      /* [pointer, end of its allocation) */
#define CC_PTR_WHOLE_ALLOC 1u /* [allocation base, allocation end) */

/* One argument of the kernel: where it lies in the parameter buffer (from KPARAM_INFO). */
typedef struct cc_ptr_slot {
    uint32_t offset;
    uint32_t size;
} cc_ptr_slot;

typedef struct cc_ptr_range {
    uint64_t address;
    uint64_t size;
} cc_ptr_range;

typedef struct cc_ptr_infer_stats {
    uint32_t words;     /* words scanned */
    uint32_t pointers;  /* words that pointed into a live allocation (duplicates included) */
    uint32_t dropped;   /* ranges lost because `out` was full (a false negative risk) */
} cc_ptr_infer_stats;

/* Scan the parameter buffer buf[0..len). With slots (nslots > 0) only the aligned words lying
 * wholly inside an argument slot (and inside buf) are read; without, every aligned word of buf.
 * Words are read in host byte order (the buffer is the host's). Writes at most cap merged
 * ranges to out, sorted by address; returns their number. stats may be NULL. */
size_t cc_ptr_infer(const unsigned char *buf, size_t len, const cc_ptr_slot *slots, size_t nslots,
                    const cc_allocmap *allocs, uint32_t policy, cc_ptr_range *out, size_t cap,
                    cc_ptr_infer_stats *stats);

/* The walk both use: calls fn(offset, value, allocation, arg) for each word, read as above, that
 * points into a live allocation, in buffer order, until fn returns non-zero. Returns the number
 * of words read. */
typedef int (*cc_ptr_word_fn)(uint32_t offset, uint64_t value, const cc_alloc_rec *alloc,
                              void *arg);
uint32_t cc_ptr_scan(const unsigned char *buf, size_t len, const cc_ptr_slot *slots,
                     size_t nslots, const cc_allocmap *allocs, cc_ptr_word_fn fn, void *arg);

/* Add [a, a+n) to the sorted, disjoint out[0..*count), merging what it overlaps or touches.
 * Returns 0, or -1 when a new entry was needed and out is full. */
int cc_ptr_range_add(cc_ptr_range *out, size_t *count, size_t cap, uint64_t a, uint64_t n);

/* The packed parameter buffer of a cuLaunchKernel `extra` list: (key, value) pairs ended by
 * key 0 (CU_LAUNCH_PARAM_END); key 1 (CU_LAUNCH_PARAM_BUFFER_POINTER) gives the buffer, key 2
 * (CU_LAUNCH_PARAM_BUFFER_SIZE) a pointer to its size_t length. At most max_pairs pairs are
 * read; an unknown key stops the walk. Returns the buffer (NULL if none) and sets *len, capped
 * at max_len. */
const unsigned char *cc_ptr_extra_buffer(void *const *extra, size_t max_pairs, size_t max_len,
                                         size_t *len);

#endif
