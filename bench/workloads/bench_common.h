/* Shared by the benchmark workloads: CHECK() for CUDA runtime calls, a monotonic host clock,
 * and the one output line the runner reads: BENCH_TIME_MS = milliseconds per timed iteration
 * (after warm-up), measured on the host around the launches and a final synchronize, so runs
 * with different iteration counts compare. With BENCH_MEMINFO set it also prints
 * BENCH_DEVICE_USED_MIB, the device memory in use (cudaMemGetInfo) while the workload's buffers
 * are still allocated: what the process holds, a checking tool's own memory included.
 * BENCH_WARMUP and BENCH_ITERS replace a workload's warm-up and timed iteration counts (fewer for
 * a very slow tool: the time per iteration still compares). */
#ifndef CUCHECK_BENCH_COMMON_H
#define CUCHECK_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t check_err_ = (call);                                                   \
        if (check_err_ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,           \
                    cudaGetErrorString(check_err_));                                       \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The count in environment variable `name` (1..1000000), else `fallback`. */
static inline int bench_count(const char *name, int fallback)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0')
        return fallback;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    return (*end == '\0' && n >= 1 && n <= 1000000) ? (int)n : fallback;
}

static inline void bench_report(const char *name, double ms, int iters)
{
    printf("%s: %d timed iterations, %.3f ms per iteration\n", name, iters, ms / iters);
    printf("BENCH_TIME_MS %.6f\n", ms / iters);
    size_t free_bytes = 0, total_bytes = 0;
    if (getenv("BENCH_MEMINFO") != NULL && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
        printf("BENCH_DEVICE_USED_MIB %.1f\n", (double)(total_bytes - free_bytes) / 1048576.0);
}

#endif
