// The same flag handoff with __threadfence() after the data write and after the wait (a
// release/acquire pairing through the flag): no race.
#include "rc_common.h"
__global__ void handoff(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        __threadfence();
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        __threadfence();
        out[0] = data[0];
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
