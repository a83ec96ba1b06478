// cudaMemset over the first half of a buffer, then the whole buffer copied out: the second half
// was never written (per byte).
#include "ic_common.h"

int main()
{
    float *a = nullptr, *b = nullptr, host[IC_N];
    IC_CHECK(cudaMalloc(&a, IC_N * sizeof(float)));
    IC_CHECK(cudaMalloc(&b, IC_N * sizeof(float)));
    ic_fill<<<IC_N / 256, 256>>>(b, IC_N, 1.0f);
    IC_CHECK(cudaMemset(a, 0, IC_N / 2 * sizeof(float)));
    IC_CHECK(cudaMemcpy(host, a, sizeof host, cudaMemcpyDeviceToHost)); // BUG: second half unset
    std::printf("done %f\n", host[3]);
    return 0;
}
