/* The caching allocator's segments and blocks as heaps and regions (torch_segments.h). */
#include "symbols/torch_segments.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/sorted_search.h"

void cc_torch_segments_init(cc_torch_segments *t)
{
    memset(t, 0, sizeof *t);
}

void cc_torch_segments_free(cc_torch_segments *t)
{
    free(t->seg);
    cc_hashmap_free(&t->blocks);
    memset(t, 0, sizeof *t);
}

/* The index of the first segment whose base is above addr. */
static size_t upper_bound(const cc_torch_segments *t, uint64_t addr)
{
    return CC_SORTED_UPPER(t->seg, t->count, cc_torch_segment, base, addr);
}

/* The segment holding addr, or NULL. */
static cc_torch_segment *segment_of(cc_torch_segments *t, uint64_t addr)
{
    size_t i = upper_bound(t, addr);
    if (i == 0) {
        return NULL;
    }
    cc_torch_segment *s = &t->seg[i - 1];
    return addr - s->base < s->size ? s : NULL;
}

/* Segment i goes, with the regions registered in it. */
static void drop_segment(cc_torch_segments *t, size_t i, const cc_torch_sink *sink)
{
    cc_torch_segment s = t->seg[i];
    if (s.heap) {
        /* Blocks are normally all freed before their segment; any left go with it. */
        for (int again = 1; again;) {
            again = 0;
            size_t cursor = 0;
            for (cc_hashmap_slot *b; (b = cc_hashmap_next(&t->blocks, &cursor)) != NULL;) {
                if (b->value == s.heap) {
                    uint64_t base = b->key;
                    cc_hashmap_remove(&t->blocks, base, NULL);
                    sink->region_unregister(sink->ctx, s.heap, base);
                    again = 1;
                    break;
                }
            }
        }
        sink->heap_unregister(sink->ctx, s.heap);
    }
    memmove(&t->seg[i], &t->seg[i + 1], (t->count - i - 1) * sizeof t->seg[0]);
    t->count--;
}

static void segment_alloc(cc_torch_segments *t, const cc_torch_trace *e, const cc_torch_sink *sink)
{
    if (e->size == 0 || e->addr + e->size < e->addr) {
        return;
    }
    /* A segment whose free was missed overlaps the new one: it is gone. */
    size_t i = upper_bound(t, e->addr + e->size - 1);
    while (i > 0 && t->seg[i - 1].base + t->seg[i - 1].size > e->addr) {
        drop_segment(t, i - 1, sink);
        i--;
    }
    if (CC_ARRAY_RESERVE(t->seg, t->cap, t->count + 1) != 0) {
        return; /* not tracked: the segment stays one live range */
    }
    memmove(&t->seg[i + 1], &t->seg[i], (t->count - i) * sizeof t->seg[0]);
    t->count++;
    cc_torch_segment *s = &t->seg[i];
    memset(s, 0, sizeof *s);
    s->base = e->addr;
    s->size = e->size;
    if (e->pool[0] != 0 || e->pool[1] != 0) {
        s->private_pool = 1;
        t->private_segments++;
        return;
    }
    s->heap = sink->heap_register(sink->ctx, e->addr, e->size);
    if (s->heap) {
        t->heaps++;
    }
}

static void segment_free(cc_torch_segments *t, const cc_torch_trace *e, const cc_torch_sink *sink)
{
    cc_torch_segment *s = segment_of(t, e->addr);
    if (s) {
        drop_segment(t, (size_t)(s - t->seg), sink);
    }
}

static void block_alloc(cc_torch_segments *t, const cc_torch_trace *e, const cc_torch_sink *sink)
{
    cc_torch_segment *s = segment_of(t, e->addr);
    if (e->pool[0] != 0 || e->pool[1] != 0 || !s || !s->heap || e->size == 0 ||
        e->size > s->base + s->size - e->addr) {
        t->untracked_blocks++;
        return;
    }
    uint64_t old;
    if (cc_hashmap_remove(&t->blocks, e->addr, &old) == 1) {
        sink->region_unregister(sink->ctx, old, e->addr); /* its free was missed */
    }
    if (cc_hashmap_put(&t->blocks, e->addr, s->heap) != 0) {
        t->untracked_blocks++;
        return;
    }
    sink->region_register(sink->ctx, s->heap, e->addr, e->size);
    t->regions++;
}

static void block_free(cc_torch_segments *t, const cc_torch_trace *e, const cc_torch_sink *sink)
{
    uint64_t heap;
    if (cc_hashmap_remove(&t->blocks, e->addr, &heap) == 1) {
        sink->region_unregister(sink->ctx, heap, e->addr);
    }
}

void cc_torch_segments_apply(cc_torch_segments *t, const cc_torch_trace *e,
                             const cc_torch_sink *sink)
{
    switch (e->action) {
    case CC_TORCH_SEGMENT_ALLOC:
        segment_alloc(t, e, sink);
        break;
    case CC_TORCH_SEGMENT_FREE:
        segment_free(t, e, sink);
        break;
    case CC_TORCH_ALLOC:
        block_alloc(t, e, sink);
        break;
    case CC_TORCH_FREE_COMPLETED:
        block_free(t, e, sink);
        break;
    default:
        break; /* FREE_REQUESTED keeps the block; expandable segments stay whole */
    }
}
