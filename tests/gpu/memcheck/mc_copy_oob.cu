/* memcheck test (buggy): a host-to-device copy of 1024 floats into a stream-ordered buffer of
 * 1000 floats. Expected: copy-out-of-range (96 bytes past the end of a 4000-byte allocation)
 * where the driver lets such a copy through, invalid-copy where it refuses it
 * (cudaErrorInvalidValue, seen with CUDA 13 on an H200: the program then exits 1). */
#include "mc_common.h"

int main(void)
{
    static float host[1024];
    float *small, *other;
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    CHECK(cudaMallocAsync((void **)&small, 1000 * sizeof(float), st));
    CHECK(cudaMallocAsync((void **)&other, 1024 * sizeof(float), st));
    CHECK(cudaMemcpyAsync(small, host, sizeof host, cudaMemcpyHostToDevice, st)); /* BUG: 1024 > 1000 */
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaFreeAsync(small, st));
    CHECK(cudaFreeAsync(other, st));
    CHECK(cudaStreamSynchronize(st));
    printf("mc_copy_oob: done\n");
    return 0;
}
