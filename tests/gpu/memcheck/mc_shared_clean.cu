/* memcheck test (clean twin of mc_shared_overrun): the shifted staging is guarded, and kernels
 * with dynamic shared memory (alone, after static shared memory, and over-aligned) fill their
 * windows up to the last byte. Expected: no finding (no false window overrun). */
#include "mc_common.h"

__global__ void shift_left(const float *in, float *out)
{
    __shared__ float tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x + 1 < 128) {
        tile[threadIdx.x + 1] = in[i];
    }
    tile[0] = 0.0f;
    __syncthreads();
    out[i] = tile[threadIdx.x];
}

__global__ void dyn_only(float *out, int n)
{
    extern __shared__ float buf[];
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        buf[k] = (float)k;
    }
    __syncthreads();
    out[threadIdx.x] = buf[n - 1 - threadIdx.x];
}

__global__ void static_then_dyn(float *out, int n)
{
    __shared__ char head[100];
    extern __shared__ __align__(128) float abuf[];
    head[threadIdx.x % 100] = 1;
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        abuf[k] = (float)k + head[k % 100];
    }
    __syncthreads();
    out[threadIdx.x] = abuf[n - 1 - threadIdx.x];
}

int main(void)
{
    const int n = 4 * 128;
    float *in, *out;
    CHECK(cudaMalloc((void **)&in, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
    CHECK(cudaMemset(in, 0, n * sizeof(float)));
    shift_left<<<n / 128, 128>>>(in, out);
    CHECK(cudaGetLastError());
    dyn_only<<<2, 128, 1000 * sizeof(float)>>>(out, 1000);
    CHECK(cudaGetLastError());
    static_then_dyn<<<2, 128, 333 * sizeof(float)>>>(out, 333);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("mc_shared_clean: done\n");
    return 0;
}
