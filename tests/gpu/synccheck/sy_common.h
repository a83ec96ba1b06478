// Shared by synccheck's GPU test programs: a CUDA call that must succeed, and one launch of a
// one-argument kernel on an int buffer, synchronized and checked.
#pragma once
#include <cstdio>
#include <cstdlib>

#define SY_CHECK(call)                                                                     \
    do {                                                                                   \
        cudaError_t sy_err_ = (call);                                                      \
        if (sy_err_ != cudaSuccess) {                                                      \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                         \
                         cudaGetErrorString(sy_err_));                                     \
            std::exit(2);                                                                  \
        }                                                                                  \
    } while (0)

// Runs kernel<<<grid, block>>>(buf, n) twice (adaptive mode checks both) on a zeroed buffer.
template <typename K> static int sy_run(K kernel, int grid, int block, int n)
{
    int *buf = nullptr;
    SY_CHECK(cudaMalloc(&buf, 4096 * sizeof(int)));
    SY_CHECK(cudaMemset(buf, 0, 4096 * sizeof(int)));
    for (int i = 0; i < 2; i++) {
        kernel<<<grid, block>>>(buf, n);
        SY_CHECK(cudaGetLastError());
        SY_CHECK(cudaDeviceSynchronize());
    }
    SY_CHECK(cudaFree(buf));
    std::printf("done\n");
    return 0;
}
