/* Unit tests of streamcheck's learned access sets (core/access_learn.h): the pointer-argument
 * scan (slots, struct words, non-pointers, a full output), shape keys (grid, block, allocation
 * sizes count; allocation identity does not), learning facts from instrumented ranges (reads
 * and writes per pointer, two pointers into one allocation, negative offsets, union over
 * launches), stray launches and the fallback to inferred sets, the kernel budget, applying facts
 * to new pointer values with clipping to the new allocation, pointers whose allocation no
 * instrumented access touched (inferred ranges), and per-allocation ranges of an instrumented
 * launch. */
#include <string.h>
#include "check.h"
#include "core/access_learn.h"
#include "core/allocmap.h"
#include "cucheck/event.h"

#define A 0x7f0000000000ull /* 0x1000 bytes */
#define B 0x7f0000100000ull /* 0x1000 bytes */
#define C 0x7f0000200000ull /* 0x800 bytes */
#define D 0x7f0000300000ull /* 0x1000 bytes (same size as A) */

static void add(cc_allocmap *m, uint64_t base, uint64_t size)
{
    cc_alloc_rec r;
    memset(&r, 0, sizeof r);
    r.base = base;
    r.size = size;
    r.mem_kind = CC_MEM_DEVICE;
    CHECK(cc_allocmap_add(m, &r) == 0);
}

static void put(unsigned char *buf, size_t off, uint64_t v) { memcpy(buf + off, &v, 8); }

static cc_al_range rng(uint64_t base, uint64_t size, uint64_t rlo, uint64_t rend, uint64_t wlo,
                       uint64_t wend)
{
    cc_al_range r = {base, base + size, rlo, rend, wlo, wend};
    return r;
}

static size_t scan2(cc_allocmap *m, uint64_t p0, uint64_t p1, cc_al_word *w)
{
    unsigned char buf[24];
    memset(buf, 0, sizeof buf);
    put(buf, 0, p0);
    put(buf, 8, p1);
    put(buf, 16, 4096); /* n */
    cc_ptr_slot slots[3] = {{0, 8}, {8, 8}, {16, 4}};
    int trunc = 0;
    return cc_al_scan(buf, sizeof buf, slots, 3, m, w, CC_AL_MAX_WORDS, &trunc);
}

static void test_scan(cc_allocmap *m)
{
    unsigned char buf[48];
    memset(buf, 0, sizeof buf);
    put(buf, 0, A + 0x10);           /* slot 0: a pointer */
    put(buf, 8, 12345);              /* slot 1: an integer */
    put(buf, 16, B);                 /* slot 2 (a 16-byte struct): two pointers */
    put(buf, 24, C + 0x7ff);
    put(buf, 32, C + 0x800);         /* slot 3: one past C's end: no pointer */
    put(buf, 40, D);                 /* outside every slot */
    cc_ptr_slot slots[4] = {{0, 8}, {8, 8}, {16, 16}, {32, 8}};
    cc_al_word w[8];
    int trunc = 1;
    size_t n = cc_al_scan(buf, sizeof buf, slots, 4, m, w, 8, &trunc);
    CHECK_EQ_U64(n, 3);
    CHECK(trunc == 0);
    CHECK_EQ_U64(w[0].offset, 0);
    CHECK_EQ_U64(w[0].value, A + 0x10);
    CHECK_EQ_U64(w[0].base, A);
    CHECK_EQ_U64(w[0].end, A + 0x1000);
    CHECK_EQ_U64(w[1].offset, 16);
    CHECK_EQ_U64(w[2].offset, 24);
    CHECK_EQ_U64(w[2].end, C + 0x800);
    /* Without slots every aligned word counts (D too); a full output says so. */
    n = cc_al_scan(buf, sizeof buf, NULL, 0, m, w, 8, &trunc);
    CHECK_EQ_U64(n, 4);
    n = cc_al_scan(buf, sizeof buf, NULL, 0, m, w, 2, &trunc);
    CHECK_EQ_U64(n, 2);
    CHECK(trunc == 1);
    /* A slot running past the buffer is cut; NULL input gives nothing. */
    cc_ptr_slot past[1] = {{0, 4096}};
    n = cc_al_scan(buf, 8, past, 1, m, w, 8, &trunc);
    CHECK_EQ_U64(n, 1);
    CHECK_EQ_U64(cc_al_scan(NULL, 8, past, 1, m, w, 8, &trunc), 0);
}

