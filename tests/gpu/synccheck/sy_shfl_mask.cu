// __shfl_sync(0xffffffff, ...) run by lanes 0-15 only while lanes 16-31 take the other branch
// and go on: its mask names lanes that never take part. (The compiler keeps a shuffle's mask in
// the binary, as a warp sync before it, only where the warp has diverged with all its lanes
// alive; where the lanes left out exit first, the mask is dropped and nothing can check it.)
#include "sy_common.h"

__global__ void shfl_half(int *out, int n)
{
    int lane = threadIdx.x;
    int v = lane * n;
    if (lane < 16) {
        v += __shfl_sync(0xffffffffu, v, 0); // BUG: lanes 16-31 do not take part
    }
    out[lane] = v;
}

int main() { return sy_run(shfl_half, 1, 32, 2); }
