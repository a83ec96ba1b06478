// A __syncthreads() inside a branch that splits a warp: lanes 0-15 reach it, lanes 16-31 go on
// and exit (Volta and later release the barrier when they exit). synccheck reports the barrier
// reached by part of a warp, or, when lanes 16-31 exited first, reached after threads exited.
#include "sy_common.h"

__global__ void half_barrier(int *out, int n)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = lane * n;
    if (lane < 16) {
        __syncthreads(); // BUG: lanes 16-31 of the warp never reach it
        out[lane] = s[31 - lane];
    }
}

int main() { return sy_run(half_barrier, 1, 32, 3); }
