// The same block sum reduction with the barrier in its loop: no hazard.
#include "rc_common.h"
__global__ void block_sum(const float *in, float *out)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main()
{
    const int blocks = 16, threads = 256;
    float *in, *out;
    RC_CHECK(cudaMalloc(&in, blocks * threads * sizeof(float)));
    RC_CHECK(cudaMalloc(&out, blocks * sizeof(float)));
    RC_CHECK(cudaMemset(in, 0, blocks * threads * sizeof(float)));
    for (int i = 0; i < 3; i++) {
        block_sum<<<blocks, threads>>>(in, out);
    }
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    return 0;
}
