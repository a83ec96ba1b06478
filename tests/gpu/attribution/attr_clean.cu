// The clean twin of the attribution programs: the same shapes (four non-blocking streams, a
// captured graph, an assert, aligned loads, synchronous copies) done right; nothing to report.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
__global__ void stream_work(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1.0f; }
__global__ void check_positive(const int *v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) assert(v[i] >= 0); }
__global__ void aligned_load(const double *p, double *out) { out[threadIdx.x] = p[threadIdx.x]; }
int main()
{
    const int n = 1 << 16;
    cudaStream_t s[4];
    float *d[4];
    for (int k = 0; k < 4; k++) {
        cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        cudaMalloc(&d[k], n * sizeof(float));
        cudaMemsetAsync(d[k], 0, n * sizeof(float), s[k]);
        stream_work<<<n / 256, 256, 0, s[k]>>>(d[k], n);
    }
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal);
    stream_work<<<n / 256, 256, 0, s[0]>>>(d[0], n);
    stream_work<<<n / 256, 256, 0, s[0]>>>(d[0], n);
    cudaStreamEndCapture(s[0], &g);
    cudaGraphInstantiate(&ge, g, 0);
    cudaGraphLaunch(ge, s[0]);
    int *v = nullptr;
    cudaMalloc(&v, 256 * sizeof(int));
    cudaMemset(v, 0, 256 * sizeof(int));
    check_positive<<<1, 256>>>(v, 256);
    double *a = nullptr, *o = nullptr, h[32];
    cudaMalloc(&a, 4096);
    cudaMalloc(&o, sizeof h);
    cudaMemset(a, 0, 4096);
    aligned_load<<<1, 32>>>(a, o);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
