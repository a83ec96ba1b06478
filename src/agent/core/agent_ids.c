/* Turning CUDA handles into the opaque 64-bit ids of cucheck events. Streams use the Sanitizer
 * stream handle, which stays unique for the process (a CUstream value can be reused after
 * cudaStreamDestroy); the two implicit default streams map to CC_STREAM_LEGACY and
 * CC_STREAM_PER_THREAD. */
#include <stdint.h>
#include "agent/core/agent.h"

uint64_t cc_agent_stream_id(CUstream stream, Sanitizer_StreamHandle handle)
{
    if (stream == CU_STREAM_PER_THREAD) {
        return CC_STREAM_PER_THREAD;
    }
    if (stream == NULL || stream == CU_STREAM_LEGACY) {
        return CC_STREAM_LEGACY;
    }
    if (handle != NULL) {
        return (uint64_t)(uintptr_t)handle;
    }
    return (uint64_t)(uintptr_t)stream;
}

uint64_t cc_agent_handle_id(const void *handle)
{
    return (uint64_t)(uintptr_t)handle;
}
