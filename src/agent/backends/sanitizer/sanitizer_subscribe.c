/* The Compute Sanitizer subscription: subscribing (only one tools-API client per process may),
 * enabling the callback domains cucheck translates, and dispatching each callback to the
 * translator of its domain. Callbacks that arrive while this thread is already inside one of
 * ours (caused by the agent's own Sanitizer calls) are ignored. */
#include <stdio.h>
#include "agent/core/agent.h"
#include "agent/core/self_time.h"

static _Thread_local int cc_in_callback;

static void cc_agent_callback(void *userdata, Sanitizer_CallbackDomain domain,
                              Sanitizer_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (cc_in_callback || data == NULL || (cc_agent_g.track & CC_TRACK_IDLE)) {
        return;
    }
    cc_in_callback = 1;
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    switch (domain) {
    case SANITIZER_CB_DOMAIN_DRIVER_API:
    case SANITIZER_CB_DOMAIN_RUNTIME_API:
        cc_agent_on_api(domain, cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_RESOURCE:
        cc_agent_on_resource(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_SYNCHRONIZE:
        cc_agent_on_synchronize(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_LAUNCH:
        cc_agent_on_launch(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_MEMCPY:
        cc_agent_on_memcpy(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_MEMSET:
        cc_agent_on_memset(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_GRAPHS:
        cc_agent_on_graphs(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_EVENTS:
        cc_agent_on_events(cbid, data);
        break;
    default:
        break;
    }
    if (t0 != 0) {
        if (domain == SANITIZER_CB_DOMAIN_DRIVER_API || domain == SANITIZER_CB_DOMAIN_RUNTIME_API) {
            cc_self_time_api_add(domain == SANITIZER_CB_DOMAIN_RUNTIME_API, cbid, t0);
        }
        cc_self_time_add((unsigned)domain, t0);
    }
    cc_in_callback = 0;
}

void cc_agent_ignore_callbacks_here(void)
{
    cc_in_callback = 1;
}

int cc_agent_subscribe(void)
{
    cc_agent *a = &cc_agent_g;
    SanitizerResult r = sanitizerSubscribe(&a->subscriber, cc_agent_callback, NULL);
    if (r == SANITIZER_SUCCESS) {
        a->subscribed = 1;
        return 0;
    }
    if (r == SANITIZER_ERROR_MAX_LIMIT_REACHED) {
        fprintf(stderr, "cucheck: cannot attach: another CUDA tools-API client (compute-sanitizer, "
                        "Nsight, a profiler) is active; the program runs unchecked (try "
                        "'cucheck doctor')\n");
    } else {
        const char *why = NULL;
        if (sanitizerGetResultString(r, &why) != SANITIZER_SUCCESS || why == NULL) {
            why = "unknown error";
        }
        fprintf(stderr, "cucheck: cannot attach: sanitizerSubscribe failed (%d: %s); the program "
                        "runs unchecked (try 'cucheck doctor')\n", (int)r, why);
    }
    return -1;
}

static void cc_enable(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid)
{
    SanitizerResult r = sanitizerEnableCallback(1, cc_agent_g.subscriber, domain, cbid);
    if (r != SANITIZER_SUCCESS) {
        cc_agent_note("cannot enable callback %d of domain %d (error %d)", (int)cbid, (int)domain,
                      (int)r);
    }
}

static void cc_enable_list(Sanitizer_CallbackDomain domain, const Sanitizer_CallbackId *cbids,
                           size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cc_enable(domain, cbids[i]);
    }
}

/* Runtime calls whose only possible errors repeat one already reported elsewhere: getters of
 * the current device and of the last error (which echo an earlier failure), capture-state
 * queries PyTorch makes around every launch. Skipping them keeps the API callbacks off the
 * hottest calls of frameworks. The driver's list adds the getters that frameworks and the
 * runtime call around every launch and whose failures leave nothing behind (no sticky state, no
 * work queued): PyTorch asks cuDevicePrimaryCtxGetState twice and cuKernelGetName once per
 * launch, and the runtime asks cuKernelGetAttribute several times per launch of a cuDNN kernel
 * (measured with CUCHECK_SELF_TIME=1 on the H200: 4 of a PyTorch launch's 5 API calls). */
static const Sanitizer_CallbackId cc_quiet_runtime_calls[] = {
    SANITIZER_CBID_RUNTIME_API_cudaGetDevice,
    SANITIZER_CBID_RUNTIME_API_cudaGetLastError,
    SANITIZER_CBID_RUNTIME_API_cudaPeekAtLastError,
    SANITIZER_CBID_RUNTIME_API_cudaGetErrorString,
    SANITIZER_CBID_RUNTIME_API_cudaGetErrorName,
    /* getters that leave nothing behind; cuDNN asks cudaFuncGetAttributes and
     * cudaGetErrorString hundreds of times per training step (CUCHECK_SELF_TIME=1 on the H200:
     * 117 and 230 per step of a CNN) */
    SANITIZER_CBID_RUNTIME_API_cudaFuncGetAttributes,
    SANITIZER_CBID_RUNTIME_API_cudaDeviceGetAttribute,
    SANITIZER_CBID_RUNTIME_API_cudaGetFuncBySymbol,
    SANITIZER_CBID_RUNTIME_API_cudaDriverGetVersion,
    SANITIZER_CBID_RUNTIME_API_cudaRuntimeGetVersion,
    SANITIZER_CBID_RUNTIME_API_cudaStreamIsCapturing,
    SANITIZER_CBID_RUNTIME_API_cudaStreamIsCapturing_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaStreamGetCaptureInfo,
    SANITIZER_CBID_RUNTIME_API_cudaStreamGetCaptureInfo_ptsz,
};
static const Sanitizer_CallbackId cc_quiet_driver_calls[] = {
    SANITIZER_CBID_DRIVER_API_cuCtxGetCurrent,
    SANITIZER_CBID_DRIVER_API_cuCtxGetDevice,
    SANITIZER_CBID_DRIVER_API_cuCtxGetDevice_v2,
    SANITIZER_CBID_DRIVER_API_cuGetErrorString,
    SANITIZER_CBID_DRIVER_API_cuGetErrorName,
    SANITIZER_CBID_DRIVER_API_cuStreamIsCapturing,
    SANITIZER_CBID_DRIVER_API_cuStreamIsCapturing_ptsz,
    SANITIZER_CBID_DRIVER_API_cuStreamGetCaptureInfo_v3,
    SANITIZER_CBID_DRIVER_API_cuStreamGetCaptureInfo_v3_ptsz,
    SANITIZER_CBID_DRIVER_API_cuDevicePrimaryCtxGetState,
    SANITIZER_CBID_DRIVER_API_cuKernelGetName,
    SANITIZER_CBID_DRIVER_API_cuFuncGetName,
    SANITIZER_CBID_DRIVER_API_cuKernelGetAttribute,
    SANITIZER_CBID_DRIVER_API_cuFuncGetAttribute,
    SANITIZER_CBID_DRIVER_API_cuKernelGetFunction,
    /* asked by PyTorch and Triton 10 to 20 times per step (cuGetProcAddress fails by design
     * when it probes for an entry point the driver lacks) */
    SANITIZER_CBID_DRIVER_API_cuDriverGetVersion,
    SANITIZER_CBID_DRIVER_API_cuCtxGetLimit,
    SANITIZER_CBID_DRIVER_API_cuDeviceGet,
    SANITIZER_CBID_DRIVER_API_cuDeviceGetAttribute,
    SANITIZER_CBID_DRIVER_API_cuGetProcAddress,
    SANITIZER_CBID_DRIVER_API_cuGetProcAddress_v2,
};

static void cc_enable_api(Sanitizer_CallbackDomain domain, const Sanitizer_CallbackId *quiet,
                          size_t nquiet)
{
    cc_agent *a = &cc_agent_g;
    SanitizerResult r = sanitizerEnableDomain(1, a->subscriber, domain);
    if (r != SANITIZER_SUCCESS) {
        cc_agent_note("cannot enable callback domain %d (error %d)", (int)domain, (int)r);
        return;
    }
    for (size_t i = 0; i < nquiet; i++) {
        sanitizerEnableCallback(0, a->subscriber, domain, quiet[i]);
    }
}

/* CC_TRACK_APIWORK: the calls whose parameters or answers the translators read. Launch calls
 * (streamcheck's inferred access sets read their arguments), stream and event queries (a
 * "complete" answer orders work), stream creation (its flags), capture begin and end (launches
 * into a capturing stream), and the calls where an asynchronous error usually surfaces first
 * (synchronizations, copies, memsets, frees): a sticky error must reach the tool before it takes
 * a failed synchronize for a finished one. The synchronous peer copies are watched so that their
 * copy is flagged (CUDA serializes it with the work of three devices). The runtime's calls are watched as well as the
 * driver's, so that a driver call the runtime makes on its own behalf is told apart. */
static const Sanitizer_CallbackId cc_work_runtime_calls[] = {
    SANITIZER_CBID_RUNTIME_API_cudaDeviceSynchronize,
    SANITIZER_CBID_RUNTIME_API_cudaStreamSynchronize,
    SANITIZER_CBID_RUNTIME_API_cudaStreamSynchronize_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaEventSynchronize,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpy,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpy_ptds,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpyAsync,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpyAsync_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpy2D,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpy2DAsync,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpyPeer,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpy3DPeer,
    SANITIZER_CBID_RUNTIME_API_cudaMemcpy3DPeer_ptds,
    SANITIZER_CBID_RUNTIME_API_cudaMemset,
    SANITIZER_CBID_RUNTIME_API_cudaMemset_ptds,
    SANITIZER_CBID_RUNTIME_API_cudaMemsetAsync,
    SANITIZER_CBID_RUNTIME_API_cudaMemsetAsync_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaFree,
    SANITIZER_CBID_RUNTIME_API_cudaFreeAsync,
    SANITIZER_CBID_RUNTIME_API_cudaFreeAsync_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel,
    SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel,
    SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC,
    SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaStreamQuery,
    SANITIZER_CBID_RUNTIME_API_cudaStreamQuery_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaEventQuery,
    SANITIZER_CBID_RUNTIME_API_cudaStreamCreateWithFlags,
    SANITIZER_CBID_RUNTIME_API_cudaStreamCreateWithPriority,
    SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture,
    SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCaptureToGraph,
    SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCaptureToGraph_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture,
    SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture_ptsz,
    SANITIZER_CBID_RUNTIME_API_cudaFreeHost,
    SANITIZER_CBID_RUNTIME_API_cudaDeviceSetLimit,
    SANITIZER_CBID_RUNTIME_API_cudaGraphLaunch,
    SANITIZER_CBID_RUNTIME_API_cudaGraphLaunch_ptsz,
};
static const Sanitizer_CallbackId cc_work_driver_calls[] = {
    SANITIZER_CBID_DRIVER_API_cuCtxSynchronize,
    SANITIZER_CBID_DRIVER_API_cuStreamSynchronize,
    SANITIZER_CBID_DRIVER_API_cuStreamSynchronize_ptsz,
    SANITIZER_CBID_DRIVER_API_cuEventSynchronize,
    SANITIZER_CBID_DRIVER_API_cuMemcpy,
    SANITIZER_CBID_DRIVER_API_cuMemcpyAsync,
    SANITIZER_CBID_DRIVER_API_cuMemcpyAsync_ptsz,
    SANITIZER_CBID_DRIVER_API_cuMemcpyHtoD_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpyDtoH_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpyDtoD_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpyHtoDAsync_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpyDtoHAsync_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpyPeer,
    SANITIZER_CBID_DRIVER_API_cuMemcpyPeer_ptds,
    SANITIZER_CBID_DRIVER_API_cuMemcpy3DPeer,
    SANITIZER_CBID_DRIVER_API_cuMemcpy3DPeer_ptds,
    SANITIZER_CBID_DRIVER_API_cuMemsetD8_v2,
    SANITIZER_CBID_DRIVER_API_cuMemsetD32_v2,
    SANITIZER_CBID_DRIVER_API_cuMemsetD8Async,
    SANITIZER_CBID_DRIVER_API_cuMemsetD32Async,
    SANITIZER_CBID_DRIVER_API_cuMemFree_v2,
    SANITIZER_CBID_DRIVER_API_cuMemFreeAsync,
    SANITIZER_CBID_DRIVER_API_cuMemFreeAsync_ptsz,
    SANITIZER_CBID_DRIVER_API_cuLaunchKernel,
    SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz,
    SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel,
    SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz,
    SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx,
    SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz,
    SANITIZER_CBID_DRIVER_API_cuStreamQuery,
    SANITIZER_CBID_DRIVER_API_cuStreamQuery_ptsz,
    SANITIZER_CBID_DRIVER_API_cuEventQuery,
    SANITIZER_CBID_DRIVER_API_cuStreamCreate,
    SANITIZER_CBID_DRIVER_API_cuStreamCreateWithPriority,
    SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture,
    SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_ptsz,
    SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_v2,
    SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_v2_ptsz,
    SANITIZER_CBID_DRIVER_API_cuStreamBeginCaptureToGraph,
    SANITIZER_CBID_DRIVER_API_cuStreamBeginCaptureToGraph_ptsz,
    SANITIZER_CBID_DRIVER_API_cuStreamEndCapture,
    SANITIZER_CBID_DRIVER_API_cuStreamEndCapture_ptsz,
    /* the launch calls the instrumentation manager's launch gate holds, and the stack limit it
     * reads again when the program sets one */
    SANITIZER_CBID_DRIVER_API_cuLaunch,
    SANITIZER_CBID_DRIVER_API_cuLaunchGrid,
    SANITIZER_CBID_DRIVER_API_cuLaunchGridAsync,
    SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernelMultiDevice,
    SANITIZER_CBID_DRIVER_API_cuGraphLaunch,
    SANITIZER_CBID_DRIVER_API_cuGraphLaunch_ptsz,
    SANITIZER_CBID_DRIVER_API_cuCtxSetLimit,
    /* more copies, memsets and frees a program may call itself (memcheck's findings) */
    SANITIZER_CBID_DRIVER_API_cuMemFreeHost,
    SANITIZER_CBID_DRIVER_API_cuMemsetD16_v2,
    SANITIZER_CBID_DRIVER_API_cuMemsetD16Async,
    SANITIZER_CBID_DRIVER_API_cuMemsetD2D8_v2,
    SANITIZER_CBID_DRIVER_API_cuMemsetD2D32_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpy2D_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpy2DAsync_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpy2DUnaligned_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpy3D_v2,
    SANITIZER_CBID_DRIVER_API_cuMemcpy3DAsync_v2,
};

/* Only the callbacks the translators use are enabled (each enabled callback costs on every
 * call of its kind, whatever the agent then does with it). */
void cc_agent_enable_callbacks(void)
{
    uint32_t t = cc_agent_g.track;
    if (t & CC_TRACK_RESOURCE) {
        static const Sanitizer_CallbackId resource[] = {
            SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED,
            SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
            SANITIZER_CBID_RESOURCE_STREAM_CREATED,
            SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING,
            SANITIZER_CBID_RESOURCE_MODULE_LOADED,
            SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
            SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC,
            SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE,
            SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC,
            SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE,
            SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC,
            SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC,
            SANITIZER_CBID_RESOURCE_FUNCTIONS_LAZY_LOADED,
            SANITIZER_CBID_RESOURCE_VIRTUAL_RESERVE,
            SANITIZER_CBID_RESOURCE_VIRTUAL_RELEASE,
        };
        cc_enable_list(SANITIZER_CB_DOMAIN_RESOURCE, resource,
                       sizeof resource / sizeof resource[0]);
    }
    if (t & CC_TRACK_LAUNCH) {
        cc_enable(SANITIZER_CB_DOMAIN_LAUNCH, SANITIZER_CBID_LAUNCH_BEGIN);
    }
    if (t & CC_TRACK_MEMCPY) {
        cc_enable(SANITIZER_CB_DOMAIN_MEMCPY, SANITIZER_CBID_MEMCPY_STARTING);
    }
    if (t & CC_TRACK_MEMSET) {
        cc_enable(SANITIZER_CB_DOMAIN_MEMSET, SANITIZER_CBID_MEMSET_STARTING);
    }
    if (t & CC_TRACK_SYNC) {
        cc_enable(SANITIZER_CB_DOMAIN_SYNCHRONIZE, SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED);
        cc_enable(SANITIZER_CB_DOMAIN_SYNCHRONIZE, SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED);
    }
    if (t & CC_TRACK_EVENTS) {
        static const Sanitizer_CallbackId events[] = {
            SANITIZER_CBID_EVENTS_CREATED,     SANITIZER_CBID_EVENTS_DESTROYED,
            SANITIZER_CBID_EVENTS_RECORD,      SANITIZER_CBID_EVENTS_STREAM_WAIT,
            SANITIZER_CBID_EVENTS_SYNCHRONIZE,
        };
        cc_enable_list(SANITIZER_CB_DOMAIN_EVENTS, events, sizeof events / sizeof events[0]);
    }
    if (t & CC_TRACK_GRAPHS) {
        cc_enable(SANITIZER_CB_DOMAIN_GRAPHS, SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN);
        cc_enable(SANITIZER_CB_DOMAIN_GRAPHS, SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN);
    }
    if (t & CC_TRACK_RUNTIME) {
        cc_enable_api(SANITIZER_CB_DOMAIN_RUNTIME_API, cc_quiet_runtime_calls,
                      sizeof cc_quiet_runtime_calls / sizeof cc_quiet_runtime_calls[0]);
    } else if (t & CC_TRACK_APIWORK) {
        cc_enable_list(SANITIZER_CB_DOMAIN_RUNTIME_API, cc_work_runtime_calls,
                       sizeof cc_work_runtime_calls / sizeof cc_work_runtime_calls[0]);
    }
    if (t & CC_TRACK_DRIVER) {
        cc_enable_api(SANITIZER_CB_DOMAIN_DRIVER_API, cc_quiet_driver_calls,
                      sizeof cc_quiet_driver_calls / sizeof cc_quiet_driver_calls[0]);
    } else if (t & CC_TRACK_APIWORK) {
        cc_enable_list(SANITIZER_CB_DOMAIN_DRIVER_API, cc_work_driver_calls,
                       sizeof cc_work_driver_calls / sizeof cc_work_driver_calls[0]);
    }
}
