/* Driver entry points the agent calls itself (cuStreamIsCapturing, cuGraphKernelNodeGetParams),
 * looked up in the libcuda the program already loaded: the agent links no CUDA library. */
#include <dlfcn.h>
#include <pthread.h>
#include "agent/core/agent.h"

void *cc_agent_driver_symbol(const char *name)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (h == NULL) {
        h = dlopen("libcuda.so", RTLD_NOW | RTLD_NOLOAD);
    }
    /* h stays open: libcuda is never unloaded while the program runs. */
    return h != NULL ? dlsym(h, name) : NULL;
}

typedef CUresult (*cc_is_capturing_fn)(CUstream, CUstreamCaptureStatus *);
static cc_is_capturing_fn cc_is_capturing;
static pthread_once_t cc_is_capturing_once = PTHREAD_ONCE_INIT;

static void cc_is_capturing_resolve(void)
{
    void *f = cc_agent_driver_symbol("cuStreamIsCapturing");
    *(void **)&cc_is_capturing = f;
    if (f == NULL) {
        cc_agent_note("cuStreamIsCapturing not found: launches on capturing streams cannot be "
                      "told apart");
    }
}

int cc_agent_stream_capturing(CUstream stream)
{
    pthread_once(&cc_is_capturing_once, cc_is_capturing_resolve);
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    if (cc_is_capturing == NULL || cc_is_capturing(stream, &st) != CUDA_SUCCESS) {
        return -1;
    }
    return st != CU_STREAM_CAPTURE_STATUS_NONE;
}