static void test_shape_key(cc_allocmap *m)
{
    uint32_t g[3] = {16, 1, 1}, b[3] = {256, 1, 1}, g2[3] = {32, 1, 1};
    cc_al_word w1[4], w2[4], w3[4];
    size_t n1 = scan2(m, A, B, w1);
    size_t n2 = scan2(m, D, B, w2); /* same sizes, other allocation: same shape */
    size_t n3 = scan2(m, C, B, w3); /* C is smaller: another shape */
    CHECK_EQ_U64(n1, 2);
    uint64_t k1 = cc_al_shape_key(7, g, b, w1, n1);
    CHECK(k1 != 0);
    CHECK(k1 == cc_al_shape_key(7, g, b, w2, n2));
    CHECK(k1 != cc_al_shape_key(7, g, b, w3, n3));
    CHECK(k1 != cc_al_shape_key(7, g2, b, w1, n1));
    CHECK(k1 != cc_al_shape_key(8, g, b, w1, n1));
    CHECK(k1 != cc_al_shape_key(7, g, b, w1, 1));
}

/* kernel(in, out): reads in[0..n), writes out[0..n) */
static void test_learn_apply(cc_allocmap *m)
{
    cc_al_policy p;
    cc_al_policy_default(&p);
    CHECK_EQ_U64(p.learn_launches, 2);
    cc_al_kernel k;
    memset(&k, 0, sizeof k);
    static cc_al_shape s;
    memset(&s, 0, sizeof s);
    cc_al_word w[4];
    size_t nw = scan2(m, A + 0x100, B, w);
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_INSTRUMENT);
    /* Launch 1 reads A[0x100, 0x500), writes B[0, 0x400); C untouched. */
    cc_al_range r1[2] = {rng(A, 0x1000, A + 0x100, A + 0x500, 0, 0),
                         rng(B, 0x1000, 0, 0, B, B + 0x400)};
    uint64_t at = 1;
    CHECK(cc_al_observe(&k, &s, &p, w, nw, r1, 2, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK_EQ_U64(at, 0);
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_INSTRUMENT); /* one more launch to learn */
    /* Launch 2 also reads one element before the pointer: the facts are the union. */
    cc_al_range r2[2] = {rng(A, 0x1000, A + 0xfc, A + 0x480, 0, 0),
                         rng(B, 0x1000, 0, 0, B, B + 0x400)};
    CHECK(cc_al_observe(&k, &s, &p, w, nw, r2, 2, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_LEARNED);
    CHECK_EQ_U64(k.shapes_learned, 1);
    CHECK_EQ_U64(k.instrumented, 2);
    CHECK_EQ_U64(s.nfacts, 2);
    CHECK(s.facts[0].read == 1 && s.facts[0].written == 0);
    CHECK(s.facts[0].read_lo == -4 && s.facts[0].read_end == 0x400);
    CHECK(s.facts[1].read == 0 && s.facts[1].written == 1);
    CHECK(s.facts[1].write_lo == 0 && s.facts[1].write_end == 0x400);

    /* Applied to a later launch with in = D + 0x10 and out = A + 0xe00 (A is 0x1000 long:
     * the write is clipped to A's end; the read starts 4 bytes before D + 0x10). */
    cc_al_word w2[4];
    size_t nw2 = scan2(m, D + 0x10, A + 0xe00, w2);
    cc_al_access acc[8];
    uint32_t dropped = 9;
    size_t na = cc_al_apply(&s, w2, nw2, acc, 8, &dropped);
    CHECK_EQ_U64(na, 2);
    CHECK_EQ_U64(dropped, 0);
    CHECK_EQ_U64(acc[0].address, D + 0xc);
    CHECK_EQ_U64(acc[0].size, 0x404);
    CHECK_EQ_U64(acc[0].flags, CC_ACCESS_FLAG_READ);
    CHECK_EQ_U64(acc[1].address, A + 0xe00);
    CHECK_EQ_U64(acc[1].size, 0x200);
    CHECK_EQ_U64(acc[1].flags, CC_ACCESS_FLAG_WRITE);
    /* The read before a pointer at its allocation's base is clipped away at the front. */
    nw2 = scan2(m, D, A, w2);
    na = cc_al_apply(&s, w2, nw2, acc, 8, &dropped);
    CHECK_EQ_U64(na, 2);
    CHECK_EQ_U64(acc[0].address, D);
    CHECK_EQ_U64(acc[0].size, 0x400);
    /* A full output counts what it drops. */
    na = cc_al_apply(&s, w2, nw2, acc, 1, &dropped);
    CHECK_EQ_U64(na, 1);
    CHECK_EQ_U64(dropped, 1);
}

/* Two pointers into one allocation (two halves of one buffer), one read and written in place. */
static void test_same_allocation(cc_allocmap *m)
{
    cc_al_policy p;
    cc_al_policy_default(&p);
    p.learn_launches = 1;
    cc_al_kernel k;
    memset(&k, 0, sizeof k);
    static cc_al_shape s;
    memset(&s, 0, sizeof s);
    cc_al_word w[4];
    size_t nw = scan2(m, A, A + 0x800, w);
    cc_al_range r[1] = {rng(A, 0x1000, A, A + 0x1000, A, A + 0x1000)};
    uint64_t at;
    CHECK(cc_al_observe(&k, &s, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_LEARNED);
    /* Both words get the allocation's range relative to themselves: applied again they cover
     * the same bytes, as one read|write access. */
    cc_al_access acc[8];
    uint32_t dropped;
    size_t na = cc_al_apply(&s, w, nw, acc, 8, &dropped);
    CHECK_EQ_U64(na, 1);
    CHECK_EQ_U64(acc[0].address, A);
    CHECK_EQ_U64(acc[0].size, 0x1000);
    CHECK_EQ_U64(acc[0].flags, CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE);
}

/* A kernel that touches memory no pointer argument points into cannot be learned. */
static void test_stray(cc_allocmap *m)
{
    cc_al_policy p;
    cc_al_policy_default(&p);
    cc_al_kernel k;
    memset(&k, 0, sizeof k);
    static cc_al_shape s;
    memset(&s, 0, sizeof s);
    cc_al_word w[4];
    size_t nw = scan2(m, A, B, w);
    cc_al_range r[2] = {rng(A, 0x1000, A, A + 0x10, 0, 0), rng(C, 0x800, 0, 0, C + 8, C + 16)};
    uint64_t at = 0;
    for (uint32_t i = 0; i < p.stray_limit; i++) {
        CHECK(cc_al_decide(&k, &s, &p) == CC_AL_INSTRUMENT);
        CHECK(cc_al_observe(&k, &s, &p, w, nw, r, 2, 0, &at) == CC_AL_OBS_STRAY);
        CHECK_EQ_U64(at, C + 8);
    }
    CHECK(k.fallback == 1);
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_INFER);
    /* Accesses in no allocation at all (a module global) are strays too. */
    cc_al_kernel k2;
    memset(&k2, 0, sizeof k2);
    static cc_al_shape s2;
    memset(&s2, 0, sizeof s2);
    CHECK(cc_al_observe(&k2, &s2, &p, w, nw, r, 1, 3, &at) == CC_AL_OBS_STRAY);
    CHECK(s2.stray == 1 && k2.fallback == 0);
    /* A stray shape is never learned, even after learnable launches. */
    CHECK(cc_al_observe(&k2, &s2, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(cc_al_observe(&k2, &s2, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(cc_al_decide(&k2, &s2, &p) == CC_AL_INSTRUMENT);
    /* No room for a shape: inferred. */
    CHECK(cc_al_decide(&k2, NULL, &p) == CC_AL_INFER);
}

static void test_budget(void)
{
    cc_al_policy p;
    cc_al_policy_default(&p);
    cc_al_kernel k;
    memset(&k, 0, sizeof k);
    static cc_al_shape s;
    memset(&s, 0, sizeof s);
    k.instrumented = p.kernel_budget - 1;
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_INSTRUMENT);
    k.instrumented = p.kernel_budget;
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_INFER);
    s.observed = p.learn_launches; /* learned shapes still apply past the budget */
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_LEARNED);
}

/* A pointer argument whose allocation no instrumented access touched (cuBLAS reads its operands
 * with TMA loads, which no patch sees): its launches, learned ones included, get the inferred
 * range [pointer, allocation end) read and written; not once a launch touched it, and not when
 * the policy says no. */
static void test_untouched(cc_allocmap *m)
{
    cc_al_policy p;
    cc_al_policy_default(&p);
    CHECK_EQ_U64(p.untouched_inferred, 1);
    cc_al_kernel k;
    memset(&k, 0, sizeof k);
    static cc_al_shape s;
    memset(&s, 0, sizeof s);
    cc_al_word w[4];
    size_t nw = scan2(m, A + 0x100, B + 0x40, w);
    /* Two launches write B[0x40, 0x440); A is never touched. */
    cc_al_range r[1] = {rng(B, 0x1000, 0, 0, B + 0x40, B + 0x440)};
    uint64_t at = 0;
    cc_al_access acc[8];
    /* The instrumented launch itself: A from the pointer to its end. */
    CHECK_EQ_U64(cc_al_untouched(w, nw, r, 1, acc, 8), 1);
    CHECK_EQ_U64(acc[0].address, A + 0x100);
    CHECK_EQ_U64(acc[0].size, 0xf00);
    CHECK_EQ_U64(acc[0].flags,
                 CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_UNTOUCHED);
    CHECK(cc_al_observe(&k, &s, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(cc_al_observe(&k, &s, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(cc_al_decide(&k, &s, &p) == CC_AL_LEARNED);
    CHECK(s.facts[0].untouched == 1 && s.facts[1].untouched == 0);
    /* A later launch with the pointers in D and A. */
    cc_al_word w2[4];
    size_t nw2 = scan2(m, D + 0x800, A + 0x40, w2);
    uint32_t dropped = 0;
    size_t na = cc_al_apply(&s, w2, nw2, acc, 8, &dropped);
    CHECK_EQ_U64(na, 2);
    CHECK_EQ_U64(acc[0].address, D + 0x800);
    CHECK_EQ_U64(acc[0].size, 0x800);
    CHECK_EQ_U64(acc[0].flags,
                 CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_UNTOUCHED);
    CHECK_EQ_U64(acc[1].address, A + 0x40);
    CHECK_EQ_U64(acc[1].flags, CC_ACCESS_FLAG_WRITE);

    /* Touched by a later learnable launch: the facts then say what it did. */
    static cc_al_shape s2;
    memset(&s2, 0, sizeof s2);
    CHECK(cc_al_observe(&k, &s2, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    cc_al_range rr[2] = {rng(A, 0x1000, A + 0x100, A + 0x200, 0, 0), r[0]};
    CHECK(cc_al_observe(&k, &s2, &p, w, nw, rr, 2, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(s2.facts[0].untouched == 0 && s2.facts[0].read == 1 && s2.facts[0].written == 0);
    CHECK_EQ_U64(cc_al_untouched(w, nw, rr, 2, acc, 8), 0);

    /* Two pointers into one untouched allocation: one access, from the lower one. */
    cc_al_word w3[4];
    size_t nw3 = scan2(m, C + 0x400, C + 0x100, w3);
    CHECK_EQ_U64(cc_al_untouched(w3, nw3, NULL, 0, acc, 8), 1);
    CHECK_EQ_U64(acc[0].address, C + 0x100);
    CHECK_EQ_U64(acc[0].size, 0x700);

    /* The policy off: an untouched pointer is learned as not accessed. */
    p.untouched_inferred = 0;
    static cc_al_shape s3;
    memset(&s3, 0, sizeof s3);
    CHECK(cc_al_observe(&k, &s3, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    CHECK(cc_al_observe(&k, &s3, &p, w, nw, r, 1, 0, &at) == CC_AL_OBS_LEARNED);
    na = cc_al_apply(&s3, w2, nw2, acc, 8, &dropped);
    CHECK_EQ_U64(na, 1);
    CHECK_EQ_U64(acc[0].flags, CC_ACCESS_FLAG_WRITE);
}

static void test_range_accesses(void)
{
    cc_al_access a[2];
    cc_al_range r = rng(A, 0x100, A + 0x10, A + 0x20, A + 0x10, A + 0x20);
    CHECK_EQ_U64(cc_al_range_accesses(&r, a), 1);
    CHECK_EQ_U64(a[0].flags, CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE);
    r = rng(A, 0x100, A + 0x10, A + 0x20, A + 0xf8, A + 0x108); /* write runs past the end */
    CHECK_EQ_U64(cc_al_range_accesses(&r, a), 2);
    CHECK_EQ_U64(a[1].address, A + 0xf8);
    CHECK_EQ_U64(a[1].size, 8);
    r = rng(A, 0x100, 0, 0, 0, 0);
    CHECK_EQ_U64(cc_al_range_accesses(&r, a), 0);
}

int main(void)
{
    cc_allocmap *m = cc_allocmap_new();
    CHECK(m != NULL);
    if (m == NULL)
        TEST_MAIN_END();
    add(m, A, 0x1000);
    add(m, B, 0x1000);
    add(m, C, 0x800);
    add(m, D, 0x1000);
    test_scan(m);
    test_shape_key(m);
    test_learn_apply(m);
    test_same_allocation(m);
    test_stray(m);
    test_budget();
    test_untouched(m);
    test_range_accesses();
    cc_allocmap_free(m);
    TEST_MAIN_END();
}
