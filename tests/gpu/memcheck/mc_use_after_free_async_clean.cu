/* memcheck test (clean twin of mc_use_after_free): the kernel that writes the stream-ordered
 * buffer is queued before cudaFreeAsync on the same stream, so every access precedes the free
 * in stream order. Expected: no finding. */
#include "mc_common.h"

__global__ void scale_inplace(float *x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= s;
    }
}

int main(void)
{
    const int n = 4096;
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    float *x;
    CHECK(cudaMallocAsync((void **)&x, n * sizeof(float), st));
    CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), st));
    scale_inplace<<<n / 256, 256, 0, st>>>(x, n, 2.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaFreeAsync(x, st));
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaStreamDestroy(st));
    printf("mc_use_after_free_async_clean: done\n");
    return 0;
}
