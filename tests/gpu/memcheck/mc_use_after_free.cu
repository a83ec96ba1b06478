/* memcheck test (buggy): a stream-ordered buffer is freed with cudaFreeAsync and then a kernel
 * queued after the free on the same stream still writes it. Expected: use-after-free in
 * scale_inplace. (Natively the pool usually keeps the memory mapped, so nothing faults.) */
#include "mc_common.h"

__global__ void scale_inplace(float *x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= s; /* BUG: x was freed (stream-ordered) before this kernel runs */
    }
}

int main(void)
{
    const int n = 4096;
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    float *keep, *x;
    CHECK(cudaMallocAsync((void **)&keep, n * sizeof(float), st));
    CHECK(cudaMallocAsync((void **)&x, n * sizeof(float), st));
    CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), st));
    CHECK(cudaFreeAsync(x, st));
    scale_inplace<<<n / 256, 256, 0, st>>>(x, n, 2.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaFreeAsync(keep, st));
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaStreamDestroy(st));
    printf("mc_use_after_free: done\n");
    return 0;
}
