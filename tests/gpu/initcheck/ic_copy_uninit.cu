// A buffer nothing wrote, copied to the host: the copy is reported (every byte uninitialised),
// at the cudaMemcpy with the allocation's stack. A kernel fills another buffer, so that the run
// checks a launch too.
#include "ic_common.h"

int main()
{
    float *a = nullptr, *b = nullptr, host[IC_N];
    IC_CHECK(cudaMalloc(&a, IC_N * sizeof(float)));
    IC_CHECK(cudaMalloc(&b, IC_N * sizeof(float)));
    ic_fill<<<IC_N / 256, 256>>>(b, IC_N, 1.0f);
    IC_CHECK(cudaMemcpy(host, a, sizeof host, cudaMemcpyDeviceToHost)); // BUG: a never written
    IC_CHECK(cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost));
    std::printf("done %f\n", host[3]);
    return 0;
}
