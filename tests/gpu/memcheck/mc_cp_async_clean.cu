/* memcheck test (clean twin of mc_cp_async_oob): every asynchronous copy (cp.async, global ->
 * shared) reads inside its allocation and writes inside the block's shared window. Expected: no
 * finding. */
#include "mc_common.h"

__global__ void stage_tiles(const float *in, float *out)
{
    __shared__ float tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(in + i));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[i] = tile[threadIdx.x];
}

int main(void)
{
    const int n = 4 * 128;
    float *in, *out;
    CHECK(cudaMalloc((void **)&in, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
    CHECK(cudaMemset(in, 0, n * sizeof(float)));
    stage_tiles<<<n / 128, 128>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("mc_cp_async_clean: done\n");
    return 0;
}
