/* Benchmark workload: 5-point Jacobi stencil on a 4096 x 4096 grid, each block staging its
 * 32 x 32 tile plus halo in shared memory; 3 warm-up and 20 timed sweeps (ping-pong buffers).
 * Prints BENCH_TIME_MS per timed sweep. */
#include "bench_common.h"

#define TILE 32

__global__ void stencil5(const float *in, float *out, int n)
{
    __shared__ float tile[TILE + 2][TILE + 2];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    bool inside = x < n && y < n;
    tile[ty][tx] = inside ? in[y * n + x] : 0.0f;
    if (threadIdx.x == 0)
        tile[ty][0] = (x > 0 && inside) ? in[y * n + x - 1] : 0.0f;
    if (threadIdx.x == TILE - 1)
        tile[ty][TILE + 1] = (x + 1 < n && inside) ? in[y * n + x + 1] : 0.0f;
    if (threadIdx.y == 0)
        tile[0][tx] = (y > 0 && inside) ? in[(y - 1) * n + x] : 0.0f;
    if (threadIdx.y == TILE - 1)
        tile[TILE + 1][tx] = (y + 1 < n && inside) ? in[(y + 1) * n + x] : 0.0f;
    __syncthreads();
    if (inside)
        out[y * n + x] = 0.2f * (tile[ty][tx] + tile[ty][tx - 1] + tile[ty][tx + 1] +
                                 tile[ty - 1][tx] + tile[ty + 1][tx]);
}

int main(void)
{
    const int n = 4096, warmup = 3, iters = 20;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a, *b;
    CHECK(cudaMalloc((void **)&a, bytes));
    CHECK(cudaMalloc((void **)&b, bytes));
    CHECK(cudaMemset(a, 0, bytes));
    CHECK(cudaMemset(b, 0, bytes));
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    for (int i = 0; i < warmup; i++) {
        stencil5<<<grid, block>>>(a, b, n);
        stencil5<<<grid, block>>>(b, a, n);
    }
    CHECK(cudaDeviceSynchronize());
    double t0 = bench_now_ms();
    for (int i = 0; i < iters; i += 2) {
        stencil5<<<grid, block>>>(a, b, n);
        stencil5<<<grid, block>>>(b, a, n);
    }
    CHECK(cudaDeviceSynchronize());
    bench_report("stencil", bench_now_ms() - t0, iters);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return 0;
}
