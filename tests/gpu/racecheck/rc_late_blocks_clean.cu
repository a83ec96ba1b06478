// The fix of rc_late_blocks: the last blocks count with atomicAdd.
#include "rc_late_block_common.h"

__global__ void add_one_and_count(const float *in, float *out, int *counter)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1.0f;
    if (blockIdx.x >= LB_FIRST_COUNTING && threadIdx.x == 0) atomicAdd(counter, 1);
}

static void launch(const float *in, float *out, int *counter)
{
    add_one_and_count<<<LB_BLOCKS, LB_THREADS>>>(in, out, counter);
}

int main() { return lb_run(launch); }
