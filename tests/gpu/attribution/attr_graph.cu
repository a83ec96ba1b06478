// A fault inside a CUDA graph (captured from a stream): the graph launch is exactly the work in
// flight; with `--progress on` the progress marks name its faulting node (the first finished,
// the third never started).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void graph_scale(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= 2.0f; }
__global__ void graph_oob(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i == 0) p[n + (1L << 36)] = 1.0f; }
int main()
{
    const int n = 1 << 16;
    float *d = nullptr;
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&d, n * sizeof(float));
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    graph_scale<<<n / 256, 256, 0, s>>>(d, n);
    graph_oob<<<n / 256, 256, 0, s>>>(d, n);
    graph_scale<<<n / 256, 256, 0, s>>>(d, n);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&ge, g, 0);
    cudaGraphLaunch(ge, s); // BUG: the graph's second node writes out of bounds
    cudaError_t e = cudaStreamSynchronize(s);
    printf("sync: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
