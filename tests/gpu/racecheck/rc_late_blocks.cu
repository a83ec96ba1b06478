// A large elementwise grid without shared memory whose last blocks' first threads increment one
// global counter with a plain read-modify-write: found although the racing blocks lie far past
// the first 100,000 (a launch without shared memory needs no shared shadow, so that no bound
// on it leaves late blocks unchecked).
#include "rc_late_block_common.h"

__global__ void add_one_and_count(const float *in, float *out, int *counter)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1.0f;
    if (blockIdx.x >= LB_FIRST_COUNTING && threadIdx.x == 0) *counter = *counter + 1; // BUG
}

static void launch(const float *in, float *out, int *counter)
{
    add_one_and_count<<<LB_BLOCKS, LB_THREADS>>>(in, out, counter);
}

int main() { return lb_run(launch); }
