/* memcheck's kernel window facts (tools/memcheck/memcheck_windows.h) against cubins nvcc builds
 * at test time: the shared window's reserved start (1024 bytes on sm_90+, 0 before) and static
 * size of kernels with and without static shared memory, a missing kernel, device-heap use
 * (malloc, free, aligned malloc) found and not found, and garbage or truncated input rejected
 * without a crash. Without nvcc only the input checks run. */
#include "check.h"
#include "test_files.h"
#include "tools/memcheck/memcheck_windows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *plain_cu =
    "extern \"C\" __global__ void tile(int *out, int n) {\n"
    "    __shared__ int s[100];\n"
    "    __shared__ double d[3];\n"
    "    s[threadIdx.x] = n; d[threadIdx.x % 3] = n;\n"
    "    __syncthreads();\n"
    "    out[threadIdx.x] = s[n] + (int)d[n % 3];\n"
    "}\n"
    "extern \"C\" __global__ void dyn(int *out, int n) {\n"
    "    extern __shared__ int e[];\n"
    "    e[threadIdx.x] = n; __syncthreads(); out[threadIdx.x] = e[n];\n"
    "}\n";

static const char *heap_cu =
    "extern \"C\" __global__ void grab(int **out, int n) { out[0] = (int *)malloc(n); }\n";
static const char *free_cu =
    "extern \"C\" __global__ void drop(int **out) { free(out[0]); }\n";
static const char *aligned_cu =
    "extern \"C\" __global__ void agrab(int **out, int n) {\n"
    "    out[0] = (int *)__nv_aligned_device_malloc(n, 64);\n"
    "}\n";

/* Compile src for arch into dir; the cubin's bytes (free them) or NULL. */
static unsigned char *build(const char *name, const char *src, const char *arch, size_t *len)
{
    char cu[1024], cubin[1024], cmd[3072];
    snprintf(cu, sizeof cu, "%s/mcw_%s.cu", CC_TEST_BINARY_DIR, name);
    snprintf(cubin, sizeof cubin, "%s/mcw_%s_%s.cubin", CC_TEST_BINARY_DIR, name, arch);
    CHECK(cc_test_write_file(cu, src) == 0);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -arch=%s -o '%s' '%s'", arch, cubin, cu);
    CHECK(system(cmd) == 0);
    unsigned char *data = (unsigned char *)cc_test_read_file(cubin, len);
    CHECK(data != NULL);
    return data;
}

static void check_windows(const char *arch, uint32_t reserved)
{
    size_t len = 0;
    unsigned char *c = build("plain", plain_cu, arch, &len);
    if (c == NULL)
        return;
    char err[256];
    cc_mc_kernel_windows w;
    CHECK(cc_mc_kernel_windows_of(c, len, "tile", &w, err, sizeof err) == 1);
    CHECK_EQ_U64(w.smem_lo, reserved);
    /* ptxas lays the two arrays out with padding of its choosing: 424 bytes and alignment. */
    CHECK(w.smem_static >= 100 * 4 + 3 * 8 && w.smem_static < 100 * 4 + 3 * 8 + 16);
    CHECK(cc_mc_kernel_windows_of(c, len, "dyn", &w, err, sizeof err) == 1);
    CHECK_EQ_U64(w.smem_lo, reserved);
    CHECK_EQ_U64(w.smem_static, 0);
    CHECK(cc_mc_kernel_windows_of(c, len, "nosuchkernel", &w, err, sizeof err) == 0);
    CHECK(cc_mc_cubin_uses_device_heap(c, len) == 0);
    /* Every truncation is refused or answered, never read past. */
    for (size_t cut = 0; cut < len; cut += len / 37 + 1) {
        int rc = cc_mc_kernel_windows_of(c, cut, "tile", &w, err, sizeof err);
        CHECK(rc == -1 || rc == 0 || rc == 1);
        rc = cc_mc_cubin_uses_device_heap(c, cut);
        CHECK(rc == -1 || rc == 0);
    }
    free(c);
}

static void check_heap(const char *name, const char *src, const char *arch)
{
    size_t len = 0;
    unsigned char *c = build(name, src, arch, &len);
    if (c == NULL)
        return;
    CHECK(cc_mc_cubin_uses_device_heap(c, len) == 1);
    free(c);
}

int main(void)
{
    char err[256];
    cc_mc_kernel_windows w;
    unsigned char junk[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    CHECK(cc_mc_kernel_windows_of(junk, sizeof junk, "k", &w, err, sizeof err) == -1);
    CHECK(cc_mc_kernel_windows_of(NULL, 0, "k", &w, err, sizeof err) == -1);
    CHECK(cc_mc_kernel_windows_of(junk, sizeof junk, "", &w, err, sizeof err) == -1);
    CHECK(cc_mc_cubin_uses_device_heap(junk, sizeof junk) != 1);
    CHECK(cc_mc_cubin_uses_device_heap(NULL, 0) == -1);
    if (!cc_test_have_nvcc()) {
        printf("skipped: nvcc not found\n");
        TEST_MAIN_END();
    }
    check_windows("sm_80", 0);
    check_windows("sm_90", 1024);
    check_windows("sm_120", 1024);
    check_heap("malloc", heap_cu, "sm_90");
    check_heap("free", free_cu, "sm_80");
    check_heap("aligned", aligned_cu, "sm_90");
    TEST_MAIN_END();
}
