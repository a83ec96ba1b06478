/* memcheck test: a clean program using local (stack) arrays with indices in range, and a
 * recursive device function puts several frames on each thread's stack (the stack limit is
 * raised for the recursion: with CUDA's default 1 KiB it overflowed and faulted natively).
 * Expected: no finding (no false local window overrun) and exit status 0. */
#include "mc_common.h"

__device__ __noinline__ int depth_sum(const int *idx, int d)
{
    int frame[8];
    for (int k = 0; k < 8; k++) {
        frame[k] = idx[(k + d) % 32];
    }
    int r = frame[idx[d % 32] % 8];
    return d == 0 ? r : r + depth_sum(idx, d - 1);
}

__global__ void scratch_pick(const int *idx, int *out)
{
    int buf[64];
    for (int k = 0; k < 64; k++) {
        buf[k] = k * (int)threadIdx.x + idx[k % 32];
    }
    out[threadIdx.x] = buf[idx[threadIdx.x]] + depth_sum(idx, 6);
}

int main(void)
{
    int h[32], *idx, *out;
    for (int k = 0; k < 32; k++) {
        h[k] = (k * 7) % 64;
    }
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    CHECK(cudaMalloc((void **)&idx, sizeof h));
    CHECK(cudaMalloc((void **)&out, sizeof h));
    CHECK(cudaMemcpy(idx, h, sizeof h, cudaMemcpyHostToDevice));
    scratch_pick<<<2, 32>>>(idx, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(idx));
    CHECK(cudaFree(out));
    printf("mc_local_clean: done\n");
    return 0;
}
