/* The kernel parameter layout reader (symbols/kparams.h) against a cubin nvcc compiles at test
 * time: offsets and sizes of every parameter of kernels with mixed argument types (int, pointer,
 * char, a 16-byte struct, short, a 12-byte struct), and a parameterless kernel (no records).
 * Garbage input gives an error, not a crash. Without nvcc the test prints "skipped". */
#include "check.h"
#include "test_files.h"
#include "symbols/kparams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kernels_cu =
    "struct S { int a; double *p; };\n"
    "struct T { float x, y, z; };\n"
    "extern \"C\" __global__ void mixed(int n, float *out, char c, double *in, S s, short h,\n"
    "                                  T t) {\n"
    "    if (n) out[0] = in[0] + c + h + s.a + *s.p + t.x + t.z;\n"
    "}\n"
    "extern \"C\" __global__ void noargs() {}\n"
    "extern \"C\" __global__ void two(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; }\n";

typedef struct seen {
    int mixed, two, noargs;
    cc_kparam m[16];
    uint32_t nm, mixed_bytes;
    cc_kparam t[4];
    uint32_t nt;
} seen;

static int on_kernel(const char *k, const cc_kparam *p, uint32_t n, uint32_t bytes, void *user)
{
    seen *s = user;
    if (strcmp(k, "mixed") == 0) {
        s->mixed++;
        s->nm = n;
        s->mixed_bytes = bytes;
        memcpy(s->m, p, (n < 16 ? n : 16) * sizeof *p);
    } else if (strcmp(k, "two") == 0) {
        s->two++;
        s->nt = n;
        memcpy(s->t, p, (n < 4 ? n : 4) * sizeof *p);
    } else if (strcmp(k, "noargs") == 0) {
        s->noargs++;
    }
    return 0;
}

static void check_arch(const char *dir, const char *cu, const char *arch)
{
    char cubin[1024], cmd[3072];
    snprintf(cubin, sizeof cubin, "%s/kparams_%s.cubin", dir, arch);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -arch=%s -o '%s' '%s'", arch, cubin, cu);
    CHECK(system(cmd) == 0);
    size_t len = 0;
    unsigned char *data = (unsigned char *)cc_test_read_file(cubin, &len);
    CHECK(data != NULL);
    if (!data)
        return;
    seen s;
    memset(&s, 0, sizeof s);
    char err[256];
    int rc = cc_cubin_kparams(data, len, on_kernel, &s, err, sizeof err);
    CHECK(rc >= 2);
    CHECK(s.mixed == 1);
    CHECK(s.two == 1);
    CHECK(s.noargs == 0); /* no parameters, no records */
    /* (int n, float *out, char c, double *in, S s, short h, T t) */
    static const uint32_t off[] = {0, 8, 16, 24, 32, 48, 52};
    static const uint32_t size[] = {4, 8, 1, 8, 16, 2, 12};
    CHECK_EQ_U64(s.nm, 7);
    for (uint32_t i = 0; i < 7 && i < s.nm; i++) {
        CHECK_EQ_U64(s.m[i].ordinal, i);
        CHECK_EQ_U64(s.m[i].offset, off[i]);
        CHECK_EQ_U64(s.m[i].size, size[i]);
    }
    CHECK_EQ_U64(s.mixed_bytes, 64);
    CHECK_EQ_U64(s.nt, 2);
    CHECK_EQ_U64(s.t[1].offset, 8);
    CHECK_EQ_U64(s.t[1].size, 8);
    /* A truncated cubin is an error or yields fewer kernels, never a crash. */
    rc = cc_cubin_kparams(data, len / 3, on_kernel, &s, err, sizeof err);
    CHECK(rc < 2);
    free(data);
}

int main(void)
{
    char err[256];
    unsigned char junk[64] = {0x7f, 'E', 'L', 'F'};
    CHECK(cc_cubin_kparams(junk, sizeof junk, NULL, NULL, err, sizeof err) == -1);
    cc_kparam p;
    CHECK(cc_kparam_decode(junk, 11, &p) == -1);
    if (!cc_test_have_nvcc()) {
        printf("skipped: nvcc not found\n");
        TEST_MAIN_END();
    }
    char cu[1024];
    snprintf(cu, sizeof cu, "%s/kparams.cu", CC_TEST_BINARY_DIR);
    int written = cc_test_write_file(cu, kernels_cu);
    CHECK(written == 0);
    if (written != 0)
        TEST_MAIN_END();
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_80");
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_90");
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_120");
    TEST_MAIN_END();
}
