// A kernel writes all but the last 8 elements (an off-by-8 bound), the next one reads them all:
// the reads of the tail (by both loads of the line) are reported, not the rest.
#include "ic_common.h"

__global__ void sum_pairs(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] + in[n - 1 - i]; // BUG: in[n-8..n-1] never written
    }
}

int main()
{
    float *in = nullptr, *out = nullptr, host[IC_N];
    IC_CHECK(cudaMalloc(&in, IC_N * sizeof(float)));
    IC_CHECK(cudaMalloc(&out, IC_N * sizeof(float)));
    ic_fill<<<IC_N / 256, 256>>>(in, IC_N - 8, 1.0f);
    sum_pairs<<<IC_N / 256, 256>>>(in, out, IC_N);
    IC_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    std::printf("done %f\n", host[3]);
    return 0;
}
