/* RUNTIME_API / DRIVER_API callbacks: a call that returns an error becomes CC_EV_API_ERROR with
 * the function name, the numeric code and the host stack; stream and event queries that answer
 * "complete" become STREAM_QUERY / EVENT_QUERY; stream creation flags are noted for the RESOURCE
 * callback that reports the new stream, and entries into synchronous peer copies for the MEMCPY
 * callback that reports their copy. "Not ready" answers of query calls are not errors.
 * Driver calls made by the runtime itself (inside a runtime call on the same thread) are not
 * reported: the runtime call's own result is. Error names and texts come from cucheck's own table
 * (core/cuda_errors.h), since CUDA may not be called inside callbacks; codes missing from the
 * table get empty strings, and the numeric code still identifies the error. */
#include <stdio.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/self_time.h"
#include "agent/instr/instr.h"
#include "core/cuda_errors.h"

static _Thread_local int cc_runtime_depth;
/* Creation flags of the stream being created by this thread's current API call; the RESOURCE
 * callback that reports the new stream comes inside that call and lacks them. */
static _Thread_local uint32_t cc_creating_stream_flags; /* bit 31: valid */

/* The first two parameters of every stream-creating call (cudaStreamCreateWithFlags,
 * cudaStreamCreateWithPriority, cuStreamCreate, cuStreamCreateWithPriority): where the new
 * stream goes, then its flags. */
typedef struct cc_stream_create_params {
    void *stream_out;
    unsigned int flags;
} cc_stream_create_params;

uint32_t cc_agent_creating_stream_flags(void)
{
    return (cc_creating_stream_flags & 0x80000000u) ? (cc_creating_stream_flags & 0x7fffffffu) : 0;
}

/* Synchronous peer copies (runtime calls and the driver calls they make) this thread is inside:
 * the copy their MEMCPY callback reports is flagged CC_COPY_FLAG_PEER_SYNC. */
static _Thread_local int cc_peer_copy_depth;

int cc_agent_in_peer_copy(void)
{
    return cc_peer_copy_depth > 0;
}

/* The synchronous peer copies (CUPTI numbers driver calls as the Sanitizer does, so the CUPTI
 * backend's driver callbacks are recognized here too). */
static int cc_is_peer_copy(int runtime, Sanitizer_CallbackId cbid)
{
    if (runtime) {
        return cbid == SANITIZER_CBID_RUNTIME_API_cudaMemcpyPeer ||
               cbid == SANITIZER_CBID_RUNTIME_API_cudaMemcpy3DPeer ||
               cbid == SANITIZER_CBID_RUNTIME_API_cudaMemcpy3DPeer_ptds;
    }
    return cbid == SANITIZER_CBID_DRIVER_API_cuMemcpyPeer ||
           cbid == SANITIZER_CBID_DRIVER_API_cuMemcpyPeer_ptds ||
           cbid == SANITIZER_CBID_DRIVER_API_cuMemcpy3DPeer ||
           cbid == SANITIZER_CBID_DRIVER_API_cuMemcpy3DPeer_ptds;
}

/* Count this thread's entries into (exits from) a synchronous peer copy. */
static void cc_note_peer_copy(int runtime, Sanitizer_CallbackId cbid, int enter)
{
    if (!cc_is_peer_copy(runtime, cbid)) {
        return;
    }
    if (enter) {
        cc_peer_copy_depth++;
    } else if (cc_peer_copy_depth > 0) { /* an exit without its enter (late initialization) */
        cc_peer_copy_depth--;
    }
}

static int cc_is_stream_create(int runtime, Sanitizer_CallbackId cbid)
{
    if (runtime) {
        return cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamCreateWithFlags ||
               cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamCreateWithPriority;
    }
    return cbid == SANITIZER_CBID_DRIVER_API_cuStreamCreate ||
           cbid == SANITIZER_CBID_DRIVER_API_cuStreamCreateWithPriority;
}

/* A query that answered "complete" orders like a synchronize (the run tool narrows the launches
 * in flight with it). Only cudaStreamQuery/cuStreamQuery and cudaEventQuery/cuEventQuery. */
