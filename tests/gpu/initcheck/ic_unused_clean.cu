// --track-unused-memory, fixed: the buffer is sized to what the kernel writes. No findings.
#include "ic_common.h"

int main()
{
    float *a = nullptr;
    IC_CHECK(cudaMalloc(&a, IC_N * sizeof(float)));
    ic_fill<<<IC_N / 256, 256>>>(a, IC_N, 1.0f);
    IC_CHECK(cudaDeviceSynchronize());
    IC_CHECK(cudaFree(a));
    std::printf("done\n");
    return 0;
}
