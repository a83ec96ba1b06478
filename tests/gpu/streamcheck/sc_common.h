/* Shared by the streamcheck GPU test programs: CK() makes main() return 1 with a one-line
 * message when a CUDA runtime call fails. */
#ifndef CUCHECK_TESTS_GPU_STREAMCHECK_COMMON_H
#define CUCHECK_TESTS_GPU_STREAMCHECK_COMMON_H

#include <stdio.h>
#include <cuda_runtime.h>

#define CK(call)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    cudaGetErrorString(e_));                                               \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

#endif
