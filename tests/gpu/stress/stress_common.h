/* Shared by the stress programs: CHECK(call) prints "<STRESS_NAME>: <call> failed: <error>" and
 * exits 1 when a CUDA runtime call fails. Each program defines STRESS_NAME before including. */
#ifndef CUCHECK_STRESS_COMMON_H
#define CUCHECK_STRESS_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(x)                                                                       \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, STRESS_NAME ": %s failed: %s\n", #x, cudaGetErrorString(e_)); \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

#endif
