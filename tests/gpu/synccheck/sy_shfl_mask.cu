// __shfl_sync(0xffffffff, ...) run by lanes 0-15 only: its mask names lanes 16-31, which go on
// and exit instead of taking part.
#include "sy_common.h"

__global__ void shfl_half(int *out, int n)
{
    int lane = threadIdx.x;
    int v = lane * n;
    if (lane < 16) {
        v += __shfl_sync(0xffffffffu, v, 0); // BUG: lanes 16-31 do not take part
        out[lane] = v;
    }
}

int main() { return sy_run(shfl_half, 1, 32, 2); }
