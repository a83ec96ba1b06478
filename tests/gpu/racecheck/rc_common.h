// Shared by racecheck's GPU test programs: a CUDA call that must succeed.
#pragma once
#include <cstdio>
#include <cstdlib>

#define RC_CHECK(call)                                                                     \
    do {                                                                                   \
        cudaError_t rc_err_ = (call);                                                      \
        if (rc_err_ != cudaSuccess) {                                                      \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                         \
                         cudaGetErrorString(rc_err_));                                     \
            std::exit(2);                                                                  \
        }                                                                                  \
    } while (0)
