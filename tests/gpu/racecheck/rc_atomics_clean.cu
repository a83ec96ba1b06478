// Counters updated only with atomics, in global and in shared memory: atomics never race with
// atomics.
#include "rc_common.h"
__global__ void count_blocks(int *counter)
{
    __shared__ int block_count;
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();
    atomicAdd(&block_count, 1);
    atomicAdd(counter, 1);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(counter + 1, block_count);
}

int main()
{
    int *counter;
    RC_CHECK(cudaMalloc(&counter, 2 * sizeof(int)));
    RC_CHECK(cudaMemset(counter, 0, 2 * sizeof(int)));
    count_blocks<<<8, 64>>>(counter);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(counter));
    return 0;
}
