// Lanes of one warp exchange values through shared memory without __syncwarp() between the
// store and the load: under independent thread scheduling (sm_70 and later) a lane may read its
// neighbour's slot before the neighbour wrote it.
#include "rc_common.h"
__global__ void rotate_lanes(const int *in, int *out)
{
    __shared__ int buf[32];
    unsigned lane = threadIdx.x;
    buf[lane] = in[lane];
    int v = buf[(lane + 1) % 32]; // BUG: no __syncwarp() after the store
    out[lane] = v;
}

int main()
{
    int *in, *out;
    RC_CHECK(cudaMalloc(&in, 32 * sizeof(int)));
    RC_CHECK(cudaMalloc(&out, 32 * sizeof(int)));
    RC_CHECK(cudaMemset(in, 0, 32 * sizeof(int)));
    rotate_lanes<<<1, 32>>>(in, out);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    return 0;
}
