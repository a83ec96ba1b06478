/* Naming the NVIDIA library that made a CUDA call (host_library.h): the calling thread's stack
 * is unwound (host_unwind.c) and each return address is mapped to its shared object with
 * dladdr; frames of the agent and of CUDA's own layers are passed over, and the first other
 * object's file name says which library, if any, called. Costs a few microseconds (an unwind
 * of a few dozen frames and one dladdr per frame), paid only on stream creation and cudaMalloc,
 * and only by tools that ask for it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include "agent/host/host_library.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "agent/host/host_unwind.h"
#include "cucheck/event.h"

#define CC_LIBRARY_FRAMES 48 /* callers deeper than this are not looked for */

static int cc_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int cc_host_library_of_file(const char *path)
{
    static const char *const cuda_layers[] = {
        "libcuda.so", "libcudart.so", "libsanitizer", "libcupti.so", "libcucheck",
    };
    static const struct {
        const char *prefix;
        uint32_t library;
    } libraries[] = {
        {"libcudnn", CC_NVLIB_CUDNN},       {"libcublas", CC_NVLIB_CUBLAS},
        {"libcufft", CC_NVLIB_CUFFT},       {"libcusparse", CC_NVLIB_CUSPARSE},
        {"libcusolver", CC_NVLIB_CUSOLVER}, {"libcurand", CC_NVLIB_CURAND},
        {"libnccl", CC_NVLIB_NCCL},
    };
    if (path == NULL) {
        return CC_NVLIB_NONE;
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash != NULL ? slash + 1 : path;
    for (size_t i = 0; i < sizeof cuda_layers / sizeof cuda_layers[0]; i++) {
        if (cc_starts_with(base, cuda_layers[i])) {
            return -1;
        }
    }
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        if (cc_starts_with(base, libraries[i].prefix)) {
            return (int)libraries[i].library;
        }
    }
    return CC_NVLIB_NONE;
}

uint32_t cc_host_calling_library(void)
{
    uint64_t pcs[CC_LIBRARY_FRAMES];
    int n = cc_host_unwind(pcs, CC_LIBRARY_FRAMES);
    Dl_info self;
    void *self_base = dladdr((void *)&cc_host_calling_library, &self) ? self.dli_fbase : NULL;
    for (int i = 0; i < n; i++) {
        Dl_info info;
        /* A return address points after its call: look up the byte before it. */
        if (pcs[i] == 0 || !dladdr((void *)(uintptr_t)(pcs[i] - 1), &info)) {
            return CC_NVLIB_NONE; /* code outside every shared object (JIT code): not a library */
        }
        if (info.dli_fbase == self_base) {
            continue; /* the agent's own frames */
        }
        int library = cc_host_library_of_file(info.dli_fname);
        if (library >= 0) {
            return (uint32_t)library;
        }
    }
    return CC_NVLIB_NONE;
}
