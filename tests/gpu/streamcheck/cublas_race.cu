/* GPU test program for streamcheck (tests/gpu/streamcheck/run_targets.sh): a library kernel on
 * one stream against a custom kernel on another. fill_a writes matrix A on stream s1 (slowly);
 * cublasSgemm, bound to stream s2 with cublasSetStream, reads A without waiting for s1: a race
 * between fill_a and the cuBLAS kernel (whose name varies with the GPU and cuBLAS version).
 * Built with -DCC_ORDERED (the correct twin), an event recorded on s1 after fill_a is waited on
 * by s2 before the GEMM: clean. Natively the racy build usually multiplies a half-filled A; the
 * program prints how many entries of C are off, and exits 0 either way (1 on a CUDA error).
 * Build: nvcc -O2 -lineinfo cublas_race.cu -lcublas */
#include <cublas_v2.h>
#include <stdlib.h>
#include "sc_common.h"

#define CKB(call)                                                                          \
    do {                                                                                   \
        cublasStatus_t s_ = (call);                                                        \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call,    \
                    (int)s_);                                                              \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

/* Spins for about `cycles` clock cycles, then writes p[i] = value. */
__global__ void fill_a(float *p, int count, float value, long long cycles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (i < count)
        p[i] = value;
}

int main(void)
{
    const int n = 512, count = n * n, block = 256, grid = (count + block - 1) / block;
    const size_t bytes = (size_t)count * sizeof(float);
    float *a, *b, *c;
    CK(cudaMalloc((void **)&a, bytes));
    CK(cudaMalloc((void **)&b, bytes));
    CK(cudaMalloc((void **)&c, bytes));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t filled;
    CK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, s2));
    const float one = 1.0f, zero = 0.0f;

    /* Setup, ordered before the test by the device synchronize: B = 1, and one GEMM that only
     * touches B and C, so that cuBLAS has loaded its kernels and workspace before the race. */
    cudaFuncAttributes attr;
    CK(cudaFuncGetAttributes(&attr, fill_a));
    fill_a<<<grid, block, 0, s2>>>(b, count, 1.0f, 0);
    CK(cudaGetLastError());
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, b, n, &zero, c, n));
    CK(cudaDeviceSynchronize());

    fill_a<<<grid, block, 0, s1>>>(a, count, 1.0f, 1000000LL); /* writes A on s1 */
    CK(cudaGetLastError());
#ifdef CC_ORDERED
    CK(cudaEventRecord(filled, s1));
    CK(cudaStreamWaitEvent(s2, filled, 0)); /* the GEMM on s2 waits for fill_a */
#endif
    /* C = A * B on s2. In the racy build nothing orders it after fill_a (BUG). */
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
    CK(cudaStreamSynchronize(s2));
    CK(cudaStreamSynchronize(s1));

    float *hc = (float *)malloc(bytes);
    if (hc == NULL) {
        fprintf(stderr, "cublas_race: out of host memory\n");
        return 1;
    }
    CK(cudaMemcpy(hc, c, bytes, cudaMemcpyDeviceToHost));
    int off = 0;
    for (int i = 0; i < count; i++)
        off += hc[i] != (float)n;
    printf("cublas_race%s: fill_a on s1, cublasSgemm on s2%s: %d of %d entries of C off\n",
#ifdef CC_ORDERED
           " (ordered twin)", " after an event wait",
#else
           "", " with no wait",
#endif
           off, count);
    free(hc);
    CKB(cublasDestroy(h));
    CK(cudaEventDestroy(filled));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    return 0;
}
