// A correct block reduction: a __syncthreads() tree in a loop, then the last warp with
// __syncwarp() and a shuffle reduction; 256 threads per block, several blocks.
#include "sy_common.h"

__global__ void block_sum(int *out, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = t + n;
    __syncthreads();
    for (int stride = 128; stride >= 32; stride /= 2) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    if (t < 32) {
        int v = s[t];
        __syncwarp();
        for (int d = 16; d > 0; d /= 2) {
            v += __shfl_down_sync(0xffffffffu, v, d);
        }
        if (t == 0) {
            out[blockIdx.x] = v;
        }
    }
}

int main() { return sy_run(block_sum, 16, 256, 1); }
