// A cluster of two blocks (sm_90 and later): block 0 writes into block 1's shared memory
// (distributed shared memory) while block 1 reads it, with no cluster barrier between the two.
// On an older GPU the program says so and launches nothing.
#include <cooperative_groups.h>
#include "rc_common.h"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) exchange(int *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ int buf[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned tid = threadIdx.x;
    buf[tid] = 0;
    cluster.sync();
    int *peer = cluster.map_shared_rank(buf, 1);
    if (cluster.block_rank() == 0) peer[tid] = tid + 1; else out[tid] = buf[tid]; // BUG: no cluster.sync() between
    cluster.sync();
#else
    (void)out;
#endif
}

int main()
{
    int dev = 0, major = 0;
    RC_CHECK(cudaGetDevice(&dev));
    RC_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 9) {
        std::printf("thread-block clusters need sm_90 or later\n");
        return 0;
    }
    int *out;
    RC_CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    exchange<<<2, 64>>>(out);
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaFree(out));
    return 0;
}
