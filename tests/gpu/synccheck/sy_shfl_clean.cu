// The fix of sy_shfl_mask, and a full-warp shuffle reduction: masks name exactly the lanes that
// take part (lanes 0-15 shuffle among themselves while lanes 16-31 go on).
#include "sy_common.h"

__global__ void shfl_half(int *out, int n)
{
    int lane = threadIdx.x;
    int v = lane * n;
    for (int d = 16; d > 0; d /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, d);
    }
    if (lane < 16) {
        v += __shfl_sync(0x0000ffffu, v, 0);
    }
    out[lane] = v;
}

int main() { return sy_run(shfl_half, 1, 32, 2); }
