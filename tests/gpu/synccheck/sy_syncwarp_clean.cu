// The fix of sy_syncwarp_mask: the mask names exactly the lanes that call it.
#include "sy_common.h"

__global__ void syncwarp_half(int *out, int n)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = lane + n;
    if (lane < 16) {
        __syncwarp(0x0000ffffu);
        out[lane] = s[lane + 1];
    }
}

int main() { return sy_run(syncwarp_half, 2, 32, 7); }
