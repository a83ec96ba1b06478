/* racecheck's reading of kernel code (src/agent/tools/racecheck/rc_cubin.h) against cubins nvcc
 * compiles at test time for sm_75, sm_90 and sm_120: a kernel with __threadfence() between its
 * data store and its flag has a fence after the store and none after its last instruction; a
 * kernel without one has none; grid.sync() of a cooperative kernel contains one; a kernel's
 * static shared memory ends after its arrays (and the system's 1 KiB from sm_90 on); an unknown kernel's code is not found; a
 * kernel with one global load or store of each ordering (weak, .nc, volatile, .relaxed at .cta and
 * .gpu scope) has exactly three weak accesses, two strong at block scope and four strong at GPU
 * or system scope, on sm_75, sm_90 and sm_120; a cubin cut anywhere never crashes the reader.
 * Without nvcc the test prints "skipped". */
#include "check.h"
#include "test_files.h"
#include "agent/tools/racecheck/rc_cubin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kernels_cu =
    "#include <cooperative_groups.h>\n"
    "extern \"C\" __global__ void fenced(int *d, int *f) { d[0] = 1; __threadfence(); "
    "atomicExch(f, 1); }\n"
    "extern \"C\" __global__ void unfenced(int *d, int *f) { d[0] = 1; atomicExch(f, 1); }\n"
    "extern \"C\" __global__ void gridsync(float *p) { p[blockIdx.x] = 1.0f; "
    "cooperative_groups::this_grid().sync(); if (blockIdx.x == 0) p[0] += p[1]; }\n"
    "extern \"C\" __global__ void tile(float *o) { __shared__ float s[300]; "
    "s[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = s[299 - threadIdx.x]; }\n"
    "extern \"C\" __global__ void orders(int *p, const int *__restrict__ q) {\n"
    "  int a, b, c, d, e; int *x = p + threadIdx.x;\n"
    "  asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(a) : \"l\"(x));\n"
    "  asm volatile(\"ld.global.nc.u32 %0, [%1];\" : \"=r\"(b) : \"l\"(q + threadIdx.x));\n"
    "  asm volatile(\"ld.volatile.global.u32 %0, [%1];\" : \"=r\"(c) : \"l\"(x + 64));\n"
    "  asm volatile(\"ld.relaxed.gpu.global.u32 %0, [%1];\" : \"=r\"(d) : \"l\"(x + 128));\n"
    "  asm volatile(\"ld.relaxed.cta.global.u32 %0, [%1];\" : \"=r\"(e) : \"l\"(x + 192));\n"
    "  asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(x + 256), \"r\"(a + b));\n"
    "  asm volatile(\"st.volatile.global.u32 [%0], %1;\" :: \"l\"(x + 320), \"r\"(c));\n"
    "  asm volatile(\"st.relaxed.gpu.global.u32 [%0], %1;\" :: \"l\"(x + 384), \"r\"(d));\n"
    "  asm volatile(\"st.relaxed.cta.global.u32 [%0], %1;\" :: \"l\"(x + 448), \"r\"(e));\n"
    "}\n";

/* How many of the kernel's instructions read as each ordering (index: cc_rc_order + 1). */
static void count_orders(const unsigned char *data, size_t len, const char *kernel, int n[4])
{
    cc_elf_section text;
    memset(n, 0, 4 * sizeof n[0]);
    if (!cc_rc_cubin_section(data, len, ".text.", kernel, &text))
        return;
    for (uint64_t pc = 0; pc + CC_RC_SASS_INSN <= text.size; pc += CC_RC_SASS_INSN)
        n[cc_rc_access_order(data, len, kernel, pc) + 1]++;
}

static void check_cubin(const char *path, uint64_t reserved)
{
    size_t len = 0;
    unsigned char *data = (unsigned char *)cc_test_read_file(path, &len);
    CHECK(data != NULL);
    if (!data)
        return;
    CHECK(cc_rc_fence_after(data, len, "fenced", 0) == 1);
    CHECK(cc_rc_fence_after(data, len, "unfenced", 0) == 0);
    CHECK(cc_rc_fence_after(data, len, "gridsync", 0) == 1);
    CHECK(cc_rc_fence_after(data, len, "nosuchkernel", 0) == -1);
    /* Past its last instruction no fence follows. */
    cc_elf_section text;
    CHECK(cc_rc_cubin_section(data, len, ".text.", "fenced", &text));
    CHECK(cc_rc_fence_after(data, len, "fenced", text.size) == 0);
    CHECK_EQ_U64(cc_rc_static_shared(data, len, "tile"), reserved + 300 * sizeof(float));
    CHECK_EQ_U64(cc_rc_static_shared(data, len, "fenced"), 0);
    CHECK_EQ_U64(cc_rc_static_shared(NULL, 0, "tile"), 0);
    int n[4];
    count_orders(data, len, "orders", n);
    CHECK_EQ_U64(n[CC_RC_ORDER_WEAK + 1], 3);
    CHECK_EQ_U64(n[CC_RC_ORDER_STRONG_BLOCK + 1], 2);
    CHECK_EQ_U64(n[CC_RC_ORDER_STRONG_GPU + 1], 4);
    CHECK(cc_rc_access_order(data, len, "orders", 1) == CC_RC_ORDER_UNKNOWN); /* not an insn */
    CHECK(cc_rc_access_order(data, len, "nosuchkernel", 0) == CC_RC_ORDER_UNKNOWN);
    for (size_t cut = 0; cut < len; cut += len / 97 + 1) {
        (void)cc_rc_access_order(data, cut, "orders", 16);
        (void)cc_rc_fence_after(data, cut, "fenced", 0);
        (void)cc_rc_static_shared(data, cut, "tile");
    }
    free(data);
}

static void check_arch(const char *dir, const char *cu, const char *arch, uint64_t reserved)
{
    char cubin[1024], cmd[4096];
    snprintf(cubin, sizeof cubin, "%s/rc_cubin_%s.cubin", dir, arch);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -O2 -arch=%s -o '%s' '%s'", arch, cubin, cu);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "failed: %s\n", cmd);
    CHECK(rc == 0);
    if (rc == 0)
        check_cubin(cubin, reserved);
}

int main(void)
{
    if (!cc_test_have_nvcc()) {
        printf("skipped: nvcc not found\n");
        TEST_MAIN_END();
    }
    char cu[1024];
    snprintf(cu, sizeof cu, "%s/rc_cubin.cu", CC_TEST_BINARY_DIR);
    int written = cc_test_write_file(cu, kernels_cu);
    CHECK(written == 0);
    if (written != 0)
        TEST_MAIN_END();
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_75", 0);
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_90", 1024); /* the system's part of the window */
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_120", 1024);
    TEST_MAIN_END();
}
