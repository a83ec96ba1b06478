/* memcheck test: clean local (stack) use near both ends of a thread's stack window. A kernel
 * with an 8 KiB local array (CUDA's default 1 KiB stack limit) touches its first and last
 * entries; after the stack limit is raised to 64 KiB, a recursion 250 calls deep (each frame
 * holds a 16-int array) runs far down the stack. Indices are data-dependent, so the arrays live
 * in local memory.
 * Expected: no finding (no false local window overrun or underrun) and exit status 0. */
#include "mc_common.h"

__global__ void big_frame(const int *idx, int *out)
{
    int big[2048];
    for (int k = 0; k < 2048; k++) {
        big[k] = k ^ idx[k % 32];
    }
    int lo = idx[threadIdx.x % 32] & 1;                /* 0 or 1 */
    int hi = 2047 - (idx[(threadIdx.x + 1) % 32] & 1); /* 2047 or 2046 */
    out[threadIdx.x] = big[lo] + big[hi] + big[idx[threadIdx.x % 32]];
}

__device__ __noinline__ int deep_sum(const int *idx, int d)
{
    int frame[16];
    for (int k = 0; k < 16; k++) {
        frame[k] = idx[(k + d) % 32];
    }
    int r = frame[idx[d % 32] % 16];
    return d == 0 ? r : r + deep_sum(idx, d - 1);
}

__global__ void deep_stack(const int *idx, int *out, int depth)
{
    out[threadIdx.x] = deep_sum(idx, depth + (int)(threadIdx.x % 2));
}

int main(void)
{
    int h[32], *idx, *out;
    for (int k = 0; k < 32; k++) {
        h[k] = (k * 7) % 64;
    }
    CHECK(cudaMalloc((void **)&idx, sizeof h));
    CHECK(cudaMalloc((void **)&out, sizeof h));
    CHECK(cudaMemcpy(idx, h, sizeof h, cudaMemcpyHostToDevice));
    big_frame<<<2, 32>>>(idx, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 65536));
    deep_stack<<<2, 32>>>(idx, out, 250);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(idx));
    CHECK(cudaFree(out));
    printf("mc_local_big_clean: done\n");
    return 0;
}
