// Four kernels on four non-blocking streams, the third faults; the error is seen only at a later
// cudaDeviceSynchronize, and nothing the host did ordered the other three before it. API-level
// tracking cannot tell them apart (all four are candidates); with `--progress on` the device's
// progress marks show which ones finished, naming the third exactly.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void stream_work(float *p, int n, int poison)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1.0f;
    if (poison && i == 0) p[-(1L << 34)] = 0.0f;
}
__global__ void third_faults(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i + (1L << 36)] = 3.0f; }
int main()
{
    const int n = 1 << 16;
    cudaStream_t s[4];
    float *d[4];
    for (int k = 0; k < 4; k++) {
        cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        cudaMalloc(&d[k], n * sizeof(float));
    }
    stream_work<<<n / 256, 256, 0, s[0]>>>(d[0], n, 0);
    stream_work<<<n / 256, 256, 0, s[1]>>>(d[1], n, 0);
    third_faults<<<n / 256, 256, 0, s[2]>>>(d[2], n); // BUG: writes far out of bounds
    stream_work<<<n / 256, 256, 0, s[3]>>>(d[3], n, 0);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
