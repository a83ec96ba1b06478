/* The program doctor's injection test runs with the agent injected (`cucheck doctor
 * --cuda-probe`): it loads the driver and does the least CUDA work that every backend sees (a
 * context and one allocation), so that the test shows callbacks arriving, not only the agent
 * loading. Without a driver it says which step failed; it never links libcuda. */
#include "doctor/probe.h"

#include <dlfcn.h>
#include <stdio.h>

#include "core/driver_note.h"

typedef int (*fn_void)(void);
typedef int (*fn_u)(unsigned);
typedef int (*fn_pi)(int *);
typedef int (*fn_dev)(int *, int);
typedef int (*fn_retain)(void **, int);
typedef int (*fn_ctx)(void *);
typedef int (*fn_alloc)(unsigned long long *, size_t);
typedef int (*fn_free)(unsigned long long);
typedef int (*fn_release)(int);

/* dlsym into a function pointer without a cast between object and function pointers. */
static void *sym(void *h, const char *name)
{
    return dlsym(h, name);
}

int cc_doc_cuda_probe(FILE *out)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        fprintf(out, "cuda-probe: " CC_NOTE_NO_DRIVER ": %s\n", e ? e : "dlopen failed");
        return 1;
    }
    fn_u init;
    fn_pi count;
    fn_dev get;
    fn_retain retain;
    fn_ctx set_current;
    fn_alloc alloc;
    fn_free release_mem;
    fn_release release;
    *(void **)&init = sym(h, "cuInit");
    *(void **)&count = sym(h, "cuDeviceGetCount");
    *(void **)&get = sym(h, "cuDeviceGet");
    *(void **)&retain = sym(h, "cuDevicePrimaryCtxRetain");
    *(void **)&set_current = sym(h, "cuCtxSetCurrent");
    *(void **)&alloc = sym(h, "cuMemAlloc_v2");
    *(void **)&release_mem = sym(h, "cuMemFree_v2");
    *(void **)&release = sym(h, "cuDevicePrimaryCtxRelease_v2");
    if (!init || !count || !get || !retain || !set_current || !alloc || !release_mem || !release) {
        fprintf(out, "cuda-probe: libcuda.so.1 lacks a driver function (a stub or a very old "
                     "driver)\n");
        return 1;
    }
    int rc = init(0), n = 0, dev = 0;
    if (rc != 0) {
        fprintf(out, "cuda-probe: cuInit failed (%d)\n", rc);
        return 1;
    }
    if ((rc = count(&n)) != 0 || n == 0) {
        fprintf(out, "cuda-probe: cuInit ok, no GPU (%d)\n", rc);
        return 1;
    }
    void *ctx = NULL;
    unsigned long long ptr = 0;
    if ((rc = get(&dev, 0)) != 0 || (rc = retain(&ctx, dev)) != 0 || (rc = set_current(ctx)) != 0) {
        fprintf(out, "cuda-probe: no context on GPU 0 (%d)\n", rc);
        return 1;
    }
    if ((rc = alloc(&ptr, 256)) == 0)
        rc = release_mem(ptr);
    release(dev);
    fprintf(out, "cuda-probe: cuInit ok, %d GPU(s), context and allocation on GPU 0: %s (%d)\n",
            n, rc == 0 ? "ok" : "failed", rc);
    return rc == 0 ? 0 : 1;
}
