// An out-of-bounds write far past its buffer: cudaErrorIllegalAddress (700), surfacing at the
// cudaDeviceSynchronize after an earlier clean kernel was synchronized. Exact attribution.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill_ok(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 1.0f; }
__global__ void oob_write(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == n - 1) p[i + (1L << 36)] = 2.0f;
}
int main()
{
    float *d = nullptr;
    const int n = 1 << 20;
    cudaMalloc(&d, n * sizeof(float));
    fill_ok<<<n / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    oob_write<<<n / 256, 256>>>(d, n); // BUG: writes 2^36 floats past the end
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
