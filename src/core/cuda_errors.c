/* Table of CUDA error codes (runtime and driver) that matter to a checker: names, a short text
 * and whether the error is sticky. Values from the CUDA 13.0 headers' documented enums. */
#include "core/cuda_errors.h"
#include "cucheck/event.h"

#include <stddef.h>
#include <string.h>

typedef struct err_entry {
    int32_t code;
    const char *name;
    const char *text;
    int sticky;
} err_entry;

static const err_entry runtime_errors[] = {
    {1, "cudaErrorInvalidValue", "invalid argument", 0},
    {2, "cudaErrorMemoryAllocation", "out of memory", 0},
    {3, "cudaErrorInitializationError", "initialization error", 0},
    {4, "cudaErrorCudartUnloading", "driver shutting down", 0},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument", 0},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument", 0},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol", 0},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer", 0},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy", 0},
    {35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version", 0},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function", 0},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected", 0},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal", 0},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid", 0},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device", 0},
    {217, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices", 0},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed", 0},
    {222, "cudaErrorUnsupportedPtxVersion", "the provided PTX was compiled with an unsupported toolchain", 0},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle", 0},
    {500, "cudaErrorSymbolNotFound", "named symbol not found", 0},
    {600, "cudaErrorNotReady", "device not ready", 0},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered", 1},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch", 0},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated", 1},
    {704, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled", 0},
    {709, "cudaErrorContextIsDestroyed", "context is destroyed", 0},
    {710, "cudaErrorAssert", "device-side assert triggered", 1},
    {714, "cudaErrorHardwareStackError", "hardware stack error", 1},
    {715, "cudaErrorIllegalInstruction", "an illegal instruction was encountered", 1},
    {716, "cudaErrorMisalignedAddress", "misaligned address", 1},
    {717, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space", 1},
    {718, "cudaErrorInvalidPc", "invalid program counter", 1},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure", 1},
    {720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch", 0},
    {801, "cudaErrorNotSupported", "operation not supported", 0},
    {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing", 0},
    {901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture", 0},
    {906, "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream", 0},
    {999, "cudaErrorUnknown", "unknown error", 0},
};

static const err_entry driver_errors[] = {
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument", 0},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory", 0},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error", 0},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down", 0},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected", 0},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal", 0},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid", 0},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context", 0},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device", 0},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed", 0},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain", 0},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle", 0},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found", 0},
    {600, "CUDA_ERROR_NOT_READY", "device not ready", 0},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered", 1},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch", 0},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated", 1},
    {710, "CUDA_ERROR_ASSERT", "device-side assert triggered", 1},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error", 1},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered", 1},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address", 1},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "operation not supported on global/shared address space", 1},
    {718, "CUDA_ERROR_INVALID_PC", "invalid program counter", 1},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure", 1},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported", 0},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error", 0},
};

static const err_entry *find(uint32_t api, int32_t code) {
    const err_entry *t = api == CC_API_DRIVER ? driver_errors : runtime_errors;
    size_t n = api == CC_API_DRIVER ? sizeof driver_errors / sizeof *driver_errors
                                    : sizeof runtime_errors / sizeof *runtime_errors;
    for (size_t i = 0; i < n; i++)
        if (t[i].code == code) return &t[i];
    return NULL;
}

const char *cc_cuda_error_name(uint32_t api, int32_t code) {
    const err_entry *e = find(api, code);
    return e ? e->name : NULL;
}

const char *cc_cuda_error_text(uint32_t api, int32_t code) {
    const err_entry *e = find(api, code);
    return e ? e->text : NULL;
}

int cc_cuda_error_is_sticky(uint32_t api, int32_t code) {
    const err_entry *e = find(api, code);
    return e ? e->sticky : 0;
}

/* `function` is `name`, or `name` followed by a per-thread-stream suffix ("_ptsz", "_ptds"). */
static int is_call(const char *function, const char *name) {
    size_t n = strlen(name);
    return strncmp(function, name, n) == 0 &&
           (function[n] == '\0' || strncmp(function + n, "_pt", 3) == 0);
}

/* Codes (both enums use the same numbers for these): 98 invalid device function (runtime),
 * 209 no kernel image / no binary for the GPU, 600 not ready, 704 peer access already enabled,
 * 705 peer access not enabled. */
int cc_cuda_error_is_expected(uint32_t api, const char *function, int32_t code) {
    if (code == 600) return 1; /* not ready, from stream/event queries */
    if (function == NULL) return 0;
    if (api == CC_API_RUNTIME) {
        if ((is_call(function, "cudaGetLastError") || is_call(function, "cudaPeekAtLastError")) &&
            !cc_cuda_error_is_sticky(api, code))
            return 1;
        if (is_call(function, "cudaFuncGetAttributes") && (code == 209 || code == 98)) return 1;
        if (is_call(function, "cudaDeviceEnablePeerAccess") && code == 704) return 1;
        if (is_call(function, "cudaDeviceDisablePeerAccess") && code == 705) return 1;
        return 0;
    }
    if (is_call(function, "cuFuncGetAttribute") && code == 209) return 1;
    if (is_call(function, "cuCtxEnablePeerAccess") && code == 704) return 1;
    if (is_call(function, "cuCtxDisablePeerAccess") && code == 705) return 1;
    return 0;
}
