/* Names and meanings of CUDA runtime (cudaError_t) and driver (CUresult) error codes, without
 * calling CUDA (the agent may not call CUDA inside callbacks; replay runs without CUDA). */
#ifndef CUCHECK_CORE_CUDA_ERRORS_H
#define CUCHECK_CORE_CUDA_ERRORS_H

#include <stdint.h>

/* api: CC_API_RUNTIME or CC_API_DRIVER (event.h). NULL if the code is not in the table. */
const char *cc_cuda_error_name(uint32_t api, int32_t code);
const char *cc_cuda_error_text(uint32_t api, int32_t code);
/* 1 if the error is sticky (the context is unusable: a kernel faulted or trapped). */
int cc_cuda_error_is_sticky(uint32_t api, int32_t code);
/* 1 if `function` (the API's name without its version suffix, e.g. "cudaFuncGetAttributes";
 * NULL if unknown) returning `code` is not a failure of the program: "not ready" from stream and
 * event queries; an answer to a question the caller asked (cudaFuncGetAttributes saying a
 * kernel has no image for this GPU, the way NCCL and other libraries probe their kernels); peer
 * access that was already enabled, or not enabled when disabled; a non-sticky error returned
 * again by cudaGetLastError/cudaPeekAtLastError (reported at the call that failed). */
int cc_cuda_error_is_expected(uint32_t api, const char *function, int32_t code);

#endif
