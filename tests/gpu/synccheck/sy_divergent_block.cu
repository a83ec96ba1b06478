// Warp 0 and warp 1 of a block wait at two different __syncthreads() instructions (both on the
// BUG line, so that whichever warp comes second reports at that line): the hardware pairs
// them as one barrier, CUDA leaves it undefined.
#include "sy_common.h"

__global__ void two_phases(int *out, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t + n;
    if (t < 32) { __syncthreads(); out[t] = s[63 - t]; } else { out[t] = n; __syncthreads(); } // BUG
    out[64 + t] = s[t];
}

int main() { return sy_run(two_phases, 4, 64, 5); }
