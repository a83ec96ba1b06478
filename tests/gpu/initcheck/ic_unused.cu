// --track-unused-memory: a 4096-float buffer of which the kernel writes only the first 1024
// floats, freed: 12288 bytes never written are reported at the cudaFree.
#include "ic_common.h"

int main()
{
    float *a = nullptr;
    IC_CHECK(cudaMalloc(&a, 4 * IC_N * sizeof(float)));
    ic_fill<<<IC_N / 256, 256>>>(a, IC_N, 1.0f);
    IC_CHECK(cudaDeviceSynchronize());
    IC_CHECK(cudaFree(a)); // BUG: three quarters of a never used
    std::printf("done\n");
    return 0;
}
