/* A launch's arguments for the agent's tools (launch_args.h): the launch calls' parameter
 * structs, this thread's launch call in progress, layouts from the driver, and the arguments
 * laid out as the kernel's parameter buffer. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "agent/tools/launch_args.h"
#include "agent/core/agent.h"
#include "core/hashmap.h"

/* The launch API call in progress on this thread (set at its enter, consumed at LAUNCH_BEGIN,
 * cleared when the outermost launch call returns). */
static _Thread_local struct {
    int depth;
    int set;
    void **params;
    void **extra;
} cc_la_call;

/* The leading parameters of the launch calls, in their C order. */
typedef struct cc_rt_launch_params { /* cudaLaunchKernel, cudaLaunchCooperativeKernel (+_ptsz) */
    const void *func;
    unsigned int grid[3], block[3];
    void **args;
} cc_rt_launch_params;
typedef struct cc_rt_launch_ex_params { /* cudaLaunchKernelExC (+_ptsz) */
    const void *config;
    const void *func;
    void **args;
} cc_rt_launch_ex_params;
typedef struct cc_drv_launch_params { /* cuLaunchKernel, cuLaunchCooperativeKernel (+_ptsz) */
    CUfunction f;
    unsigned int grid[3], block[3];
    unsigned int smem;
    CUstream stream;
    void **params;
    void **extra; /* cuLaunchKernel only */
} cc_drv_launch_params;
typedef struct cc_drv_launch_ex_params { /* cuLaunchKernelEx (+_ptsz) */
    const void *config;
    CUfunction f;
    void **params;
    void **extra;
} cc_drv_launch_ex_params;

/* The runtime's own parameter structs (the Compute Sanitizer API ships their header) check the
 * layouts above where they can be included; the driver's cannot beside the Sanitizer headers
 * (they need the legacy _v1 types), so those stay checked by their C argument order. */
#if defined(__has_include)
#if __has_include(<generated_cuda_runtime_api_meta.h>)
#include <stddef.h>
#include <generated_cuda_runtime_api_meta.h>
_Static_assert(offsetof(cc_rt_launch_params, args) == offsetof(cudaLaunchKernel_v7000_params, args),
               "cudaLaunchKernel parameter layout");
_Static_assert(offsetof(cc_rt_launch_params, args) ==
                   offsetof(cudaLaunchCooperativeKernel_v9000_params, args),
               "cudaLaunchCooperativeKernel parameter layout");
_Static_assert(offsetof(cc_rt_launch_ex_params, args) ==
                   offsetof(cudaLaunchKernelExC_v11060_params, args),
               "cudaLaunchKernelExC parameter layout");
#endif
#endif

/* 1 and *params / *extra if cbid is a launch call whose parameters we read. */
static int cc_la_launch_args(int runtime, Sanitizer_CallbackId cbid, const void *fp,
                             void ***params, void ***extra)
{
    *params = NULL;
    *extra = NULL;
    if (runtime) {
        switch (cbid) {
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel_ptsz:
            *params = ((const cc_rt_launch_params *)fp)->args;
            return 1;
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC_ptsz:
            *params = ((const cc_rt_launch_ex_params *)fp)->args;
            return 1;
        default:
            return 0;
        }
    }
    switch (cbid) {
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz:
        *params = ((const cc_drv_launch_params *)fp)->params;
        *extra = ((const cc_drv_launch_params *)fp)->extra;
        return 1;
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz:
        *params = ((const cc_drv_launch_params *)fp)->params;
        return 1;
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz:
        *params = ((const cc_drv_launch_ex_params *)fp)->params;
        *extra = ((const cc_drv_launch_ex_params *)fp)->extra;
        return 1;
    default:
        return 0;
    }
}

void cc_launch_args_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                           const Sanitizer_CallbackData *d)
{
    void **params, **extra;
    if (d->functionParams == NULL ||
        !cc_la_launch_args(domain == SANITIZER_CB_DOMAIN_RUNTIME_API, cbid, d->functionParams,
                           &params, &extra)) {
        return;
    }
    if (d->callbackSite == SANITIZER_API_ENTER) {
        cc_la_call.depth++;
        /* The runtime's own driver call (inside cudaLaunchKernel) names the same arguments;
         * the innermost call that names any wins. */
        if (params != NULL || extra != NULL) {
            cc_la_call.params = params;
            cc_la_call.extra = extra;
            cc_la_call.set = 1;
        }
        return;
    }
    if (cc_la_call.depth > 0 && --cc_la_call.depth == 0) {
        cc_la_call.set = 0; /* the arrays belong to the returning call */
        cc_la_call.params = NULL;
        cc_la_call.extra = NULL;
    }
}

