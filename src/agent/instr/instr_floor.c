/* Instrumentation manager, the floor clients: under a tool's floor knob (CUCHECK_RC_PATCH,
 * CUCHECK_SY_PATCH, CUCHECK_IC_PATCH =floor) the tool's instruction classes are patched with
 * functions of the same signature that return at once, so that a benchmark measures what the
 * patched calls alone cost. One mapping from a class to its empty function serves every tool. */
#include "agent/instr/instr_internal.h"

const char *cc_instr_floor_function(Sanitizer_InstructionId id)
{
    switch (id) {
    case SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS:
    case SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS:
    case SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS:
    case SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS:
        return CC_PATCH_FN_FLOOR_ACCESS;
    case SANITIZER_INSTRUCTION_MEMCPY_ASYNC:
        return CC_PATCH_FN_FLOOR_MEMCPY_ASYNC;
    case SANITIZER_INSTRUCTION_BARRIER:
        return CC_PATCH_FN_FLOOR_BARRIER;
    case SANITIZER_INSTRUCTION_SYNCWARP:
    case SANITIZER_INSTRUCTION_SYNCWARP_RELEASE:
        return CC_PATCH_FN_FLOOR_SYNCWARP;
    case SANITIZER_INSTRUCTION_CLUSTER_BARRIER_WAIT:
        return CC_PATCH_FN_FLOOR_CLUSTER_WAIT;
    case SANITIZER_INSTRUCTION_CUDA_BARRIER:
        return CC_PATCH_FN_FLOOR_CUDA_BARRIER;
    default:
        return CC_PATCH_FN_FLOOR_PC; /* (userdata, pc) patches: shuffles, thread exits */
    }
}

const cc_instr_client *cc_instr_floor_client(const cc_instr_client *cl,
                                             int (*prepare)(struct cc_instr_ctx *c, int slot,
                                                            const Sanitizer_LaunchData *d,
                                                            void *hdr),
                                             cc_instr_client *out)
{
    *out = *cl;
    for (size_t i = 0; i < out->nclasses; i++) {
        out->classes[i].fn = cc_instr_floor_function(out->classes[i].id);
    }
    if (prepare != NULL) {
        out->prepare = prepare;
    }
    return out;
}
