/* memcheck test (buggy): a kernel calls device-side free() on a cudaMalloc buffer, which no
 * device-side malloc returned. Run with --on-error stop, so that the warp exits before the
 * invalid free runs. Expected: invalid-device-free in release_all by thread (3,0,0) of block
 * (0,0,0), at the buffer's address (MC_EXPECT). */
#include "mc_common.h"

__global__ void release_all(int *buf)
{
    buf[threadIdx.x] = 0;
    if (threadIdx.x == 3) {
        free(buf); /* BUG: buf comes from cudaMalloc, not from device-side malloc */
    }
}

int main(void)
{
    int *buf;
    CHECK(cudaMalloc((void **)&buf, 64 * sizeof(int)));
    printf("MC_EXPECT address=%p\n", (void *)buf);
    fflush(stdout);
    release_all<<<1, 32>>>(buf);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(buf));
    printf("mc_invalid_device_free: done\n");
    return 0;
}
