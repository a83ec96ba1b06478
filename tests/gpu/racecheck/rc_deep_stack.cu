// A kernel with a large stack frame of its own (a 960-byte local array indexed at run time) and
// many registers live across its racy store (the patch call saves them on the thread's stack),
// whose threads all store into one shared word with no barrier between the stores: racecheck's
// hazard path runs in every warp on top of that stack. The patch functions' stack must fit past
// the kernel's (cub's kernels of a PyTorch step ended in an illegal address under racecheck
// before the agent raised each context's stack limit: instr_stack.c).
#include "rc_common.h"
#define RC_SCRATCH 240
#define RC_LIVE 96
__global__ void __launch_bounds__(256) deep_frame(int *out, const float *in, int n)
{
    int scratch[RC_SCRATCH];
    for (int i = 0; i < RC_SCRATCH; i++) scratch[i] = i * n + (int)threadIdx.x;
    float live[RC_LIVE];
#pragma unroll
    for (int i = 0; i < RC_LIVE; i++) live[i] = in[(threadIdx.x + i * 257u) & 4095u];
    __shared__ int status;
    asm volatile("" ::: "memory"); // the loads above stay above: their values live across
    status = scratch[(threadIdx.x * 7u + (unsigned)n) % RC_SCRATCH]; // BUG: every thread stores
    __syncthreads();
    int seen = status;
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < RC_LIVE; i++) sum += fminf(live[i], (float)(seen + i));
    if (threadIdx.x == 0) out[blockIdx.x] = seen + scratch[n % RC_SCRATCH] + (int)sum;
}

int main()
{
    int *out;
    float *in;
    RC_CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    RC_CHECK(cudaMalloc(&in, 4096 * sizeof(float)));
    RC_CHECK(cudaMemset(in, 0, 4096 * sizeof(float)));
    deep_frame<<<64, 256>>>(out, in, 3);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    return 0;
}
