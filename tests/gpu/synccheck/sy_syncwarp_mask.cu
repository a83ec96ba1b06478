// __syncwarp() (all 32 lanes named) called by lanes 0-15 only: lanes 16-31 go on and exit
// instead of arriving. synccheck reports the mask naming lanes that exited while the others
// waited (or, when they exited first, lanes that had exited: a warning).
#include "sy_common.h"

__global__ void syncwarp_half(int *out, int n)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = lane + n;
    if (lane < 16) {
        __syncwarp(); // BUG: names lanes 16-31, which never arrive
        out[lane] = s[lane + 1];
    }
}

int main() { return sy_run(syncwarp_half, 2, 32, 7); }
