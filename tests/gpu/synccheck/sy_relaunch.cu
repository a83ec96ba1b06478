// After rounds of correct launches of several block shapes (sy_relaunch_clean), warp 0 and
// warp 1 of each block wait at two different __syncthreads() (both on the BUG line): found in
// a launch whose per-block state earlier launches of other shapes used.
#include "sy_relaunch_common.h"

__global__ void late_two_phases(int *out, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t + n;
    if (t < 32) { __syncthreads(); out[t] = s[63 - t]; } else { out[t] = n; __syncthreads(); } // BUG
    out[64 + t] = s[t];
}

int main()
{
    int *buf = nullptr;
    SY_CHECK(cudaMalloc(&buf, 4096 * sizeof(int)));
    SY_CHECK(cudaMemset(buf, 0, 4096 * sizeof(int)));
    rl_clean_rounds(buf, 3);
    late_two_phases<<<4, 64>>>(buf, 5);
    SY_CHECK(cudaGetLastError());
    SY_CHECK(cudaDeviceSynchronize());
    rl_clean_rounds(buf, 1);
    SY_CHECK(cudaFree(buf));
    std::printf("done\n");
    return 0;
}
