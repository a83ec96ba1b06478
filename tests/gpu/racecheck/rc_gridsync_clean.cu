// A cooperative launch: every block writes its partial sum, grid.sync(), then block 0 reads
// them all; the grid-wide barrier orders the writes before the reads.
#include <cooperative_groups.h>
#include "rc_common.h"
namespace cg = cooperative_groups;

__global__ void two_phase_sum(const float *in, float *partial, float *out)
{
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) partial[blockIdx.x] = in[blockIdx.x];
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float s = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++) s += partial[b];
        out[0] = s;
    }
}

int main()
{
    int dev = 0, coop = 0;
    RC_CHECK(cudaGetDevice(&dev));
    RC_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop) {
        std::printf("no cooperative launch on this device\n");
        return 0;
    }
    const int blocks = 8;
    float *in, *partial, *out;
    RC_CHECK(cudaMalloc(&in, blocks * sizeof(float)));
    RC_CHECK(cudaMalloc(&partial, blocks * sizeof(float)));
    RC_CHECK(cudaMalloc(&out, sizeof(float)));
    RC_CHECK(cudaMemset(in, 0, blocks * sizeof(float)));
    void *args[] = {&in, &partial, &out};
    RC_CHECK(cudaLaunchCooperativeKernel((void *)two_phase_sum, dim3(blocks), dim3(64), args, 0,
                                         0));
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(partial));
    RC_CHECK(cudaFree(out));
    return 0;
}