static void cc_emit_query(int runtime, Sanitizer_CallbackId cbid, const Sanitizer_CallbackData *d)
{
    int stream_query = runtime ? (cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamQuery ||
                                  cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamQuery_ptsz)
                               : (cbid == SANITIZER_CBID_DRIVER_API_cuStreamQuery ||
                                  cbid == SANITIZER_CBID_DRIVER_API_cuStreamQuery_ptsz);
    int event_query = runtime ? cbid == SANITIZER_CBID_RUNTIME_API_cudaEventQuery
                              : cbid == SANITIZER_CBID_DRIVER_API_cuEventQuery;
    if ((!stream_query && !event_query) || d->functionParams == NULL) {
        return;
    }
    /* Both take the stream or event handle as their only parameter. */
    void *handle = *(void *const *)d->functionParams;
    cc_event ev;
    if (stream_query) {
        Sanitizer_StreamHandle sh = NULL;
        CUstream s = handle;
        if (cc_agent_g.subscribed && s != NULL && s != CU_STREAM_LEGACY &&
            s != CU_STREAM_PER_THREAD && sanitizerGetStreamHandle(d->context, s, &sh) != SANITIZER_SUCCESS) {
            sh = NULL;
        }
        cc_agent_event_init(&ev, CC_EV_STREAM_QUERY);
        ev.u.sync.context = cc_agent_handle_id(d->context);
        ev.u.sync.device = -1;
        ev.u.sync.stream = cc_agent_stream_id(s, sh);
    } else {
        cc_agent_event_init(&ev, CC_EV_EVENT_QUERY);
        ev.u.event.context = cc_agent_handle_id(d->context);
        ev.u.event.event = cc_agent_handle_id(handle);
    }
    cc_agent_emit(&ev);
}

/* "cudaMalloc_v3020" -> "cudaMalloc", "cuMemAlloc_v2" -> "cuMemAlloc": the name the program
 * wrote rather than the versioned entry point. */
static void cc_api_base_name(const char *name, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s", name != NULL ? name : "");
    char *v = strrchr(out, '_');
    if (v == NULL || v == out || v[1] != 'v' || v[2] == '\0') {
        return;
    }
    for (const char *p = v + 2; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            return;
        }
    }
    *v = '\0';
}

void cc_agent_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void *data)
{
    const Sanitizer_CallbackData *d = data;
    int runtime = domain == SANITIZER_CB_DOMAIN_RUNTIME_API;
    cc_agent_capture_count(domain, cbid, d->callbackSite == SANITIZER_API_ENTER);
    if (cc_self_time_on && d->callbackSite == SANITIZER_API_ENTER) {
        cc_self_time_api(runtime, cbid, d->functionName, !runtime && cc_runtime_depth > 0);
    }
    CC_PLUGIN_CALL(on_api, domain, cbid, d);
    /* the launch gate, deferred module (un)patching at exits */
    cc_instr_on_api(domain, cbid, d->callbackSite == SANITIZER_API_ENTER, d->context);
    cc_note_peer_copy(runtime, cbid, d->callbackSite == SANITIZER_API_ENTER);
    if (d->callbackSite == SANITIZER_API_ENTER) {
        if (runtime) {
            cc_runtime_depth++;
        }
        if (cc_is_stream_create(runtime, cbid) && d->functionParams != NULL) {
            const cc_stream_create_params *p = d->functionParams;
            cc_creating_stream_flags = 0x80000000u | (p->flags & 0x7fffffffu);
        }
        return;
    }
    if (cc_is_stream_create(runtime, cbid) && (runtime || cc_runtime_depth == 0)) {
        cc_creating_stream_flags = 0;
    }
    if (runtime) {
        /* The agent may have been initialized inside a runtime call (CUDA_INJECTION64_PATH):
         * an exit without its enter must not go negative. */
        if (cc_runtime_depth > 0) {
            cc_runtime_depth--;
        }
    } else if (cc_runtime_depth > 0) {
        return; /* a driver call on behalf of the runtime */
    }
    if (d->functionReturnValue == NULL) {
        return;
    }
    /* cudaError_t and CUresult are both C enums (int-sized). */
    int code = *(const int *)d->functionReturnValue;
    uint32_t api = runtime ? CC_API_RUNTIME : CC_API_DRIVER;
    if (code == 0) {
        cc_emit_query(runtime, cbid, d);
        return;
    }
    char name[128];
    cc_api_base_name(d->functionName, name, sizeof name);
    if (cc_cuda_error_is_expected(api, name, code)) {
        return; /* e.g. "not ready" from stream and event queries, a kernel-image probe */
    }
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_API_ERROR);
    const char *error_name = cc_cuda_error_name(api, code);
    const char *error_text = cc_cuda_error_text(api, code);
    ev.u.api_error.api = api;
    ev.u.api_error.code = code;
    ev.u.api_error.function = name;
    ev.u.api_error.error_name = error_name != NULL ? error_name : "";
    ev.u.api_error.error_string = error_text != NULL ? error_text : "";
    ev.u.api_error.callsite = cc_agent_callsite();
    if (cc_agent_g.recorder != NULL) {
        cc_agent_stacks_flush(); /* a replay names the stacks of the launches it may blame */
    }
    if (cc_cuda_error_is_sticky(api, code)) {
        cc_instr_on_sticky_error(); /* the records of launches not read yet */
        CC_PLUGIN_CALL(on_sticky_error);
    }
    cc_agent_emit(&ev);
}
