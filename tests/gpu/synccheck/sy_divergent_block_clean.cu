// The fix of sy_divergent_block: both warps wait at the same barrier.
#include "sy_common.h"

__global__ void two_phases(int *out, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t + n;
    if (t >= 32) {
        out[t] = n;
    }
    __syncthreads();
    if (t < 32) {
        out[t] = s[63 - t];
    }
    out[64 + t] = s[t];
}

int main() { return sy_run(two_phases, 4, 64, 5); }
