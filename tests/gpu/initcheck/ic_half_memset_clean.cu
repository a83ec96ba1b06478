// The fixed program: the whole buffer is set (two memsets of one half each). No findings.
#include "ic_common.h"

int main()
{
    float *a = nullptr, *b = nullptr, host[IC_N];
    IC_CHECK(cudaMalloc(&a, IC_N * sizeof(float)));
    IC_CHECK(cudaMalloc(&b, IC_N * sizeof(float)));
    ic_fill<<<IC_N / 256, 256>>>(b, IC_N, 1.0f);
    IC_CHECK(cudaMemset(a, 0, IC_N / 2 * sizeof(float)));
    IC_CHECK(cudaMemset(a + IC_N / 2, 0, IC_N / 2 * sizeof(float)));
    IC_CHECK(cudaMemcpy(host, a, sizeof host, cudaMemcpyDeviceToHost));
    std::printf("done %f\n", host[3]);
    return 0;
}
