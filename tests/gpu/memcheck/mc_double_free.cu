/* memcheck test (buggy): the same buffer is released twice; the second cudaFree fails.
 * Expected: double-free (or invalid-free when the driver rejects the call before the free
 * callback). The program ignores the error and exits 0. */
#include "mc_common.h"

int main(void)
{
    float *p;
    CHECK(cudaMalloc((void **)&p, 1 << 20));
    CHECK(cudaFree(p));
    cudaError_t e = cudaFree(p); /* BUG: freed twice */
    printf("mc_double_free: second cudaFree returned %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    return 0;
}
