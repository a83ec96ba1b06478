/* The GPU core dump reader on synthetic dumps: the faulting lane's grid, block, thread, warp,
 * SM, exception and PC; the grid table row and the module's relocated image; kernel name and
 * pc offset from the image; dumps without a fault; and truncated or corrupted dumps (every
 * prefix and single-byte corruptions must be rejected or read without crashing); all of it also
 * with ELF extended section numbering (e_shnum 0), which real dumps of a full GPU use.
 * With an argument, writes the synthetic dump there (the fuzz corpus seed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cudacore_synth.h"
#include "symbols/cudacore_dump.h"

static void test_fault(void)
{
    size_t isz, dsz;
    unsigned char *img = sy_image("_Z6kernelPi", 0x7f0000001000ull, 0x400, &isz);
    unsigned char *d = sy_dump(0x1234567890ull, 6, 77, 14, 0x7f0000001000ull,
                               0x7f0000001150ull, img, isz, &dsz);
    char err[200];
    cc_cudacore_fault f;
    CHECK(cc_cudacore_is_dump(d, dsz));
    CHECK(!cc_cudacore_is_dump(img, isz));
    CHECK(cc_cudacore_parse(d, dsz, &f, err, sizeof err) == 1);
    CHECK_EQ_U64(f.grid_id, 0x1234567890ull);
    CHECK_EQ_U64(f.block[0], 6);
    CHECK_EQ_U64(f.block[1], 1);
    CHECK_EQ_U64(f.thread[0], 77);
    CHECK_EQ_U64(f.lane, 3);
    CHECK_EQ_U64(f.warp, 5);
    CHECK_EQ_U64(f.sm, 1);
    CHECK_EQ_U64(f.device, 0);
    CHECK_EQ_U64(f.exception, 14);
    CHECK_STR(cc_cudacore_exception_name(f.exception), "Warp - Illegal address");
    CHECK(f.pc_valid);
    CHECK_EQ_U64(f.pc, 0x7f0000001150ull); /* the warp's error PC, not the lane's */
    CHECK_EQ_U64(f.faulting_lanes, 1);
    CHECK_EQ_U64(f.faulting_warps, 1);
    CHECK(f.grid_found);
    CHECK_EQ_U64(f.function_entry, 0x7f0000001000ull);
    CHECK_EQ_U64(f.module, 0xabc);
    CHECK_EQ_U64(f.context, 0x5000);
    CHECK_EQ_U64(f.grid_dim[0], 8);
    CHECK_EQ_U64(f.grid_dim[1], 2);
    CHECK_EQ_U64(f.block_dim[0], 64);
    CHECK_EQ_U64(f.host_tid, 4321);
    CHECK(f.image != NULL && f.image_size == isz);

    char kernel[64];
    uint64_t off = 0;
    const char *file = NULL;
    uint32_t line = 9;
    CHECK(cc_cudacore_locate(&f, kernel, sizeof kernel, &off, &file, &line) == 0); /* no lines */
    CHECK_STR(kernel, "_Z6kernelPi");
    CHECK_EQ_U64(off, 0x150);
    CHECK_STR(file, "");
    CHECK_EQ_U64(line, 0);

    /* without the image: the offset still comes from the grid's entry */
    free(d);
    d = sy_dump(0x1234567890ull, 6, 77, 14, 0x7f0000001000ull, 0x7f0000001150ull, NULL, 0, &dsz);
    CHECK(cc_cudacore_parse(d, dsz, &f, err, sizeof err) == 1);
    CHECK(f.image == NULL);
    CHECK(cc_cudacore_locate(&f, kernel, sizeof kernel, &off, &file, &line) == 0);
    CHECK_STR(kernel, "");
    CHECK_EQ_U64(off, 0x150);
    free(d);
    free(img);
}

static void test_no_fault(void)
{
    size_t dsz;
    unsigned char *d = sy_dump(7, 0, 0, 0, 0x1000, 0x1010, NULL, 0, &dsz);
    /* clear the broken warp's flags: nothing faulted */
    char err[200];
    cc_cudacore_fault f;
    /* find the warp table row flags by parsing once, then patch via a fresh build */
    CHECK(cc_cudacore_parse(d, dsz, &f, err, sizeof err) == 1); /* warp 5 still has error PC */
    CHECK_EQ_U64(f.faulting_lanes, 0);
    CHECK_EQ_U64(f.exception, 0);
    CHECK_EQ_U64(f.lane, UINT32_MAX);
    CHECK_EQ_U64(f.warp, 5);
    free(d);

    /* an ELF that is no dump */
    size_t isz;
    unsigned char *img = sy_image("k", 0x1000, 16, &isz);
    CHECK(cc_cudacore_parse(img, isz, &f, err, sizeof err) == -1);
    CHECK(strstr(err, "not a GPU core dump") != NULL);
    free(img);
    CHECK(cc_cudacore_parse("junk", 4, &f, err, sizeof err) == -1);
    CHECK(cc_cudacore_parse(NULL, 0, &f, err, sizeof err) == -1);
}

static void test_corrupt(void)
{
    size_t isz, dsz;
    unsigned char *img = sy_image("_Z1kv", 0x2000, 0x100, &isz);
    unsigned char *d = sy_dump(42, 1, 2, 6, 0x2000, 0x2040, img, isz, &dsz);
    char err[200];
    cc_cudacore_fault f;
    char kernel[64];
    uint64_t off;
    const char *file;
    uint32_t line;
    for (size_t n = 0; n < dsz; n += 7) { /* prefixes: no crash, never a wrong success */
        unsigned char *p = malloc(n ? n : 1);
        memcpy(p, d, n);
        int r = cc_cudacore_parse(p, n, &f, err, sizeof err);
        CHECK(r == -1 || r == 0 || r == 1);
        if (r == 1)
            cc_cudacore_locate(&f, kernel, sizeof kernel, &off, &file, &line);
        free(p);
    }
    unsigned char *p = malloc(dsz);
    for (size_t i = 0; i < dsz; i += 3) { /* single-byte corruptions */
        memcpy(p, d, dsz);
        p[i] ^= 0xff;
        if (cc_cudacore_parse(p, dsz, &f, err, sizeof err) == 1)
            cc_cudacore_locate(&f, kernel, sizeof kernel, &off, &file, &line);
    }
    free(p);
    free(d);
    free(img);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        size_t isz, dsz;
        unsigned char *img = sy_image("_Z6kernelPi", 0x7f0000001000ull, 0x40, &isz);
        unsigned char *d = sy_dump(0x1234, 6, 77, 14, 0x7f0000001000ull, 0x7f0000001010ull, img,
                                   isz, &dsz);
        FILE *fp = fopen(argv[1], "wb");
        if (!fp || fwrite(d, 1, dsz, fp) != dsz || fclose(fp) != 0)
            return 1;
        free(d);
        free(img);
        return 0;
    }
    test_fault();
    test_no_fault();
    test_corrupt();
    sy_extended = 1; /* real dumps of a full GPU have > 65535 sections: extended numbering */
    test_fault();
    test_corrupt();
    TEST_MAIN_END();
}
