// The fix of sy_warp_exit: the tail warp skips the work but still reaches the barrier.
#include "sy_common.h"

__global__ void tail_sum(int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i;
    __syncthreads();
    if (i < n) {
        out[i] = s[t ^ 1] + 1;
    }
}

int main() { return sy_run(tail_sum, 8, 128, 992); }
