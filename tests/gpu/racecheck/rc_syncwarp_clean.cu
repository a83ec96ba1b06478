// The same lane rotation with __syncwarp() between the store and the load: no hazard.
#include "rc_common.h"
__global__ void rotate_lanes(const int *in, int *out)
{
    __shared__ int buf[32];
    unsigned lane = threadIdx.x;
    buf[lane] = in[lane];
    __syncwarp();
    int v = buf[(lane + 1) % 32];
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
