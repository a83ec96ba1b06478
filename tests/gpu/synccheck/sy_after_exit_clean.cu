// The fix of sy_after_exit: the tail threads skip the work but still reach the barrier.
#include "sy_common.h"

__global__ void tail_sum(int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i;
    __syncthreads();
    if (i < n) {
        out[i] = s[127 - t] + 1;
    }
}

int main() { return sy_run(tail_sum, 8, 128, 1000); }
