/* What racecheck's client reads about a kernel besides its launch data: the static shared memory
 * of the kernel (the size of its cubin's .nv.shared.<kernel> section), the memory fences in its
 * code (MEMBAR instructions of .text.<kernel>: fences cannot be patched, so a global hazard
 * between blocks is taken as ordered when the kernel fences after the first access), and the
 * dynamic shared memory of the launch call in progress on this thread (its API parameters). */
#include <stdio.h>
#include <string.h>
#include "agent/tools/racecheck/rc_client.h"
#include "symbols/elf.h"

/* sm_70 and later: 16-byte instructions, the opcode in the low 12 bits of the first 8 bytes. */
#define RC_SASS_INSN 16u
#define RC_OPCODE_MASK 0xfffu
#define RC_OPCODE_MEMBAR 0x992u

static int section_of(const void *cubin, size_t size, const char *prefix, const char *kernel,
                      cc_elf_section *out)
{
    if (cubin == NULL || kernel == NULL || kernel[0] == '\0') {
        return 0;
    }
    cc_elf elf;
    char err[128];
    if (cc_elf_open(&elf, cubin, size, err, sizeof err) != 0) {
        return 0;
    }
    char name[4096];
    int n = snprintf(name, sizeof name, "%s%s", prefix, kernel);
    if (n < 0 || (size_t)n >= sizeof name) {
        return 0;
    }
    return cc_elf_section_by_name(&elf, name, out) == 0;
}

uint64_t cc_rc_static_shared(const void *cubin, size_t size, const char *kernel)
{
    cc_elf_section s;
    return section_of(cubin, size, ".nv.shared.", kernel, &s) ? s.size : 0;
}

int cc_rc_fence_after(const void *cubin, size_t size, const char *kernel, uint64_t pc)
{
    cc_elf_section s;
    if (!section_of(cubin, size, ".text.", kernel, &s) || s.data == NULL) {
        return -1;
    }
    for (uint64_t off = (pc / RC_SASS_INSN + 1) * RC_SASS_INSN; off + RC_SASS_INSN <= s.size;
         off += RC_SASS_INSN) {
        if ((cc_le64(s.data + off) & RC_OPCODE_MASK) == RC_OPCODE_MEMBAR) {
            return 1;
        }
    }
    return 0;
}

/* ---- the launch call in progress ---- */

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
    if (domain == SANITIZER_CB_DOMAIN_RUNTIME_API) {
        switch (cbid) {
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel_ptsz:
            rc_call.bytes = ((const rc_rt_launch_params *)fp)->smem;
            rc_call.set = 1;
            break;
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC:
        case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC_ptsz: {
            const rc_rt_launch_config *cfg = *(const rc_rt_launch_config *const *)fp;
            if (cfg != NULL) {
                rc_call.bytes = cfg->smem;
                rc_call.set = 1;
            }
            break;
        }
        default:
            break;
        }
    } else if (domain == SANITIZER_CB_DOMAIN_DRIVER_API) {
        switch (cbid) {
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernel:
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz:
        case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel:
        case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz:
            rc_call.bytes = ((const rc_drv_launch_params *)fp)->smem;
            rc_call.set = 1;
            break;
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx:
        case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz: {
            const rc_drv_launch_config *cfg = *(const rc_drv_launch_config *const *)fp;
            if (cfg != NULL) {
                rc_call.bytes = cfg->smem;
                rc_call.set = 1;
            }
            break;
        }
        default:
            break;
        }
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
