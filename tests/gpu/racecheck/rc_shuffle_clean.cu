// A warp-shuffle sum per warp, each warp's result stored to its own slot: no shared memory, no
// two threads touching one address.
#include "rc_common.h"
__global__ void warp_sums(const float *in, float *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int d = 16; d > 0; d /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, d);
    }
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

int main()
{
    const int blocks = 8, threads = 256;
    float *in, *out;
    RC_CHECK(cudaMalloc(&in, blocks * threads * sizeof(float)));
    RC_CHECK(cudaMalloc(&out, blocks * threads / 32 * sizeof(float)));
    RC_CHECK(cudaMemset(in, 0, blocks * threads * sizeof(float)));
    warp_sums<<<blocks, threads>>>(in, out);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    return 0;
}
