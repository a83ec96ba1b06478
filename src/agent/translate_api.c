/* RUNTIME_API / DRIVER_API callbacks: a call that returns an error becomes CC_EV_API_ERROR with
 * the function name and the numeric code. "Not ready" answers of query calls are not errors.
 * Driver calls made by the runtime itself (inside a runtime call on the same thread) are not
 * reported: the runtime call's own result is. Error names and texts come from cucheck's own table
 * (core/cuda_errors.h), since CUDA may not be called inside callbacks; codes missing from the
 * table get empty strings, and the numeric code still identifies the error. */
#include <stdio.h>
#include <string.h>
#include "agent.h"
#include "core/cuda_errors.h"

static _Thread_local int cc_runtime_depth;

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
    (void)cbid;
    const Sanitizer_CallbackData *d = data;
    int runtime = domain == SANITIZER_CB_DOMAIN_RUNTIME_API;
    if (d->callbackSite == SANITIZER_API_ENTER) {
        if (runtime) {
            cc_runtime_depth++;
        }
        return;
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
    if (code == 0 || cc_cuda_error_is_expected(api, code)) {
        return; /* e.g. "not ready" from stream and event queries */
    }
    char name[128];
    cc_api_base_name(d->functionName, name, sizeof name);
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_API_ERROR);
    const char *error_name = cc_cuda_error_name(api, code);
    const char *error_text = cc_cuda_error_text(api, code);
    ev.u.api_error.api = api;
    ev.u.api_error.code = code;
    ev.u.api_error.function = name;
    ev.u.api_error.error_name = error_name != NULL ? error_name : "";
    ev.u.api_error.error_string = error_text != NULL ? error_text : "";
    cc_agent_emit(&ev);
}
