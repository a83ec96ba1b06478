/* Benchmark workload: 8192 x 8192 float matrix transpose through 32 x 32 shared-memory tiles
 * (padded against bank conflicts, one __syncthreads between the tile's load and store),
 * 3 warm-up and 20 timed transposes (BENCH_WARMUP, BENCH_ITERS: bench_common.h); checks one
 * element. Prints BENCH_TIME_MS per timed transpose. */
#include "bench_common.h"

#define TILE 32
#define ROWS 8

__global__ void transpose(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void fill(float *a, size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        a[i] = (float)i;
}

int main(void)
{
    const int n = 8192;
    const int warmup = bench_count("BENCH_WARMUP", 3), iters = bench_count("BENCH_ITERS", 20);
    size_t count = (size_t)n * n;
    float *a, *b, got = 0.0f;
    CHECK(cudaMalloc((void **)&a, count * sizeof(float)));
    CHECK(cudaMalloc((void **)&b, count * sizeof(float)));
    fill<<<(unsigned)((count + 255) / 256), 256>>>(a, count);
    dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
    for (int i = 0; i < warmup; i++)
        transpose<<<grid, block>>>(a, b, n);
    CHECK(cudaDeviceSynchronize());
    double t0 = bench_now_ms();
    for (int i = 0; i < iters; i++)
        transpose<<<grid, block>>>(a, b, n);
    CHECK(cudaDeviceSynchronize());
    double ms = bench_now_ms() - t0;
    /* b[r][c] = a[c][r] = c * n + r: check row 1, column 2 */
    CHECK(cudaMemcpy(&got, b + (size_t)1 * n + 2, sizeof got, cudaMemcpyDeviceToHost));
    if (got != (float)(2 * n + 1)) {
        fprintf(stderr, "transpose: wrong element %g\n", got);
        return 1;
    }
    bench_report("transpose", ms, iters);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return 0;
}
