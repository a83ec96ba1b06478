/* Benchmark workload: vector add over 64 Mi floats (memory-bound), 3 warm-up and 20 timed
 * launches. Prints BENCH_TIME_MS per timed launch. */
#include "bench_common.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    const int n = 64 << 20, block = 256, grid = (n + block - 1) / block;
    const int warmup = bench_count("BENCH_WARMUP", 3), iters = bench_count("BENCH_ITERS", 20);
    float *a, *b, *c;
    CHECK(cudaMalloc((void **)&a, (size_t)n * sizeof(float)));
    CHECK(cudaMalloc((void **)&b, (size_t)n * sizeof(float)));
    CHECK(cudaMalloc((void **)&c, (size_t)n * sizeof(float)));
    CHECK(cudaMemset(a, 0, (size_t)n * sizeof(float)));
    CHECK(cudaMemset(b, 0, (size_t)n * sizeof(float)));
    for (int i = 0; i < warmup; i++)
        vecadd<<<grid, block>>>(a, b, c, n);
    CHECK(cudaDeviceSynchronize());
    double t0 = bench_now_ms();
    for (int i = 0; i < iters; i++)
        vecadd<<<grid, block>>>(a, b, c, n);
    CHECK(cudaDeviceSynchronize());
    bench_report("vecadd", bench_now_ms() - t0, iters);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return 0;
}
