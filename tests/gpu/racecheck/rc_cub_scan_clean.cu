// CUB's device-wide exclusive sum of 64-bit values, as PyTorch's embedding backward runs it
// (DeviceScanKernel with ScanTileState<long, true>): sizes from one tile to thousands, so the
// decoupled look-back between blocks runs (strong 16-byte tile states, spin waits, warp-collective
// reductions). Correct: nothing to report, and the sums must come out right.
#include <cub/cub.cuh>
#include <vector>
#include "rc_common.h"

static int check_sum(unsigned n)
{
    std::vector<long> host(n);
    for (unsigned i = 0; i < n; i++) {
        host[i] = (long)(i % 7) + 1;
    }
    long *in = nullptr, *out = nullptr;
    RC_CHECK(cudaMalloc(&in, n * sizeof(long)));
    RC_CHECK(cudaMalloc(&out, n * sizeof(long)));
    RC_CHECK(cudaMemcpy(in, host.data(), n * sizeof(long), cudaMemcpyHostToDevice));
    void *tmp = nullptr;
    size_t bytes = 0;
    RC_CHECK(cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n));
    RC_CHECK(cudaMalloc(&tmp, bytes));
    RC_CHECK(cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n));
    std::vector<long> got(n);
    RC_CHECK(cudaMemcpy(got.data(), out, n * sizeof(long), cudaMemcpyDeviceToHost));
    long want = 0;
    int bad = 0;
    for (unsigned i = 0; i < n && !bad; i++) {
        bad = got[i] != want;
        want += host[i];
    }
    RC_CHECK(cudaFree(tmp));
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    if (bad) {
        std::fprintf(stderr, "rc_cub_scan_clean: wrong exclusive sum for %u items\n", n);
    }
    return bad;
}

int main()
{
    const unsigned sizes[] = {1000u, 4096u, 65536u, 1u << 20};
    int bad = 0;
    for (unsigned n : sizes) {
        bad |= check_sum(n);
    }
    std::printf("done\n");
    return bad;
}
