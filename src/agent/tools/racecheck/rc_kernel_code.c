/* The dynamic shared memory of the launch call in progress on this thread, read from the
 * call's parameters at its API enter (runtime or driver) for the size of racecheck's shadow. */
#include <string.h>
#include "agent/tools/racecheck/rc_client.h"

typedef struct rc_rt_launch_params { /* cudaLaunchKernel, cudaLaunchCooperativeKernel (+_ptsz) */
    const void *func;
    unsigned int grid[3], block[3];
    void **args;
    size_t smem;
} rc_rt_launch_params;
typedef struct rc_rt_launch_config { /* cudaLaunchConfig_t, leading fields */
    unsigned int grid[3], block[3];
    size_t smem;
} rc_rt_launch_config;
typedef struct rc_drv_launch_params { /* cuLaunchKernel, cuLaunchCooperativeKernel (+_ptsz) */
    CUfunction f;
    unsigned int grid[3], block[3];
    unsigned int smem;
} rc_drv_launch_params;
typedef struct rc_drv_launch_config { /* CUlaunchConfig, leading fields */
    unsigned int grid[3], block[3];
    unsigned int smem;
} rc_drv_launch_config;

static _Thread_local struct {
    int set;
    uint64_t bytes;
} rc_call;

/* How a launch call passes its dynamic shared memory: in its parameters, or in the launch
 * config its first parameter points to. */
typedef enum rc_call_form { RC_CALL_OTHER, RC_CALL_PARAMS, RC_CALL_CONFIG } rc_call_form;

static rc_call_form call_form(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid)
{
    if (domain == SANITIZER_CB_DOMAIN_RUNTIME_API) {
        switch (cbid) {
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel_ptsz:
            return RC_CALL_PARAMS;
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC_ptsz:
            return RC_CALL_CONFIG;
        default:
            return RC_CALL_OTHER;
        }
    }
    if (domain == SANITIZER_CB_DOMAIN_DRIVER_API) {
        switch (cbid) {
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernel:
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz:
        case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel:
        case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz:
            return RC_CALL_PARAMS;
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx:
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz:
            return RC_CALL_CONFIG;
        default:
            return RC_CALL_OTHER;
        }
    }
    return RC_CALL_OTHER;
}

void cc_rc_launch_call_note(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                            const Sanitizer_CallbackData *d)
{
    const void *fp = d->functionParams;
    if (d->callbackSite == SANITIZER_API_EXIT || fp == NULL) {
        if (d->callbackSite == SANITIZER_API_EXIT) {
            rc_call.set = 0;
        }
        return;
    }
    int driver = domain == SANITIZER_CB_DOMAIN_DRIVER_API;
    switch (call_form(domain, cbid)) {
    case RC_CALL_PARAMS:
        rc_call.bytes = driver ? ((const rc_drv_launch_params *)fp)->smem
                               : ((const rc_rt_launch_params *)fp)->smem;
        rc_call.set = 1;
        break;
    case RC_CALL_CONFIG: {
        const void *cfg = *(const void *const *)fp;
        if (cfg != NULL) {
            rc_call.bytes = driver ? ((const rc_drv_launch_config *)cfg)->smem
                                   : ((const rc_rt_launch_config *)cfg)->smem;
            rc_call.set = 1;
        }
        break;
    }
    case RC_CALL_OTHER:
        break;
    }
}

int cc_rc_launch_dynamic_shared(uint64_t *bytes)
{
    if (!rc_call.set) {
        return 0;
    }
    *bytes = rc_call.bytes;
    return 1;
}
