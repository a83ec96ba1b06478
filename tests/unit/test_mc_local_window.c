/* memcheck's local window (tools/memcheck/memcheck_windows.h, cc_mc_local_window_of): the bottom
 * is the window's 16 MiB end less the reserve above a thread's frames, the slack and the larger
 * of the kernel's stack and the context's stack limit; an unknown stack limit, a stack larger than the window or a top the
 * user set below the bottom leave the bottom unchecked; the top the user set moves only the end.
 * With nvcc: a kernel's frame and its callees' stack (the cubin's stack sizes) are read, so a
 * kernel whose own frame is empty still needs its callee's. */
#include "check.h"
#include "test_files.h"
#include "tools/memcheck/memcheck_windows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LW_BELOW_END (CC_MC_LOCAL_TOP_RESERVE + CC_MC_LOCAL_BOTTOM_SLACK)

static void check_window_arithmetic(void)
{
    const uint32_t end = CC_MC_LOCAL_WINDOW_END;
    cc_mc_local_window w = cc_mc_local_window_of(64, 1024, 0);
    CHECK_EQ_U64(w.end, end);
    CHECK_EQ_U64(w.lo, end - LW_BELOW_END - 1024);
    /* The frames measured under memcheck's patches start at 0xfffc00 (the pointer); the stack
     * reaches pointer - max(need, limit): inside the window. */
    const uint32_t sp = 0xfffc00u;
    CHECK(sp - 1024u >= w.lo && sp <= w.end);
    /* mc_local_oob's hist[2064]: 8,256 bytes above a 64-byte frame, past the end;
     * mc_local_under's scratch[-3000]: 12,000 bytes under a 128-byte frame, below lo. */
    CHECK((sp - 64u) + 2064u * 4u + 4u > w.end);
    w = cc_mc_local_window_of(128, 1024, 0);
    CHECK((sp - 128u) - 12000u < w.lo);
    /* The larger of the kernel's need and the limit: an 8 KiB frame under the 1 KiB default,
     * a 64 KiB limit over it. */
    w = cc_mc_local_window_of(8192, 1024, 0);
    CHECK_EQ_U64(w.lo, end - LW_BELOW_END - 8192);
    CHECK(sp - 8192u >= w.lo);
    w = cc_mc_local_window_of(8192, 65536, 0);
    CHECK_EQ_U64(w.lo, end - LW_BELOW_END - 65536);
    /* Unknown, or more than the window: no bottom. */
    w = cc_mc_local_window_of(64, UINT64_MAX, 0);
    CHECK_EQ_U64(w.lo, 0);
    CHECK_EQ_U64(w.end, end);
    w = cc_mc_local_window_of(UINT64_MAX, 1024, 0);
    CHECK_EQ_U64(w.lo, 0);
    w = cc_mc_local_window_of(64, (uint64_t)end, 0);
    CHECK_EQ_U64(w.lo, 0);
    w = cc_mc_local_window_of((uint64_t)end - LW_BELOW_END, 1024, 0);
    CHECK_EQ_U64(w.lo, 0);
    w = cc_mc_local_window_of((uint64_t)end - LW_BELOW_END - 16, 1024, 0);
    CHECK_EQ_U64(w.lo, 16);
    /* A top the user set moves the end only; below the bottom it leaves the bottom unchecked. */
    w = cc_mc_local_window_of(64, 1024, 0xfffc40u);
    CHECK_EQ_U64(w.end, 0xfffc40u);
    CHECK_EQ_U64(w.lo, end - LW_BELOW_END - 1024);
    w = cc_mc_local_window_of(64, 1024, 0x1000u);
    CHECK_EQ_U64(w.end, 0x1000u);
    CHECK_EQ_U64(w.lo, 0);
}

static const char *calls_cu =
    "__device__ __noinline__ int leaf(const int *in, int n) {\n"
    "    int a[256];\n"
    "    for (int k = 0; k < 256; k++) a[k] = 0;\n"
    "    for (int k = 0; k < 256; k++) a[in[k] & 255] += k;\n"
    "    return a[n & 255];\n"
    "}\n"
    "extern \"C\" __global__ void caller(const int *in, int *out, int n) {\n"
    "    out[threadIdx.x] = leaf(in, n + threadIdx.x);\n"
    "}\n"
    "extern \"C\" __global__ void framed(const int *in, int *out, int n) {\n"
    "    int b[64];\n"
    "    for (int k = 0; k < 64; k++) b[k] = 0;\n"
    "    for (int k = 0; k < 64; k++) b[in[k] & 63] += k;\n"
    "    out[threadIdx.x] = b[(n + threadIdx.x) & 63];\n"
    "}\n";

static void check_stack_facts(void)
{
    char cu[1024], cubin[1024], cmd[3072], err[256];
    snprintf(cu, sizeof cu, "%s/mclw_calls.cu", CC_TEST_BINARY_DIR);
    snprintf(cubin, sizeof cubin, "%s/mclw_calls.cubin", CC_TEST_BINARY_DIR);
    CHECK(cc_test_write_file(cu, calls_cu) == 0);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -arch=sm_90 -o '%s' '%s'", cubin, cu);
    CHECK(system(cmd) == 0);
    size_t len = 0;
    unsigned char *c = (unsigned char *)cc_test_read_file(cubin, &len);
    CHECK(c != NULL);
    if (c == NULL) {
        return;
    }
    cc_mc_kernel_windows w;
    CHECK(cc_mc_kernel_windows_of(c, len, "framed", &w, err, sizeof err) == 1);
    CHECK(w.frame_bytes >= 256);
    CHECK(w.stack_bytes == 0 || w.stack_bytes >= w.frame_bytes);
    /* A callee's 1 KiB array is in the caller's stack size (ptxas may inline it into the
     * caller's frame instead: either way the need covers it). */
    CHECK(cc_mc_kernel_windows_of(c, len, "caller", &w, err, sizeof err) == 1);
    CHECK(w.stack_bytes >= 1024 || w.frame_bytes >= 1024);
    free(c);
}

int main(void)
{
    check_window_arithmetic();
    if (!cc_test_have_nvcc()) {
        printf("skipped: nvcc not found\n");
        TEST_MAIN_END();
    }
    check_stack_facts();
    TEST_MAIN_END();
}
