// A misaligned 8-byte load: cudaErrorMisalignedAddress (716), surfacing in cudaMemcpy.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void misaligned_load(const char *p, double *out)
{
    const double *q = reinterpret_cast<const double *>(p + 1 + threadIdx.x * 8);
    out[threadIdx.x] = *q;
}
int main()
{
    char *d = nullptr;
    double *o = nullptr, h[32];
    cudaMalloc(&d, 4096);
    cudaMalloc(&o, sizeof h);
    misaligned_load<<<1, 32>>>(d, o); // BUG: loads doubles from an odd address
    cudaError_t e = cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
