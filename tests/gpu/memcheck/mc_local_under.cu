/* memcheck test: a local (stack) array read far below its start. Each thread sums a 32-entry
 * table it built with data-dependent indices (the array lives in local memory) at the slot its
 * input names; thread 3 of block 0 names slot -3000, 12,000 bytes below the table: below the
 * bottom of the thread's stack window (the kernel's frame plus CUDA's default 1 KiB stack).
 * Expected: an invalid __local__ read at the read's line, thread 3 of block 0, size 4 (natively
 * the read faults: the launch's async-error). */
#include "mc_common.h"

__global__ void window_sum(const int *idx, int *out)
{
    int scratch[32];
    for (int k = 0; k < 32; k++) {
        scratch[k] = 0;
    }
    for (int k = 0; k < 32; k++) {
        scratch[idx[k] & 31] += k * (int)threadIdx.x;
    }
    out[threadIdx.x] = scratch[idx[32 + threadIdx.x]]; /* BUG: slot -3000 (thread 3) */
}

int main(void)
{
    int h[64], *idx, *out;
    for (int k = 0; k < 64; k++) {
        h[k] = (k * 5) % 32;
    }
    h[32 + 3] = -3000; /* thread 3 */
    CHECK(cudaMalloc((void **)&idx, sizeof h));
    CHECK(cudaMalloc((void **)&out, sizeof h));
    CHECK(cudaMemcpy(idx, h, sizeof h, cudaMemcpyHostToDevice));
    window_sum<<<1, 32>>>(idx, out);
    CHECK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    printf("mc_local_under: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
