/* PyTorch's caching-allocator trace as sub-allocator operations (symbols/torch_segments.h): a
 * default-pool segment becomes a heap and its blocks regions of the size asked for; a block stays
 * valid after FREE_REQUESTED and goes at FREE_COMPLETED; a segment's free unregisters its heap
 * (and blocks left in it); private-pool segments and their blocks register nothing; blocks outside
 * every known segment (expandable segments, segments from before the tracker) and frees of
 * unknown blocks change nothing; a segment overlapping one whose free was missed replaces it; a
 * block allocated again at a live base is unregistered (with its heap) before it registers; a
 * heap the sink declines leaves its blocks untracked. */
#include "check.h"
#include "symbols/torch_segments.h"

#include <stdio.h>
#include <string.h>

static char log_text[4096];
static uint64_t next_heap = 1;
static int decline;

static void say(const char *fmt, unsigned long long a, unsigned long long b, unsigned long long c)
{
    size_t n = strlen(log_text);
    snprintf(log_text + n, sizeof log_text - n, fmt, a, b, c);
}
static uint64_t heap_register(void *ctx, uint64_t base, uint64_t size)
{
    (void)ctx;
    if (decline) {
        return 0;
    }
    say("H%llu@%llx+%llx ", next_heap, base, size);
    return next_heap++;
}
static void heap_unregister(void *ctx, uint64_t heap)
{
    (void)ctx;
    say("-H%llu%.0llu%.0llu ", heap, 0, 0);
}
static void region_register(void *ctx, uint64_t heap, uint64_t base, uint64_t size)
{
    (void)ctx;
    say("R%llu:%llx+%llu ", heap, base, size);
}
static void region_unregister(void *ctx, uint64_t heap, uint64_t base)
{
    (void)ctx;
    say("-R%llu:%llx%.0llu ", heap, base, 0);
}
static const cc_torch_sink sink = {NULL, heap_register, heap_unregister, region_register,
                                   region_unregister};

static void apply(cc_torch_segments *t, int action, uint64_t addr, uint64_t size, uint64_t p0,
                  uint64_t p1)
{
    cc_torch_trace e = {action, 0, addr, size, {p0, p1}};
    char before[sizeof log_text];
    memcpy(before, log_text, sizeof before);
    uint64_t untracked = t->untracked_blocks, regions = t->regions;
    cc_torch_segments_apply(t, &e, &sink);
    if (!cc_torch_segments_acts_on(action)) { /* callers skip such entries: they change nothing */
        CHECK_STR(log_text, before);
        CHECK_EQ_U64(t->untracked_blocks, untracked);
        CHECK_EQ_U64(t->regions, regions);
    }
}

int main(void)
{
    /* The actions that register and unregister are acted on; FREE_REQUESTED is skipped. */
    CHECK(cc_torch_segments_acts_on(CC_TORCH_ALLOC));
    CHECK(cc_torch_segments_acts_on(CC_TORCH_FREE_COMPLETED));
    CHECK(cc_torch_segments_acts_on(CC_TORCH_SEGMENT_ALLOC));
    CHECK(cc_torch_segments_acts_on(CC_TORCH_SEGMENT_FREE));
    CHECK(!cc_torch_segments_acts_on(CC_TORCH_FREE_REQUESTED));
    cc_torch_segments t;
    cc_torch_segments_init(&t);
    apply(&t, CC_TORCH_SEGMENT_ALLOC, 0x200000, 0x200000, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x200000, 4000, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x201000, 100, 0, 0);
    CHECK_STR(log_text, "H1@200000+200000 R1:200000+4000 R1:201000+100 ");
    log_text[0] = 0;
    apply(&t, CC_TORCH_FREE_REQUESTED, 0x200000, 4000, 0, 0); /* record_stream: still valid */
    CHECK_STR(log_text, "");
    apply(&t, CC_TORCH_FREE_COMPLETED, 0x200000, 4000, 0, 0);
    apply(&t, CC_TORCH_FREE_COMPLETED, 0x200000, 4000, 0, 0); /* twice: nothing more */
    apply(&t, CC_TORCH_FREE_COMPLETED, 0x900000, 16, 0, 0);   /* never registered */
    apply(&t, CC_TORCH_ALLOC, 0x5000000, 64, 0, 0);           /* in no known segment */
    apply(&t, CC_TORCH_SEGMENT_MAP, 0x5000000, 0x200000, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x3ff000, 0x2000, 0, 0);        /* runs past its segment */
    CHECK_STR(log_text, "-R1:200000 ");
    CHECK_EQ_U64(t.untracked_blocks, 2);
    log_text[0] = 0;
    /* A private pool (CUDA graph): whole live range, nothing registered. */
    apply(&t, CC_TORCH_SEGMENT_ALLOC, 0x800000, 0x200000, 1, 0);
    apply(&t, CC_TORCH_ALLOC, 0x800000, 256, 1, 0);
    apply(&t, CC_TORCH_FREE_COMPLETED, 0x800000, 256, 1, 0);
    apply(&t, CC_TORCH_SEGMENT_FREE, 0x800000, 0x200000, 1, 0);
    CHECK_STR(log_text, "");
    CHECK_EQ_U64(t.private_segments, 1);
    /* A default-pool block in a default-pool segment, then the segment freed with it left. */
    apply(&t, CC_TORCH_SEGMENT_FREE, 0x200000, 0x200000, 0, 0);
    CHECK_STR(log_text, "-R1:201000 -H1 ");
    log_text[0] = 0;
    /* A missed segment free: the new segment overlapping it replaces it. */
    apply(&t, CC_TORCH_SEGMENT_ALLOC, 0x1000000, 0x400000, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x1000000, 8, 0, 0);
    apply(&t, CC_TORCH_SEGMENT_ALLOC, 0x1200000, 0x200000, 0, 0);
    CHECK_STR(log_text, "H2@1000000+400000 R2:1000000+8 -R2:1000000 -H2 H3@1200000+200000 ");
    CHECK_EQ_U64(t.count, 1);
    log_text[0] = 0;
    /* Segments stay sorted: blocks find theirs on either side. */
    apply(&t, CC_TORCH_SEGMENT_ALLOC, 0x600000, 0x200000, 0, 0);
    apply(&t, CC_TORCH_SEGMENT_ALLOC, 0x2000000, 0x200000, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x600200, 10, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x1200200, 20, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x2000200, 30, 0, 0);
    CHECK_STR(log_text, "H4@600000+200000 H5@2000000+200000 R4:600200+10 R3:1200200+20 "
                        "R5:2000200+30 ");
    log_text[0] = 0;
    /* A block allocated again at a live base (its free was missed): unregistered first, with
     * its heap, before the new one registers (the queued path relies on that order). */
    apply(&t, CC_TORCH_ALLOC, 0x600200, 40, 0, 0);
    CHECK_STR(log_text, "-R4:600200 R4:600200+40 ");
    log_text[0] = 0;
    /* A heap the sink declines: its blocks are not regions. */
    decline = 1;
    apply(&t, CC_TORCH_SEGMENT_ALLOC, 0x3000000, 0x200000, 0, 0);
    apply(&t, CC_TORCH_ALLOC, 0x3000000, 30, 0, 0);
    CHECK_STR(log_text, "");
    CHECK_EQ_U64(t.heaps, 5);
    CHECK_EQ_U64(t.regions, 7);
    cc_torch_segments_free(&t);
    TEST_MAIN_END();
}
