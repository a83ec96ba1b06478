/* Turning CUDA handles into the opaque 64-bit ids of cucheck events. Streams use the Sanitizer
 * stream handle, which stays unique for the process (a CUstream value can be reused after
 * cudaStreamDestroy); the two implicit default streams map to CC_STREAM_LEGACY and
 * CC_STREAM_PER_THREAD. Under CUPTI (no Sanitizer subscription) streams are named by their
 * CUstream, as the CUPTI bridge names them. */
#include <pthread.h>
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

typedef CUresult (*cc_stream_ctx_fn)(CUstream, CUcontext *);
typedef CUresult (*cc_current_ctx_fn)(CUcontext *);
static cc_stream_ctx_fn cc_stream_ctx;
static cc_current_ctx_fn cc_current_ctx;
static pthread_once_t cc_ctx_fns_once = PTHREAD_ONCE_INIT;

static void cc_ctx_fns_resolve(void)
{
    *(void **)&cc_stream_ctx = cc_agent_driver_symbol("cuStreamGetCtx");
    *(void **)&cc_current_ctx = cc_agent_driver_symbol("cuCtxGetCurrent");
}

uint64_t cc_agent_app_stream_id(CUstream stream, uint64_t *context)
{
    pthread_once(&cc_ctx_fns_once, cc_ctx_fns_resolve);
    int implicit = stream == NULL || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD;
    CUcontext ctx = NULL;
    if (implicit || cc_stream_ctx == NULL || cc_stream_ctx(stream, &ctx) != CUDA_SUCCESS) {
        ctx = NULL;
        if (cc_current_ctx == NULL || cc_current_ctx(&ctx) != CUDA_SUCCESS) {
            ctx = NULL;
        }
    }
    *context = cc_agent_handle_id(ctx);
    Sanitizer_StreamHandle sh = NULL;
    if (!implicit && cc_agent_g.subscribed && ctx != NULL &&
        sanitizerGetStreamHandle(ctx, stream, &sh) != SANITIZER_SUCCESS) {
        sh = NULL;
    }
    return cc_agent_stream_id(stream, sh);
}
