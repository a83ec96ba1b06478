/* memcheck test (clean twin of every mc_* program): guarded stencil, aligned loads, shared
 * memory and local arrays, atomics, stream-ordered buffers used before their free, copies and
 * memsets inside their buffers, everything freed; the stencil runs 50 times to exercise the
 * adaptive mode. Expected: no findings in either mode, with or without --leak-check full. */
#include "mc_common.h"

__device__ int g_hits;

__global__ void stencil3(const float *in, float *out, int n)
{
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) {
        out[i] = in[i - 1] + in[i] + in[i + 1];
    }
}

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float tile[256];
    float local[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 4; k++) {
        local[k] = i < n ? in[i] * (float)(k + 1) : 0.0f;
    }
    tile[threadIdx.x] = local[threadIdx.x % 4];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            tile[threadIdx.x] += tile[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(out, tile[0]);
        atomicAdd(&g_hits, 1);
    }
}

int main(void)
{
    const int n = 1024;
    float *in, *out, *sum;
    CHECK(cudaMalloc((void **)&in, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&sum, sizeof(float)));
    static float host[1024];
    for (int i = 0; i < n; i++) host[i] = (float)i;
    CHECK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, n * sizeof(float)));
    CHECK(cudaMemset(sum, 0, sizeof(float)));
    for (int it = 0; it < 50; it++) {
        stencil3<<<dim3(2, 2), 256>>>(in, out, n);
    }
    block_sum<<<n / 256, 256>>>(in, sum, n);
    CHECK(cudaGetLastError());
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    float *x;
    CHECK(cudaMallocAsync((void **)&x, n * sizeof(float), st));
    CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), st));
    stencil3<<<dim3(2, 2), 256, 0, st>>>(in, x, n);
    CHECK(cudaFreeAsync(x, st));
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaStreamDestroy(st));
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    float s = 0;
    CHECK(cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(sum));
    printf("mc_clean: out[1] = %g, sum = %g\n", (double)host[1], (double)s);
    return 0;
}
