/* memcheck test: an asynchronous copy (cp.async, global -> shared) whose source runs past the
 * end of its allocation in the last thread (into the allocation's padding: `in` is 2,060 bytes,
 * the next allocation starts at a 512-byte boundary or later). Expected: invalid-global-read in
 * stage_tiles at the copy, thread 127 of block 3, 4 bytes. */
#include "mc_common.h"

__global__ void stage_tiles(const float *in, float *out)
{
    __shared__ float tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(in + i + 4)); // BUG
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[i] = tile[threadIdx.x];
}

int main(void)
{
    const int n = 4 * 128;
    float *in, *out;
    CHECK(cudaMalloc((void **)&in, (n + 3) * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
    CHECK(cudaMemset(in, 0, (n + 3) * sizeof(float)));
    stage_tiles<<<n / 128, 128>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("mc_cp_async_oob: done\n");
    return 0;
}
