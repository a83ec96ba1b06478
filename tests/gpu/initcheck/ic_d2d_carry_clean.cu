// The fixed program: the kernel fills all of a before the device-to-device copy. No findings.
#include "ic_common.h"

int main()
{
    float *a = nullptr, *b = nullptr, host[IC_N];
    IC_CHECK(cudaMalloc(&a, IC_N * sizeof(float)));
    IC_CHECK(cudaMalloc(&b, IC_N * sizeof(float)));
    ic_fill<<<IC_N / 256, 256>>>(a, IC_N, 1.0f);
    IC_CHECK(cudaMemcpy(b, a, IC_N * sizeof(float), cudaMemcpyDeviceToDevice));
    IC_CHECK(cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost));
    std::printf("done %f\n", host[3]);
    return 0;
}
