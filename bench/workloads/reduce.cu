/* Benchmark workload: two-pass shared-memory tree reduction of 64 Mi ints (block sums, then one
 * block over the sums), 3 warm-up and 20 timed reductions; checks the result once. Prints
 * BENCH_TIME_MS per timed reduction (BENCH_WARMUP, BENCH_ITERS: bench_common.h). */
#include "bench_common.h"

#define BLOCK 512

__global__ void block_sum(const int *in, long long *out, int n)
{
    __shared__ long long s[BLOCK];
    unsigned tid = threadIdx.x;
    long long v = 0;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        v += in[i];
    s[tid] = v;
    __syncthreads();
    for (unsigned step = BLOCK / 2; step > 0; step >>= 1) {
        if (tid < step)
            s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__global__ void final_sum(const long long *in, long long *out, int n)
{
    __shared__ long long s[BLOCK];
    unsigned tid = threadIdx.x;
    long long v = 0;
    for (int i = tid; i < n; i += BLOCK)
        v += in[i];
    s[tid] = v;
    __syncthreads();
    for (unsigned step = BLOCK / 2; step > 0; step >>= 1) {
        if (tid < step)
            s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0)
        *out = s[0];
}

int main(void)
{
    const int n = 64 << 20, blocks = 2048;
    const int warmup = bench_count("BENCH_WARMUP", 3), iters = bench_count("BENCH_ITERS", 20);
    int *in;
    long long *partial, *total, result = 0;
    CHECK(cudaMalloc((void **)&in, (size_t)n * sizeof(int)));
    CHECK(cudaMalloc((void **)&partial, blocks * sizeof(long long)));
    CHECK(cudaMalloc((void **)&total, sizeof(long long)));
    CHECK(cudaMemset(in, 0x01, (size_t)n * sizeof(int))); /* every int is 0x01010101 */
    for (int i = 0; i < warmup; i++) {
        block_sum<<<blocks, BLOCK>>>(in, partial, n);
        final_sum<<<1, BLOCK>>>(partial, total, blocks);
    }
    CHECK(cudaDeviceSynchronize());
    double t0 = bench_now_ms();
    for (int i = 0; i < iters; i++) {
        block_sum<<<blocks, BLOCK>>>(in, partial, n);
        final_sum<<<1, BLOCK>>>(partial, total, blocks);
    }
    CHECK(cudaDeviceSynchronize());
    double ms = bench_now_ms() - t0;
    CHECK(cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost));
    if (result != (long long)n * 0x01010101LL) {
        fprintf(stderr, "reduce: wrong sum %lld\n", result);
        return 1;
    }
    bench_report("reduce", ms, iters);
    CHECK(cudaFree(in));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(total));
    return 0;
}
