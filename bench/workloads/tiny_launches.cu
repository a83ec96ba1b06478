/* Benchmark workload: 10,000 launches of a tiny kernel (one block of 32 threads), back to back
 * on one stream: measures per-launch host overhead. 100 warm-up launches first. Prints
 * BENCH_TIME_MS per launch (10,000 timed launches and the final synchronize). An argument sets
 * another number of timed launches (more of them average out the launch-to-launch jitter). */
#include "bench_common.h"

__global__ void tiny(int *counter)
{
    if (threadIdx.x == 0)
        counter[0] += 1;
}

int main(int argc, char **argv)
{
    const int warmup = 100;
    int iters = argc > 1 ? atoi(argv[1]) : 10000;
    if (iters <= 0)
        iters = 10000;
    int *counter, result = 0;
    CHECK(cudaMalloc((void **)&counter, sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    for (int i = 0; i < warmup; i++)
        tiny<<<1, 32>>>(counter);
    CHECK(cudaDeviceSynchronize());
    double t0 = bench_now_ms();
    for (int i = 0; i < iters; i++)
        tiny<<<1, 32>>>(counter);
    CHECK(cudaDeviceSynchronize());
    double ms = bench_now_ms() - t0;
    CHECK(cudaMemcpy(&result, counter, sizeof result, cudaMemcpyDeviceToHost));
    if (result != warmup + iters) {
        fprintf(stderr, "tiny_launches: counter %d, expected %d\n", result, warmup + iters);
        return 1;
    }
    bench_report("tiny_launches", ms, iters);
    CHECK(cudaFree(counter));
    return 0;
}
