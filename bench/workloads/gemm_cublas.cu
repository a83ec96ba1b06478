/* Benchmark workload: cuBLAS SGEMM 4096 x 4096 x 4096, 3 warm-up and 10 timed products.
 * Prints BENCH_TIME_MS per timed product. Link with -lcublas. */
#include <cublas_v2.h>
#include "bench_common.h"

int main(void)
{
    const int n = 4096;
    const int warmup = bench_count("BENCH_WARMUP", 3), iters = bench_count("BENCH_ITERS", 10);
    const float alpha = 1.0f, beta = 0.0f;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a, *b, *c;
    CHECK(cudaMalloc((void **)&a, bytes));
    CHECK(cudaMalloc((void **)&b, bytes));
    CHECK(cudaMalloc((void **)&c, bytes));
    CHECK(cudaMemset(a, 0, bytes));
    CHECK(cudaMemset(b, 0, bytes));
    double t0 = 0.0;
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gemm_cublas: cublasCreate failed\n");
        return 1;
    }
    for (int i = 0; i < warmup + iters; i++) {
        if (i == warmup) { /* warm-up done: start the clock */
            CHECK(cudaDeviceSynchronize());
            t0 = bench_now_ms();
        }
        if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c,
                        n) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "gemm_cublas: cublasSgemm failed\n");
            return 1;
        }
    }
    CHECK(cudaDeviceSynchronize());
    bench_report("gemm_cublas", bench_now_ms() - t0, iters);
    cublasDestroy(handle);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return 0;
}
