// NVCC_EXTRA: -lcublas
// A cuBLAS GEMM (its kernels use their workspace, written before read) on inputs filled from the
// host; the output copied out. No findings.
#include <cublas_v2.h>
#include "ic_common.h"

int main()
{
    const int n = 256;
    float *a = nullptr, *b = nullptr, *c = nullptr;
    static float host[n * n];
    for (int i = 0; i < n * n; i++) {
        host[i] = (float)(i % 7);
    }
    IC_CHECK(cudaMalloc(&a, sizeof host));
    IC_CHECK(cudaMalloc(&b, sizeof host));
    IC_CHECK(cudaMalloc(&c, sizeof host));
    IC_CHECK(cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice));
    IC_CHECK(cudaMemcpy(b, host, sizeof host, cudaMemcpyHostToDevice));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        return 2;
    }
    const float one = 1.0f, zero = 0.0f;
    for (int i = 0; i < 2; i++) {
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
    }
    IC_CHECK(cudaMemcpy(host, c, sizeof host, cudaMemcpyDeviceToHost));
    cublasDestroy(h);
    std::printf("done %f\n", host[3]);
    return 0;
}
