// Shared by sy_relaunch.cu and sy_relaunch_clean.cu: correct kernels of several block shapes
// (32 warps, a partial last warp, exits before a barrier that the other threads still pass
// correctly, warp shuffles), launched back to back and in rounds, so that each launch's
// per-block state is reused by later launches of other shapes.
#pragma once
#include "sy_common.h"

// Every thread reaches the barrier; the threads past n skip only the work.
__global__ void rl_tail(int *out, int n)
{
    __shared__ int s[1024];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i;
    __syncthreads();
    if (i < n) {
        out[i % 4096] = s[blockDim.x - 1 - t] + 1;
    }
}

// A tree reduction in a block of 96 threads (the last warp has 32 lanes, the block 3 warps);
// threads exit right after the last barrier, lane 0 after writing.
__global__ void rl_reduce(int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t + n;
    __syncthreads();
    for (int step = 64; step > 0; step >>= 1) {
        if (t < step && t + step < 96) {
            s[t] += s[t + step];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x % 4096] = s[0];
    }
}

// A full-warp shuffle reduction per warp, then one barrier.
__global__ void rl_shfl(int *out, int n)
{
    __shared__ int w[8];
    int t = threadIdx.x, v = t + n;
    for (int d = 16; d > 0; d /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, d);
    }
    if ((t & 31) == 0) {
        w[t >> 5] = v;
    }
    __syncthreads();
    if (t == 0) {
        out[blockIdx.x % 4096] = w[0] + w[blockDim.x / 32 - 1];
    }
}

// Rounds of back-to-back launches of the three shapes (several checked launches in flight),
// each round synchronized.
static void rl_clean_rounds(int *buf, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < 6; i++) {
            rl_tail<<<64 + i, 1024>>>(buf, 1000 * (i + 1));
            rl_reduce<<<200, 96>>>(buf, i);
            rl_shfl<<<300 - i, 256>>>(buf, i);
            SY_CHECK(cudaGetLastError());
        }
        SY_CHECK(cudaDeviceSynchronize());
    }
}
