/* Unit tests of the pointer inference of streamcheck --mode api (core/ptr_infer.h): pointers at
 * an allocation's base, inside it, one past its end (not a pointer into it), host addresses and
 * small integers, argument slots (unaligned and short ones skipped, a struct slot scanned word
 * by word), both range policies, duplicates and overlaps merged, a full output array, and the
 * packed buffer of a cuLaunchKernel `extra` list. */
#include <string.h>
#include "check.h"
#include "core/allocmap.h"
#include "core/ptr_infer.h"
#include "cucheck/event.h"

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

int main(void)
{
    cc_allocmap *m = cc_allocmap_new();
    CHECK(m != NULL);
    if (m == NULL)
        TEST_MAIN_END();
    add(m, 0x7f0000000000ull, 0x1000); /* A */
    add(m, 0x7f0000100000ull, 0x400);  /* B */
    add(m, 0x7f0000200000ull, 0x800);  /* C */
    cc_ptr_range out[8];
    cc_ptr_infer_stats st;
    unsigned char buf[64];

    /* Every aligned word when no layout is known: base of A, inside B, one past C's end,
     * a host pointer, a small integer; the one-past-end word must not count. */
    memset(buf, 0, sizeof buf);
    put(buf, 0, 0x7f0000000000ull);
    put(buf, 8, 0x7f0000100010ull);
    put(buf, 16, 0x7f0000200800ull);
    put(buf, 24, (uint64_t)(uintptr_t)&st);
    put(buf, 32, 42);
    size_t n = cc_ptr_infer(buf, 40, NULL, 0, m, CC_PTR_TO_END, out, 8, &st);
    CHECK_EQ_U64(n, 2);
    CHECK_EQ_U64(st.words, 5);
    CHECK_EQ_U64(st.pointers, 2);
    CHECK_EQ_U64(out[0].address, 0x7f0000000000ull);
    CHECK_EQ_U64(out[0].size, 0x1000);
    CHECK_EQ_U64(out[1].address, 0x7f0000100010ull); /* from the pointer to B's end */
    CHECK_EQ_U64(out[1].size, 0x400 - 0x10);
    /* The whole-allocation policy starts at B's base. */
    n = cc_ptr_infer(buf, 40, NULL, 0, m, CC_PTR_WHOLE_ALLOC, out, 8, NULL);
    CHECK_EQ_U64(n, 2);
    CHECK_EQ_U64(out[1].address, 0x7f0000100000ull);
    CHECK_EQ_U64(out[1].size, 0x400);
    /* A trailing partial word is not read. */
    n = cc_ptr_infer(buf, 15, NULL, 0, m, CC_PTR_TO_END, out, 8, &st);
    CHECK_EQ_U64(st.words, 1);
    CHECK_EQ_U64(n, 1);

    /* Duplicates and overlaps merge: two pointers into A (base and +0x100) and A's base again. */
    memset(buf, 0, sizeof buf);
    put(buf, 0, 0x7f0000000100ull);
    put(buf, 8, 0x7f0000000000ull);
    put(buf, 16, 0x7f0000000000ull);
    put(buf, 24, 0x7f0000200000ull);
    n = cc_ptr_infer(buf, 32, NULL, 0, m, CC_PTR_TO_END, out, 8, &st);
    CHECK_EQ_U64(st.pointers, 4);
    CHECK_EQ_U64(n, 2);
    CHECK_EQ_U64(out[0].address, 0x7f0000000000ull);
    CHECK_EQ_U64(out[0].size, 0x1000);
    CHECK_EQ_U64(out[1].address, 0x7f0000200000ull);
    CHECK_EQ_U64(out[1].size, 0x800);

    /* Argument slots (as KPARAM_INFO gives them) for (int n, float *p, char c, S s) with
     * struct S { int a; double *q; }: offsets 0, 8, 16, 24 sizes 4, 8, 1, 16. A device address
     * left in the padding after n (bytes 0..7 as a word) or after c must not be taken; the
     * pointer inside the struct must. */
    cc_ptr_slot slots[] = {{0, 4}, {8, 8}, {16, 1}, {24, 16}};
    memset(buf, 0, sizeof buf);
    put(buf, 0, 0x7f0000000000ull);  /* n's word: only 4 bytes are n */
    put(buf, 8, 0x7f0000100000ull);  /* p -> B */
    put(buf, 16, 0x7f0000000010ull); /* c's word: padding */
    put(buf, 24, 7);                 /* s.a */
    put(buf, 32, 0x7f0000200100ull); /* s.q -> C + 0x100 */
    n = cc_ptr_infer(buf, 40, slots, 4, m, CC_PTR_TO_END, out, 8, &st);
    CHECK_EQ_U64(st.words, 3); /* p, s's two words */
    CHECK_EQ_U64(n, 2);
    CHECK_EQ_U64(out[0].address, 0x7f0000100000ull);
    CHECK_EQ_U64(out[1].address, 0x7f0000200100ull);
    CHECK_EQ_U64(out[1].size, 0x700);
    /* An unaligned 8-byte slot (packed buffer: offset 4) is scanned from the next aligned word
     * only where a whole word fits in it: none. A slot past the buffer is clipped. */
    cc_ptr_slot odd[] = {{4, 8}, {40, 8}};
    n = cc_ptr_infer(buf, 40, odd, 2, m, CC_PTR_TO_END, out, 8, &st);
    CHECK_EQ_U64(st.words, 0);
    CHECK_EQ_U64(n, 0);

    /* A full output array: merged ranges still count, a new one is dropped and counted. */
    memset(buf, 0, sizeof buf);
    put(buf, 0, 0x7f0000000000ull);
    put(buf, 8, 0x7f0000100000ull);
    put(buf, 16, 0x7f0000000008ull);
    n = cc_ptr_infer(buf, 24, NULL, 0, m, CC_PTR_TO_END, out, 1, &st);
    CHECK_EQ_U64(n, 1);
    CHECK_EQ_U64(st.dropped, 1);
    CHECK_EQ_U64(out[0].address, 0x7f0000000000ull);

    /* A freed allocation no longer counts. */
    cc_alloc_rec gone;
    CHECK(cc_allocmap_remove(m, 0x7f0000100000ull, 0, &gone) == CC_FREE_OK);
    n = cc_ptr_infer(buf, 24, NULL, 0, m, CC_PTR_TO_END, out, 8, &st);
    CHECK_EQ_U64(n, 1);
    CHECK_EQ_U64(st.pointers, 2);

    /* A cuLaunchKernel `extra` list: buffer pointer and size in either order, END-terminated. */
    size_t bsize = 24, got = 0;
    void *extra[] = {(void *)2, &bsize, (void *)1, buf, (void *)0, NULL};
    CHECK(cc_ptr_extra_buffer(extra, 16, 32768, &got) == buf);
    CHECK_EQ_U64(got, 24);
    CHECK(cc_ptr_extra_buffer(extra, 16, 16, &got) == buf); /* capped */
    CHECK_EQ_U64(got, 16);
    void *no_buf[] = {(void *)2, &bsize, (void *)0};
    CHECK(cc_ptr_extra_buffer(no_buf, 16, 32768, &got) == NULL);
    CHECK_EQ_U64(got, 0);
    void *unknown[] = {(void *)7, buf, (void *)1, buf, (void *)0};
    CHECK(cc_ptr_extra_buffer(unknown, 16, 32768, &got) == NULL);
    CHECK(cc_ptr_extra_buffer(NULL, 16, 32768, &got) == NULL);

    /* Degenerate inputs. */
    CHECK_EQ_U64(cc_ptr_infer(NULL, 8, NULL, 0, m, CC_PTR_TO_END, out, 8, NULL), 0);
    CHECK_EQ_U64(cc_ptr_infer(buf, 8, NULL, 0, NULL, CC_PTR_TO_END, out, 8, NULL), 0);
    cc_allocmap_free(m);
    TEST_MAIN_END();
}
