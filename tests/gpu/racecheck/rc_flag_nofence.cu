// Flag handoff between two blocks without __threadfence(): block 0 writes the data and raises
// the flag; block 1 waits for the flag and reads the data, which nothing orders after the write.
#include "rc_common.h"
__global__ void handoff(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        out[0] = data[0]; // BUG: no fence orders block 0's write before this read
    }
}

int main()
{
    int *data, *flag, *out;
    RC_CHECK(cudaMalloc(&data, sizeof(int)));
    RC_CHECK(cudaMalloc(&flag, sizeof(int)));
    RC_CHECK(cudaMalloc(&out, sizeof(int)));
    RC_CHECK(cudaMemset(flag, 0, sizeof(int)));
    handoff<<<2, 32>>>(data, flag, out);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(data));
    RC_CHECK(cudaFree(flag));
    RC_CHECK(cudaFree(out));
    return 0;
}
