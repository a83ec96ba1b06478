// The faulting kernel is followed on its stream by more launches before the error surfaces (as
// in PyTorch), after a kernel whose threads mostly return early. Without marks all four launches
// in flight are candidates; with `--progress on` the marks must count every exit path
// (bounded_copy finished) and show the launches queued behind the fault never started, so the
// faulting launch is named exactly.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void bounded_copy(float *dst, const float *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return; // most threads of the last blocks leave here
    if (i % 3 == 0) return;
    dst[i] = src[i];
}
__global__ void scatter_bad(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i == n / 2) p[(1L << 36) + i] = 1.0f; }
__global__ void queued_after(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1.0f; }
int main()
{
    const int n = 100000;
    float *a = nullptr, *b = nullptr;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    for (int k = 0; k < 3; k++) bounded_copy<<<(n + 1023) / 1024 + 7, 1024, 0, s>>>(a, b, n);
    cudaStreamSynchronize(s);
    bounded_copy<<<(n + 1023) / 1024 + 7, 1024, 0, s>>>(a, b, n);
    scatter_bad<<<(n + 255) / 256, 256, 0, s>>>(a, n); // BUG: writes far out of bounds
    queued_after<<<(n + 255) / 256, 256, 0, s>>>(b, n);
    queued_after<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    cudaError_t e = cudaStreamSynchronize(s);
    printf("sync: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
