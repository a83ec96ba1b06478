/* Which failed CUDA calls are not failures of the program (core/cuda_errors.c): not-ready from
 * queries, kernel-image probes, peer access already on (or already off), and non-sticky errors
 * returned again by cudaGetLastError; everything else, and the same codes from other calls,
 * stays an API error. */
#include "check.h"
#include "core/cuda_errors.h"
#include "cucheck/event.h"

static void test_answers_and_echoes(void)
{
    const uint32_t R = CC_API_RUNTIME, D = CC_API_DRIVER;
    CHECK(cc_cuda_error_is_expected(R, "cudaStreamQuery", 600));
    CHECK(cc_cuda_error_is_expected(D, "cuEventQuery", 600));
    CHECK(cc_cuda_error_is_expected(R, NULL, 600));
    /* NCCL asks for the attributes of kernels built for other GPUs, then clears the error */
    CHECK(cc_cuda_error_is_expected(R, "cudaFuncGetAttributes", 209));
    CHECK(cc_cuda_error_is_expected(R, "cudaFuncGetAttributes", 98));
    CHECK(cc_cuda_error_is_expected(R, "cudaGetLastError", 209));
    CHECK(cc_cuda_error_is_expected(R, "cudaPeekAtLastError", 9));
    CHECK(cc_cuda_error_is_expected(D, "cuFuncGetAttribute", 209));
    CHECK(cc_cuda_error_is_expected(R, "cudaDeviceEnablePeerAccess", 704));
    CHECK(cc_cuda_error_is_expected(R, "cudaDeviceDisablePeerAccess", 705));
    CHECK(cc_cuda_error_is_expected(D, "cuCtxEnablePeerAccess", 704));
    CHECK(cc_cuda_error_is_expected(R, "cudaGetLastError_ptsz", 1));
}

static void test_real_failures(void)
{
    const uint32_t R = CC_API_RUNTIME, D = CC_API_DRIVER;
    /* a launch without an image for this GPU is the bug doctor predicts */
    CHECK(!cc_cuda_error_is_expected(R, "cudaLaunchKernel", 209));
    CHECK(!cc_cuda_error_is_expected(D, "cuLaunchKernel", 209));
    CHECK(!cc_cuda_error_is_expected(R, "cudaMalloc", 2));
    CHECK(!cc_cuda_error_is_expected(R, "cudaFuncGetAttributes", 1)); /* a bad argument */
    CHECK(!cc_cuda_error_is_expected(R, "cudaDeviceEnablePeerAccess", 217)); /* unsupported */
    /* a sticky error seen first by cudaGetLastError is the asynchronous error itself */
    CHECK(!cc_cuda_error_is_expected(R, "cudaGetLastError", 700));
    CHECK(!cc_cuda_error_is_expected(R, "cudaGetLastErrorX", 9));
    CHECK(!cc_cuda_error_is_expected(R, NULL, 209));
    CHECK(!cc_cuda_error_is_expected(D, "cudaGetLastError", 9)); /* not a driver call */
}

int main(void)
{
    test_answers_and_echoes();
    test_real_failures();
    TEST_MAIN_END();
}
