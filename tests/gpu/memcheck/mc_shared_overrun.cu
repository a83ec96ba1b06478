/* memcheck test (buggy): a block stages its slice in shared memory shifted by one, and the last
 * thread writes one element past the 128-float tile. Expected: invalid-shared-write in
 * shift_left by thread (127,0,0) of block (0,0,0), size 4, at window offset 0x200 (0x600 where
 * the window starts with the 1024 bytes sm_90+ reserve). */
#include "mc_common.h"

__global__ void shift_left(const float *in, float *out)
{
    __shared__ float tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x + 1] = in[i]; /* BUG: thread 127 writes tile[128], past the tile */
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
    shift_left<<<n / 128, 128>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("mc_shared_overrun: done\n");
    return 0;
}
