/* Shared by the memcheck GPU test programs: CHECK() exits with a one-line message when a CUDA
 * runtime call fails. */
#ifndef CUCHECK_TESTS_GPU_MEMCHECK_COMMON_H
#define CUCHECK_TESTS_GPU_MEMCHECK_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t check_err_ = (call);                                                   \
        if (check_err_ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,           \
                    cudaGetErrorName(check_err_));                                         \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#endif
