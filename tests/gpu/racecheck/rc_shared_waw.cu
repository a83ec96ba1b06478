// Every warp's first lane stores its warp number into one shared status word with no barrier
// between the stores: a write-after-write hazard between warps (different values).
#include "rc_common.h"
__global__ void publish_status(int *out)
{
    __shared__ int status;
    if (threadIdx.x % 32 == 0) status = threadIdx.x / 32 + 1; // BUG: every warp writes, unordered
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = status;
}

int main()
{
    int *out;
    RC_CHECK(cudaMalloc(&out, 4 * sizeof(int)));
    publish_status<<<4, 128>>>(out);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(out));
    return 0;
}
