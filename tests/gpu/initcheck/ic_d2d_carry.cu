// A device-to-device copy carries uninitialised bytes: a's second half was never written, the
// copy to b carries that, and b copied to the host is reported (against b's allocation).
#include "ic_common.h"

int main()
{
    float *a = nullptr, *b = nullptr, host[IC_N];
    IC_CHECK(cudaMalloc(&a, IC_N * sizeof(float)));
    IC_CHECK(cudaMalloc(&b, IC_N * sizeof(float)));
    ic_fill<<<IC_N / 2 / 256, 256>>>(a, IC_N / 2, 1.0f); // only the first half
    IC_CHECK(cudaMemcpy(b, a, IC_N * sizeof(float), cudaMemcpyDeviceToDevice));
    IC_CHECK(cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost)); // BUG: b's second half
    std::printf("done %f\n", host[3]);
    return 0;
}