typedef CUresult (*cc_la_param_info_fn)(CUfunction, size_t, size_t *, size_t *);

static const cc_launch_layout *cc_la_driver_layout(CUfunction f, const char *tool)
{
    static cc_la_param_info_fn func_info, kernel_info;
    static int resolved;
    /* Every function asked about (the direct-mapped cache may forget one) -> its layout. */
    static cc_hashmap known = CC_HASHMAP_INIT;
    if (!resolved) {
        void *p = cc_agent_driver_symbol("cuFuncGetParamInfo");
        memcpy(&func_info, &p, sizeof p);
        p = cc_agent_driver_symbol("cuKernelGetParamInfo");
        memcpy(&kernel_info, &p, sizeof p);
        resolved = 1;
    }
    if (func_info == NULL || f == NULL) {
        return NULL;
    }
    const uint64_t *seen = cc_hashmap_get(&known, (uintptr_t)f);
    if (seen != NULL) {
        return (cc_launch_layout *)(uintptr_t)*seen;
    }
    /* The runtime launches library kernels (CUkernel, which launch calls accept in place of a
     * CUfunction): those answer to cuKernelGetParamInfo. */
    cc_la_param_info_fn info = func_info;
    size_t off, size;
    CUresult r = info(f, 0, &off, &size);
    if (r == CUDA_ERROR_INVALID_HANDLE && kernel_info != NULL) {
        info = kernel_info;
        r = info(f, 0, &off, &size);
    }
    uint32_t n = 0;
    while (r == CUDA_SUCCESS && n < CC_LAUNCH_PARAM_MAX / 4) {
        n++;
        r = info(f, n, &off, &size);
    }
    if (n == 0 && r != CUDA_ERROR_INVALID_VALUE) { /* that one: a kernel without parameters */
        cc_agent_note("%s: the driver answered %d when asked for a kernel's first parameter: "
                      "its launches' arguments are not read", tool, (int)r);
    }
    cc_launch_layout *k = NULL;
    if (n > 0) { /* none: no parameters, or no answer; nothing to scan either way */
        cc_ptr_slot *slots = malloc(n * sizeof *slots);
        k = malloc(sizeof *k);
        if (slots == NULL || k == NULL) {
            free(slots);
            free(k);
            return NULL;
        }
        for (uint32_t i = 0; i < n; i++) {
            if (info(f, i, &off, &size) != CUDA_SUCCESS) {
                off = 0;
                size = 0;
            }
            slots[i].offset = (uint32_t)off;
            slots[i].size = (uint32_t)size;
        }
        *k = (cc_launch_layout){NULL, slots, n};
    }
    cc_hashmap_put(&known, (uintptr_t)f, (uintptr_t)k); /* failing: asked again on a miss */
    return k;
}

const cc_launch_layout *cc_launch_layout_from_driver(CUfunction f, const char *tool)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    const cc_launch_layout *k = cc_la_driver_layout(f, tool);
    pthread_mutex_unlock(&lock);
    return k;
}

const unsigned char *cc_launch_args_lay_out(const cc_launch_layout *k, void **params,
                                            void **extra, unsigned char *buf, size_t cap,
                                            size_t *len)
{
    *len = 0;
    if (extra != NULL) {
        return cc_ptr_extra_buffer(extra, 16, cap, len);
    }
    if (k == NULL || params == NULL) {
        return NULL;
    }
    /* args[i] points to argument i: lay them out as the kernel's parameter buffer, the padding
     * before each argument zeroed (no bytes of an earlier launch are left in it). */
    for (uint32_t i = 0; i < k->nslots; i++) {
        const cc_ptr_slot *s = &k->slots[i];
        if ((size_t)s->offset + s->size > cap || params[i] == NULL) {
            continue;
        }
        if (s->offset > *len) {
            memset(buf + *len, 0, s->offset - *len);
        }
        memcpy(buf + s->offset, params[i], s->size);
        if ((size_t)s->offset + s->size > *len) {
            *len = (size_t)s->offset + s->size;
        }
    }
    return buf;
}

int cc_launch_args_current(void ***params, void ***extra)
{
    *params = cc_la_call.params;
    *extra = cc_la_call.extra;
    return cc_la_call.set;
}

void cc_launch_args_consume(void)
{
    cc_la_call.set = 0;
}
