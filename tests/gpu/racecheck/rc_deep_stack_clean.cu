// The clean twin of rc_deep_stack.cu: the same 960-byte frame and registers live across the
// shared store, but each thread stores into its own slot and reads its neighbour's after the
// barrier.
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
    __shared__ int slots[256];
    asm volatile("" ::: "memory"); // the loads above stay above: their values live across
    slots[threadIdx.x] = scratch[(threadIdx.x * 7u + (unsigned)n) % RC_SCRATCH];
    __syncthreads();
    int seen = slots[(threadIdx.x + 1) % 256];
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < RC_LIVE; i++) sum += fminf(live[i], (float)(seen + i));
    out[blockIdx.x * 256 + threadIdx.x] = seen + scratch[n % RC_SCRATCH] + (int)sum;
}

int main()
{
    int *out;
    float *in;
    RC_CHECK(cudaMalloc(&out, 64 * 256 * sizeof(int)));
    RC_CHECK(cudaMalloc(&in, 4096 * sizeof(float)));
    RC_CHECK(cudaMemset(in, 0, 4096 * sizeof(float)));
    deep_frame<<<64, 256>>>(out, in, 3);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    return 0;
}
