// NVCC_EXTRA: -lcublas
// A cuBLAS single-precision GEMM (512 x 512): the library's kernels must report no hazard.
#include <cublas_v2.h>
#include "rc_common.h"

int main()
{
    const int n = 512;
    float *a, *b, *c;
    RC_CHECK(cudaMalloc(&a, n * n * sizeof(float)));
    RC_CHECK(cudaMalloc(&b, n * n * sizeof(float)));
    RC_CHECK(cudaMalloc(&c, n * n * sizeof(float)));
    RC_CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
    RC_CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cublasCreate failed\n");
        return 2;
    }
    const float one = 1.0f, zero = 0.0f;
    for (int i = 0; i < 3; i++) {
        if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n) !=
            CUBLAS_STATUS_SUCCESS) {
            std::fprintf(stderr, "cublasSgemm failed\n");
            return 2;
        }
    }
    RC_CHECK(cudaDeviceSynchronize());
    cublasDestroy(h);
    RC_CHECK(cudaFree(a));
    RC_CHECK(cudaFree(b));
    RC_CHECK(cudaFree(c));
    return 0;
}
