// Shared by initcheck's GPU test programs: a CUDA call that must succeed, and small kernels that
// write or read a float buffer.
#pragma once
#include <cstdio>
#include <cstdlib>

#define IC_CHECK(call)                                                                     \
    do {                                                                                   \
        cudaError_t ic_err_ = (call);                                                      \
        if (ic_err_ != cudaSuccess) {                                                      \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                         \
                         cudaGetErrorString(ic_err_));                                     \
            std::exit(2);                                                                  \
        }                                                                                  \
    } while (0)

static __global__ void ic_fill(float *out, int n, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = v + (float)i;
    }
}

static const int IC_N = 1024;
