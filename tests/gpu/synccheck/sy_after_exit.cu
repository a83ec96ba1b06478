// `if (i >= n) return;` before a __syncthreads(): in the last block, lanes 8-31 of warp 3 return
// (n = 1000, 8 blocks of 128), then the others wait at the barrier without them.
#include "sy_common.h"

__global__ void tail_sum(int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n) {
        return;
    }
    s[t] = i;
    __syncthreads(); // BUG: reached after threads of the block returned
    out[i] = s[127 - t] + 1;
}

int main() { return sy_run(tail_sum, 8, 128, 1000); }
