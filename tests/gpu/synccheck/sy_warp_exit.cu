// `if (i >= n) return;` before a __syncthreads() with n a multiple of 32: in the last block the
// whole of warp 3 returns (n = 992, 8 blocks of 128), then warps 0-2 wait at the barrier
// without it. No warp is split: only the other warps can tell that one left.
#include "sy_common.h"

__global__ void tail_sum(int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n) {
        return;
    }
    s[t] = i;
    __syncthreads(); // BUG: reached after a whole warp of the block returned
    out[i] = s[t ^ 1] + 1;
}

int main() { return sy_run(tail_sum, 8, 128, 992); }
