// Every block's first thread increments one global counter with a plain read-modify-write
// instead of atomicAdd: the blocks' loads and stores of the counter race.
#include "rc_common.h"
__global__ void count_blocks(int *counter)
{
    if (threadIdx.x == 0) *counter = *counter + 1; // BUG: not atomicAdd
}

int main()
{
    int *counter;
    RC_CHECK(cudaMalloc(&counter, sizeof(int)));
    RC_CHECK(cudaMemset(counter, 0, sizeof(int)));
    count_blocks<<<8, 64>>>(counter);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(counter));
    return 0;
}
