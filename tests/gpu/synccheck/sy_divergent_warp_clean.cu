// The fix of sy_divergent_warp: every thread of the block reaches the barrier.
#include "sy_common.h"

__global__ void half_barrier(int *out, int n)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = lane * n;
    __syncthreads();
    if (lane < 16) {
        out[lane] = s[31 - lane];
    }
}

int main() { return sy_run(half_barrier, 1, 32, 3); }
