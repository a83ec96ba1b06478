/* What PyTorch's caching allocator's trace says about device memory, turned into sub-allocator
 * operations (CUDA-free; the agent's sink registers them). A segment of the default pools is a
 * heap and its tensor blocks are regions: a block is valid from ALLOC to FREE_COMPLETED
 * (FREE_REQUESTED alone keeps it: a block used on other streams through record_stream is still
 * touched until the allocator completes the free). Segments of private pools (CUDA graphs and
 * graph trees, torch.cuda.MemPool) stay whole live ranges: graph replays touch blocks that the
 * allocator calls free. Expandable segments (SEGMENT_MAP/UNMAP) are not followed: their blocks
 * lie in no segment known here and stay covered by the mapped memory. Not thread-safe: the
 * caller locks. */
#ifndef CUCHECK_SYMBOLS_TORCH_SEGMENTS_H
#define CUCHECK_SYMBOLS_TORCH_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/hashmap.h"
#include "symbols/torch_abi.h"

typedef struct cc_torch_sink {
    void *ctx;
    /* A heap over [base, base + size): its id, or 0 when it is not tracked. */
    uint64_t (*heap_register)(void *ctx, uint64_t base, uint64_t size);
    void (*heap_unregister)(void *ctx, uint64_t heap);
    void (*region_register)(void *ctx, uint64_t heap, uint64_t base, uint64_t size);
    void (*region_unregister)(void *ctx, uint64_t heap, uint64_t base);
} cc_torch_sink;

typedef struct cc_torch_segment {
    uint64_t base, size;
    uint64_t heap;       /* 0: not a heap (private pool, or the sink declined) */
    int private_pool;
} cc_torch_segment;

typedef struct cc_torch_segments {
    cc_torch_segment *seg; /* sorted by base, disjoint */
    size_t count, cap;
    cc_hashmap blocks;     /* live region base -> heap id */
    /* Counts for the report's note. */
    uint64_t heaps, private_segments, regions, untracked_blocks;
} cc_torch_segments;

void cc_torch_segments_init(cc_torch_segments *t);
/* Whether entries of this action can change anything (1), so that a caller can skip the rest
 * (FREE_REQUESTED, a third of a training step's entries, and expandable segments' maps). */
static inline int cc_torch_segments_acts_on(int32_t action)
{
    return action == CC_TORCH_ALLOC || action == CC_TORCH_FREE_COMPLETED ||
           action == CC_TORCH_SEGMENT_ALLOC || action == CC_TORCH_SEGMENT_FREE;
}
/* One trace entry. Entries of unknown actions, and frees of blocks never registered, change
 * nothing. */
void cc_torch_segments_apply(cc_torch_segments *t, const cc_torch_trace *e,
                             const cc_torch_sink *sink);
void cc_torch_segments_free(cc_torch_segments *t);

#endif
