/* cucheck_agent_stacktest: checks host stack capture and symbolization without a GPU. It captures
 * its own stack three calls deep and requires the frames, innermost first, to name
 * cc_test_leaf, cc_test_middle and main; with libdw also this file and the line of each call.
 * Prints the frames and "stacktest: ok", or what went wrong; exit 0 / 1. Then it measures the
 * per-launch price of a capture: ns per cc_host_unwind at 8, 24 and 40 frames deep (the depth
 * of a launch from a C program through libcudart/libcuda/the Sanitizer is about 20-30).
 * It also checks host_library.c: which file names name an NVIDIA library or one of CUDA's own
 * layers, and that a call from this program is the program's (no library). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "agent/host/host_library.h"
#include "cucheck/event.h"
#include "agent/host/host_symbolize.h"
#include "agent/host/host_unwind.h"

static int cc_leaf_line, cc_middle_line, cc_main_line;
static uint64_t cc_pcs[64];
static int cc_npcs;

__attribute__((noinline)) void cc_test_leaf(void)
{
    cc_leaf_line = __LINE__ + 1;
    cc_npcs = cc_host_unwind(cc_pcs, 64);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void cc_test_middle(void)
{
    cc_middle_line = __LINE__ + 1;
    cc_test_leaf();
    __asm__ volatile("" ::: "memory");
}

/* Finds the first frame at or after *from that names fn; checks its line when libdw is used. */
static int cc_expect(const char *fn, int line, int *from, int with_lines)
{
    char text[512], want_line[64];
    snprintf(want_line, sizeof want_line, "stack_selftest.c:%d)", line);
    for (int i = *from; i < cc_npcs; i++) {
        cc_host_symbolize(cc_pcs[i], text, sizeof text);
        if (strncmp(text, fn, strlen(fn)) == 0 && text[strlen(fn)] == '+') {
            *from = i + 1;
            if (with_lines && strstr(text, want_line) == NULL) {
                printf("stacktest: frame %d '%s' lacks %s\n", i, text, want_line);
                return -1;
            }
            return 0;
        }
    }
    printf("stacktest: no frame names %s\n", fn);
    return -1;
}

static uint64_t cc_bench_pcs[64];
static volatile int cc_bench_sink, cc_bench_n;

/* Recurses depth frames, then captures iters times; returns ns per capture. */
__attribute__((noinline)) static double cc_bench_at(int depth, int iters)
{
    if (depth > 0) {
        double r = cc_bench_at(depth - 1, iters);
        __asm__ volatile("" ::: "memory");
        return r;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < iters; i++) {
        cc_bench_n = cc_host_unwind(cc_bench_pcs, 48);
        cc_bench_sink += cc_bench_n;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / iters;
}

static void cc_bench(void)
{
    static const int depths[] = {8, 24, 40};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        cc_bench_at(depths[i], 1000); /* warm the unwinder's caches */
        double ns = cc_bench_at(depths[i], 20000);
        printf("stacktest: capture %d frames deep: %.0f ns (%d pcs, %s)\n", depths[i], ns,
               cc_bench_n, cc_host_unwinder_name());
    }
}

/* host_library.c's file names: 0 when every case holds. */
static int cc_check_libraries(void)
{
    static const struct {
        const char *path;
        int library;
    } cases[] = {
        {"/usr/lib/x86_64-linux-gnu/libcuda.so.1", -1},
        {"/opt/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcudart.so.13", -1},
        {"/usr/local/cuda/compute-sanitizer/libsanitizer-public.so", -1},
        {"libcupti.so.13", -1},
        {"/site-packages/nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9", CC_NVLIB_CUDNN},
        {"libcudnn.so.9", CC_NVLIB_CUDNN},
        {"/site-packages/nvidia/cublas/lib/libcublasLt.so.13", CC_NVLIB_CUBLAS},
        {"libcufft.so.12", CC_NVLIB_CUFFT},
        {"libcusparse.so.12", CC_NVLIB_CUSPARSE},
        {"libcusolver.so.12", CC_NVLIB_CUSOLVER},
        {"libcurand.so.10", CC_NVLIB_CURAND},
        {"/site-packages/nvidia/nccl/lib/libnccl.so.2", CC_NVLIB_NCCL},
        {"/site-packages/torch/lib/libc10_cuda.so", CC_NVLIB_NONE},
        {"/home/user/app/train", CC_NVLIB_NONE},
        {"/home/user/app/libcudnn_wrapper_dir/train", CC_NVLIB_NONE},
        {"", CC_NVLIB_NONE},
        {NULL, CC_NVLIB_NONE},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = cc_host_library_of_file(cases[i].path);
        if (got != cases[i].library) {
            printf("stacktest: library of %s: %d, expected %d\n",
                   cases[i].path ? cases[i].path : "(null)", got, cases[i].library);
            bad = 1;
        }
    }
    uint32_t own = cc_host_calling_library();
    if (own != CC_NVLIB_NONE) {
        printf("stacktest: a call from this program was taken for library %u\n", own);
        bad = 1;
    }
    return bad;
}

int main(void)
{
    cc_main_line = __LINE__ + 1;
    cc_test_middle();
    __asm__ volatile("" ::: "memory");
    int with_lines = strcmp(cc_host_symbolizer_name(), "libdw") == 0;
    printf("stacktest: unwinder %s, symbolizer %s, %d frames\n", cc_host_unwinder_name(),
           cc_host_symbolizer_name(), cc_npcs);
    for (int i = 0; i < cc_npcs; i++) {
        char text[512];
        int internal = cc_host_symbolize(cc_pcs[i], text, sizeof text);
        printf("  #%d %s%s\n", i, text, internal ? " [internal]" : "");
    }
    int from = 0;
    if (cc_npcs < 3 || cc_expect("cc_test_leaf", cc_leaf_line, &from, with_lines) != 0 ||
        cc_expect("cc_test_middle", cc_middle_line, &from, with_lines) != 0 ||
        cc_expect("main", cc_main_line, &from, with_lines) != 0) {
        printf("stacktest: FAILED\n");
        return 1;
    }
    if (cc_check_libraries() != 0) {
        printf("stacktest: FAILED\n");
        return 1;
    }
    printf("stacktest: ok\n");
    cc_bench();
    return 0;
}
