// A failed device-side assert: cudaErrorAssert (710) at the stream synchronize.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
__global__ void check_positive(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assert(v[i] >= 0);
}
int main()
{
    int *d = nullptr;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&d, 256 * sizeof(int));
    cudaMemsetAsync(d, 0xff, 256 * sizeof(int), s); // every value becomes -1
    check_positive<<<1, 256, 0, s>>>(d, 256); // BUG: asserts on negative values
    cudaError_t e = cudaStreamSynchronize(s);
    printf("sync: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
