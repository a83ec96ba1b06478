/* Instrumentation manager, the floor clients: under a tool's floor knob (CUCHECK_RC_PATCH,
 * CUCHECK_SY_PATCH, CUCHECK_IC_PATCH =floor) the tool's instruction classes are patched with
 * functions of the same signature that return at once, so that a benchmark measures what the
 * patched calls alone cost. One mapping from a class to its empty function serves every tool.
 * Under CUCHECK_PATCH_CLASSES (a diagnostic aid) single classes of any tool are floored or left
 * unpatched, to tell which patch a fault or a cost comes from. */
#include <stdio.h>
#include <string.h>
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

/* The class names CUCHECK_PATCH_CLASSES takes. */
static const struct {
    const char *name;
    Sanitizer_InstructionId id;
} class_names[] = {
    {"global", SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS},
    {"shared", SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS},
    {"local", SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS},
    {"remote-shared", SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS},
    {"barrier", SANITIZER_INSTRUCTION_BARRIER},
    {"syncwarp", SANITIZER_INSTRUCTION_SYNCWARP},
    {"syncwarp-release", SANITIZER_INSTRUCTION_SYNCWARP_RELEASE},
    {"shfl", SANITIZER_INSTRUCTION_SHFL},
    {"cluster-wait", SANITIZER_INSTRUCTION_CLUSTER_BARRIER_WAIT},
    {"cuda-barrier", SANITIZER_INSTRUCTION_CUDA_BARRIER},
    {"memcpy-async", SANITIZER_INSTRUCTION_MEMCPY_ASYNC},
    {"block-exit", SANITIZER_INSTRUCTION_BLOCK_EXIT},
};

/* The class named by the `len` bytes at s, or SANITIZER_INSTRUCTION_INVALID. */
static Sanitizer_InstructionId class_named(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof class_names / sizeof class_names[0]; i++) {
        if (strlen(class_names[i].name) == len && strncmp(class_names[i].name, s, len) == 0) {
            return class_names[i].id;
        }
    }
    return SANITIZER_INSTRUCTION_INVALID;
}

const cc_instr_client *cc_instr_classes_adjust(const cc_instr_client *cl, const char *spec,
                                               cc_instr_client *out, char *err, size_t errlen)
{
    *out = *cl;
    const char *p = spec;
    while (*p != '\0') {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (eq == NULL) {
            snprintf(err, errlen, "'%.*s' is not CLASS=floor|off", (int)len, p);
            return NULL;
        }
        Sanitizer_InstructionId id = class_named(p, (size_t)(eq - p));
        size_t mlen = len - (size_t)(eq - p) - 1;
        int off = mlen == 3 && strncmp(eq + 1, "off", 3) == 0;
        int floor = mlen == 5 && strncmp(eq + 1, "floor", 5) == 0;
        if (id == SANITIZER_INSTRUCTION_INVALID || (!off && !floor)) {
            snprintf(err, errlen, "'%.*s' is not CLASS=floor|off (classes: global, shared, "
                     "local, remote-shared, barrier, syncwarp, syncwarp-release, shfl, "
                     "cluster-wait, cuda-barrier, memcpy-async, block-exit)", (int)len, p);
            return NULL;
        }
        size_t kept = 0;
        for (size_t i = 0; i < out->nclasses; i++) {
            if (out->classes[i].id == id && off) {
                continue;
            }
            if (out->classes[i].id == id) {
                out->classes[i].fn = cc_instr_floor_function(id);
            }
            out->classes[kept++] = out->classes[i];
        }
        out->nclasses = kept;
        p += len;
        if (*p == ',') {
            p++;
        }
    }
    return out;
}
