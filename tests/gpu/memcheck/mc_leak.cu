/* memcheck test (buggy, with --leak-check full): one of two buffers is never freed.
 * Expected: leak of 4000 bytes allocated at mc_leak.cu:11. */
#include "mc_common.h"

__global__ void touch(float *p, int n) { int i = threadIdx.x; if (i < n) p[i] = 1.0f; }

int main(void)
{
    float *kept, *freed;
    CHECK(cudaMalloc((void **)&freed, 256));
    CHECK(cudaMalloc((void **)&kept, 4000)); /* BUG: never freed */
    touch<<<1, 64>>>(kept, 1000);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(freed));
    printf("mc_leak: done\n");
    return 0;
}
