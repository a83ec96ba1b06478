// Block sum reduction whose loop lacks the barrier between steps: a step reads partial sums
// that other warps (and, below 32, other lanes of the warp) may not have written yet.
#include "rc_common.h"
__global__ void block_sum(const float *in, float *out)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s]; // BUG: no __syncthreads() between the steps
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
    block_sum<<<blocks, threads>>>(in, out);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    return 0;
}
