/* Shared by the example programs: CHECK() wraps a CUDA runtime call and exits with a one-line
 * message (file:line, call, error name and text) when it fails. */
#ifndef CUCHECK_EXAMPLES_CUDA_CHECK_H
#define CUCHECK_EXAMPLES_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t check_err_ = (call);                                                   \
        if (check_err_ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,      \
                    cudaGetErrorName(check_err_), cudaGetErrorString(check_err_));         \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#endif
