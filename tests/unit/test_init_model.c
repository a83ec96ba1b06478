/* initcheck's model of device memory (src/tools/initcheck/init_model.c) driven by events: copies
 * that cross allocations and host memory, 2D memsets, unchecked launches per context, checked
 * launches' INIT_WRITE ranges, a caching allocator's block handed over again, the uninitialised
 * range table a checked launch gets, --track-unused-memory's "ever written" set, and the gone
 * hook at free, replacement and exit. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "tools/initcheck/init_model.h"

static cc_event ev(cc_event_kind kind)
{
    cc_event e;
    memset(&e, 0, sizeof e);
    e.h.kind = kind;
    return e;
}

static void alloc(cc_init_model *m, uint64_t ctx, uint64_t base, uint64_t size)
{
    cc_event e = ev(CC_EV_ALLOC);
    e.u.alloc = (cc_ev_alloc){.context = ctx, .mem_kind = CC_MEM_DEVICE, .address = base,
                              .size = size};
    cc_init_model_apply(m, &e);
}

static void context_create(cc_init_model *m, uint64_t ctx)
{
    cc_event e = ev(CC_EV_CONTEXT_CREATE);
    e.u.context.context = ctx;
    cc_init_model_apply(m, &e);
}

static void copy(cc_init_model *m, uint64_t dst, uint64_t src, uint64_t n)
{
    cc_event e = ev(CC_EV_MEMCPY);
    e.u.memcpy.dst = dst;
    e.u.memcpy.src = src;
    e.u.memcpy.size = n;
    cc_init_model_apply(m, &e);
}

static uint64_t uninit(const cc_init_model *m, uint64_t a, uint64_t n)
{
    uint64_t k = 0;
    cc_init_model_first_uninit(m, a, n, &k, NULL);
    return k;
}

static int gone_count, gone_why;
static uint64_t gone_used;

static void on_gone(void *arg, const cc_init_alloc *a, int why, uint64_t cs)
{
    (void)arg, (void)cs;
    gone_count++;
    gone_why = why;
    gone_used = cc_init_bytes(&a->used);
}

int main(void)
{
    cc_init_model m;
    memset(&m, 0, sizeof m);
    m.track_used = 1;
    m.gone = on_gone;
    const uint64_t A = 0x10000, B = 0x20000, C = 0x30000;
    /* The kinds the model moves on, which the agent's copy of it filters by. */
    CHECK(cc_init_model_wants(CC_EV_CONTEXT_CREATE) && cc_init_model_wants(CC_EV_ALLOC) &&
          cc_init_model_wants(CC_EV_INIT_WRITE) && cc_init_model_wants(CC_EV_LAUNCH));
    CHECK(!cc_init_model_wants(CC_EV_HOST_STACK));
    /* The runtime's own allocation, made before its context is announced: not tracked. */
    alloc(&m, 1, 0x80000, 512);
    CHECK(cc_init_model_find(&m, 0x80000) == NULL);
    CHECK_EQ_U64(uninit(&m, 0x80000, 512), 0);
    context_create(&m, 1);
    context_create(&m, 2);
    alloc(&m, 1, A, 1024);
    alloc(&m, 1, B, 1024);
    alloc(&m, 2, C, 256);
    CHECK_EQ_U64(m.npartial, 3);
    CHECK_EQ_U64(uninit(&m, A, 1024), 1024);
    /* host -> A[0, 512): initialised; A -> B whole: B's second half stays uninitialised */
    copy(&m, A, 0x5000, 512);
    copy(&m, B, A, 1024);
    CHECK_EQ_U64(uninit(&m, B, 1024), 512);
    CHECK_EQ_U64(cc_init_model_first_uninit(&m, B, 1024, NULL, NULL), B + 512);
    /* a copy out across A's end into the gap: only A's bytes count */
    CHECK_EQ_U64(uninit(&m, A + 512, 4096), 512);
    /* a 2D memset: 4 rows of 64 bytes, 256 apart, in A's second half */
    cc_event s = ev(CC_EV_MEMSET);
    s.u.memset.dst = A + 512;
    s.u.memset.size = 256;
    s.u.memset.width = 64;
    s.u.memset.height = 2;
    s.u.memset.pitch = 256;
    cc_init_model_apply(&m, &s);
    CHECK_EQ_U64(uninit(&m, A, 1024), 512 - 128);
    /* the uninitialised table of context 1: A's holes and B's second half, in address order */
    cc_init_range t[8];
    uint64_t bytes = 0;
    size_t n = cc_init_model_uninit_ranges(&m, 1, t, 8, &bytes);
    CHECK_EQ_U64(n, 3);
    CHECK_EQ_U64(bytes, 384 + 512);
    CHECK_EQ_U64(t[0].lo, A + 576);
    CHECK_EQ_U64(t[0].hi, A + 768);
    CHECK_EQ_U64(t[1].lo, A + 832);
    CHECK_EQ_U64(t[2].lo, B + 512);
    CHECK_EQ_U64(t[2].hi, B + 1024);
    CHECK_EQ_U64(cc_init_model_uninit_ranges(&m, 0, NULL, 0, NULL), 4);
    /* a checked launch's writes */
    cc_event w = ev(CC_EV_INIT_WRITE);
    w.u.init_write.address = B + 512;
    w.u.init_write.size = 512;
    cc_init_model_apply(&m, &w);
    CHECK_EQ_U64(uninit(&m, B, 1024), 0);
    /* an unchecked launch of context 2 leaves context 1 alone */
    cc_event l = ev(CC_EV_LAUNCH);
    l.u.launch.context = 2;
    cc_init_model_apply(&m, &l);
    CHECK_EQ_U64(uninit(&m, C, 256), 0);
    CHECK_EQ_U64(uninit(&m, A, 1024), 384);
    l.u.launch.flags = CC_LAUNCH_FLAG_INSTRUMENTED;
    l.u.launch.context = 1;
    cc_init_model_apply(&m, &l);
    CHECK_EQ_U64(uninit(&m, A, 1024), 384);
    l.u.launch.flags = 0;
    cc_init_model_apply(&m, &l);
    CHECK_EQ_U64(uninit(&m, A, 1024), 0);
    CHECK_EQ_U64(m.npartial, 0);
    /* a torch block handed over again is uninitialised; "used" keeps it */
    cc_event r = ev(CC_EV_SUBALLOC);
    r.u.suballoc = (cc_ev_suballoc){.op = CC_SUBALLOC_OP_REGION_REGISTER,
                                    .source = CC_SUBALLOC_SRC_TORCH, .heap = 1,
                                    .address = A + 100, .size = 50};
    cc_init_model_apply(&m, &r);
    CHECK_EQ_U64(uninit(&m, A, 1024), 50);
    CHECK_EQ_U64(cc_init_bytes(&cc_init_model_find(&m, A)->used), 1024);
    r.u.suballoc.source = CC_SUBALLOC_SRC_NVTX;
    r.u.suballoc.address = A + 300;
    cc_init_model_apply(&m, &r);
    CHECK_EQ_U64(uninit(&m, A, 1024), 50);
    /* an allocation over B (its free unseen) replaces it; a free; the rest at exit */
    alloc(&m, 1, B + 512, 64);
    CHECK_EQ_U64(gone_count, 1);
    CHECK_EQ_U64(gone_why, CC_INIT_GONE_REPLACED);
    CHECK_EQ_U64(uninit(&m, B + 512, 64), 64);
    cc_event f = ev(CC_EV_FREE);
    f.u.free.address = C;
    cc_init_model_apply(&m, &f);
    CHECK_EQ_U64(gone_why, CC_INIT_GONE_FREE);
    CHECK_EQ_U64(gone_used, 256);
    /* managed memory is not tracked */
    cc_event mm = ev(CC_EV_ALLOC);
    mm.u.alloc = (cc_ev_alloc){.mem_kind = CC_MEM_MANAGED, .address = 0x90000, .size = 64};
    cc_init_model_apply(&m, &mm);
    CHECK(cc_init_model_find(&m, 0x90000) == NULL);
    /* An allocation with no context (a trace without context ids) is tracked. */
    alloc(&m, 0, 0xa0000, 64);
    CHECK(cc_init_model_find(&m, 0xa0000) != NULL);
    cc_init_model_free(&m);
    CHECK_EQ_U64(gone_count, 5);
    CHECK_EQ_U64(gone_why, CC_INIT_GONE_EXIT);
    CHECK_EQ_U64(m.n, 0);
    return cc_test_failures != 0;
}
