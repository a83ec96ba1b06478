/* initcheck's initialised ranges (src/tools/initcheck/init_ranges.c): the issue's cases (a
 * memset over half a buffer, a device copy carrying uninitialised bytes, a copy to the host
 * asking for its first uninitialised byte, a reused block cleared again) and a randomized
 * comparison with a byte-per-byte model over marks, clears, copies (overlapping ones within one
 * buffer too) and queries, checking after every step that the ranges stay sorted, disjoint and
 * merged. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "tools/initcheck/init_ranges.h"

#define MODEL_BYTES 512u

static int well_formed(const cc_init_ranges *r)
{
    for (size_t i = 0; i < r->n; i++) {
        if (r->v[i].lo >= r->v[i].hi) {
            return 0;
        }
        if (i > 0 && r->v[i - 1].hi >= r->v[i].lo) {
            return 0; /* overlapping or touching: should have merged */
        }
    }
    return 1;
}

static int same_as_model(const cc_init_ranges *r, const unsigned char *model)
{
    for (uint32_t b = 0; b < MODEL_BYTES; b++) {
        if (cc_init_all(r, b, b + 1) != model[b]) {
            return 0;
        }
    }
    return cc_init_all(r, MODEL_BYTES, MODEL_BYTES + 64) == 0 || r->n == 0 ||
           r->v[r->n - 1].hi <= MODEL_BYTES;
}

static uint32_t rng_state = 12345u;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

static void test_issue_cases(void)
{
    cc_init_ranges buf = {0}, dst = {0};
    /* A memset over half a buffer leaves the other half uninitialised. */
    CHECK(cc_init_mark(&buf, 0, 512) == 0);
    uint64_t missing = 0;
    CHECK_EQ_U64(cc_init_first_uninit(&buf, 0, 1024, &missing), 512);
    CHECK_EQ_U64(missing, 512);
    CHECK(cc_init_all(&buf, 0, 512));
    CHECK(!cc_init_all(&buf, 0, 513));
    /* A device copy of the whole buffer carries the state: the destination's second half is
     * uninitialised, its first half initialised. */
    CHECK(cc_init_mark(&dst, 0, 1024) == 0); /* whatever it held before is overwritten */
    CHECK(cc_init_copy(&dst, 0, &buf, 0, 1024) == 0);
    CHECK(cc_init_all(&dst, 0, 512));
    CHECK_EQ_U64(cc_init_first_uninit(&dst, 0, 1024, &missing), 512);
    CHECK_EQ_U64(missing, 512);
    /* A copy to the host of bytes 256..768 reads 256 uninitialised bytes from 512 on. */
    CHECK_EQ_U64(cc_init_first_uninit(&dst, 256, 768, &missing), 512);
    CHECK_EQ_U64(missing, 256);
    /* A kernel writes every other 4-byte word of the second half: 64 ranges, then fills the
     * gaps: one range again. */
    for (uint64_t a = 512; a < 1024; a += 8) {
        CHECK(cc_init_mark(&dst, a, a + 4) == 0);
    }
    CHECK_EQ_U64(dst.n, 64); /* [0, 516) (the first word merged), then 63 more */
    for (uint64_t a = 516; a < 1024; a += 8) {
        CHECK(cc_init_mark(&dst, a, a + 4) == 0);
    }
    CHECK_EQ_U64(dst.n, 1);
    CHECK_EQ_U64(cc_init_bytes(&dst), 1024);
    /* The caching allocator hands the block to a new tensor: uninitialised again. */
    CHECK(cc_init_clear(&dst, 0, 1024) == 0);
    CHECK_EQ_U64(dst.n, 0);
    CHECK_EQ_U64(cc_init_first_uninit(&dst, 100, 101, NULL), 100);
    /* Clearing the middle of a range splits it. */
    CHECK(cc_init_mark(&dst, 0, 100) == 0);
    CHECK(cc_init_clear(&dst, 40, 60) == 0);
    CHECK_EQ_U64(dst.n, 2);
    CHECK_EQ_U64(cc_init_first_uninit(&dst, 0, 100, &missing), 40);
    CHECK_EQ_U64(missing, 20);
    /* Empty and inverted spans change nothing; an offset range that wraps is refused. */
    CHECK(cc_init_mark(&dst, 50, 50) == 0 && cc_init_clear(&dst, 70, 10) == 0);
    CHECK_EQ_U64(dst.n, 2);
    CHECK(cc_init_copy(&dst, UINT64_MAX - 4, &buf, 0, 16) == -1);
    CHECK_EQ_U64(dst.n, 2);
    CHECK(cc_init_all(&dst, 10, 10));
    cc_init_ranges_free(&buf);
    cc_init_ranges_free(&dst);
}

static void test_against_model(void)
{
    cc_init_ranges a = {0}, b = {0};
    unsigned char ma[MODEL_BYTES] = {0}, mb[MODEL_BYTES] = {0}, tmp[MODEL_BYTES];
    for (int step = 0; step < 20000; step++) {
        uint32_t lo = rnd(MODEL_BYTES), len = rnd(MODEL_BYTES - lo) + 1, hi = lo + len;
        int which = (int)rnd(2);
        cc_init_ranges *r = which ? &b : &a;
        unsigned char *m = which ? mb : ma;
        switch (rnd(4)) {
        case 0:
            CHECK(cc_init_mark(r, lo, hi) == 0);
            memset(&m[lo], 1, len);
            break;
        case 1:
            CHECK(cc_init_clear(r, lo, hi) == 0);
            memset(&m[lo], 0, len);
            break;
        case 2: { /* a copy between the two buffers, either way */
            uint32_t dlo = rnd(MODEL_BYTES - len + 1);
            cc_init_ranges *s = which ? &a : &b;
            const unsigned char *ms = which ? ma : mb;
            CHECK(cc_init_copy(r, dlo, s, lo, len) == 0);
            memcpy(tmp, &ms[lo], len);
            memcpy(&m[dlo], tmp, len);
            break;
        }
        default: { /* a copy inside one buffer, overlapping or not (memmove) */
            uint32_t dlo = rnd(MODEL_BYTES - len + 1);
            CHECK(cc_init_copy(r, dlo, r, lo, len) == 0);
            memmove(&m[dlo], &m[lo], len);
            break;
        }
        }
        CHECK(well_formed(r));
        CHECK(same_as_model(r, m));
        /* A query: the first uninitialised byte and the count of them in a random span. */
        uint32_t qlo = rnd(MODEL_BYTES), qhi = qlo + rnd(MODEL_BYTES - qlo) + 1;
        uint64_t want_first = UINT64_MAX, want_count = 0, got_count = 0;
        for (uint32_t i = qlo; i < qhi; i++) {
            if (!m[i]) {
                want_count++;
                if (want_first == UINT64_MAX) {
                    want_first = i;
                }
            }
        }
        CHECK_EQ_U64(cc_init_first_uninit(r, qlo, qhi, &got_count), want_first);
        CHECK_EQ_U64(got_count, want_count);
        if (cc_test_failures > 0) {
            fprintf(stderr, "first failure at step %d\n", step);
            break;
        }
    }
    uint64_t ones = 0;
    for (uint32_t i = 0; i < MODEL_BYTES; i++) {
        ones += ma[i];
    }
    CHECK_EQ_U64(cc_init_bytes(&a), ones);
    cc_init_ranges_free(&a);
    cc_init_ranges_free(&b);
}

int main(void)
{
    test_issue_cases();
    test_against_model();
    return cc_test_failures != 0;
}
