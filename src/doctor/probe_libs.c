/* Library version probe: loads one CUDA library (by exact path) in a forked child and calls
 * its version functions: cudaRuntimeGetVersion, cublasGetProperty + cublasGetCudartVersion,
 * cublasLtGetVersion + cublasLtGetCudartVersion, cudnnGetVersion + cudnnGetCudartVersion,
 * ncclGetVersion, cuptiGetVersion, nvrtcVersion, nvJitLinkVersion. The Compute Sanitizer API
 * has no version function: it is only loaded, its version comes from its wheel. */
#include "doctor/probe.h"
#include "doctor/probe_util.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lib_result {
    int loaded, found_fn, status;
    long long v1, v2, v3, cudart;
    char error[200];
} lib_result;

typedef int (*fn_pi)(int *);
typedef int (*fn_prop)(int, int *);
typedef size_t (*fn_size)(void);
typedef int (*fn_pu)(unsigned *);
typedef int (*fn_pii)(int *, int *);
typedef int (*fn_puu)(unsigned *, unsigned *);

static size_t lib_child(void *arg, void *out, size_t cap)
{
    const cc_doc_lib *lib = arg;
    lib_result *res = out;
    if (cap < sizeof *res)
        return 0;
    memset(res, 0, sizeof *res);
    void *h = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(res->error, sizeof res->error, "cannot load: %s", e ? e : "dlopen failed");
        return sizeof *res;
    }
    res->loaded = 1;
    int a = 0, b = 0, c = 0;
    switch (lib->kind) {
    case CC_LIB_CUDART: {
        fn_pi f = (fn_pi)dlsym(h, "cudaRuntimeGetVersion");
        if ((res->found_fn = f != NULL))
            res->status = f(&a), res->v1 = a;
        break;
    }
    case CC_LIB_CUBLAS: {
        fn_prop f = (fn_prop)dlsym(h, "cublasGetProperty");
        fn_size cr = (fn_size)dlsym(h, "cublasGetCudartVersion");
        if ((res->found_fn = f != NULL)) {
            res->status = f(0, &a) | f(1, &b) | f(2, &c);
            res->v1 = a, res->v2 = b, res->v3 = c;
        }
        if (cr)
            res->cudart = (long long)cr();
        break;
    }
    case CC_LIB_CUBLASLT: {
        fn_size f = (fn_size)dlsym(h, "cublasLtGetVersion");
        fn_size cr = (fn_size)dlsym(h, "cublasLtGetCudartVersion");
        if ((res->found_fn = f != NULL))
            res->v1 = (long long)f();
        if (cr)
            res->cudart = (long long)cr();
        break;
    }
    case CC_LIB_CUDNN: {
        fn_size f = (fn_size)dlsym(h, "cudnnGetVersion");
        fn_size cr = (fn_size)dlsym(h, "cudnnGetCudartVersion");
        if ((res->found_fn = f != NULL))
            res->v1 = (long long)f();
        if (cr)
            res->cudart = (long long)cr();
        break;
    }
    case CC_LIB_NCCL: {
        fn_pi f = (fn_pi)dlsym(h, "ncclGetVersion");
        if ((res->found_fn = f != NULL))
            res->status = f(&a), res->v1 = a;
        break;
    }
    case CC_LIB_CUPTI: {
        fn_pu f = (fn_pu)dlsym(h, "cuptiGetVersion");
        unsigned u = 0;
        if ((res->found_fn = f != NULL))
            res->status = f(&u), res->v1 = u;
        break;
    }
    case CC_LIB_NVRTC: {
        fn_pii f = (fn_pii)dlsym(h, "nvrtcVersion");
        if ((res->found_fn = f != NULL))
            res->status = f(&a, &b), res->v1 = a, res->v2 = b;
        break;
    }
    case CC_LIB_NVJITLINK: {
        fn_puu f = (fn_puu)dlsym(h, "nvJitLinkVersion");
        unsigned ua = 0, ub = 0;
        if ((res->found_fn = f != NULL))
            res->status = f(&ua, &ub), res->v1 = ua, res->v2 = ub;
        break;
    }
    default: /* the sanitizer: loading is the check */
        res->found_fn = dlsym(h, "sanitizerSubscribe") != NULL;
        break;
    }
    if (!res->found_fn)
        snprintf(res->error, sizeof res->error, "loaded, but %s is missing",
                 lib->kind == CC_LIB_SANITIZER ? "sanitizerSubscribe" : "its version function");
    else if (res->status != 0)
        snprintf(res->error, sizeof res->error, "version function returned error %d",
                 res->status);
    return sizeof *res;
}

/* "13.1.0" from the wheel string "nvidia-cublas 13.1.0.3" (first three numbers). */
static void version_from_wheel(const char *wheel, char *out, size_t len, int *major, int *minor)
{
    const char *sp = strrchr(wheel, ' ');
    *major = *minor = 0;
    if (!sp)
        return;
    int a = 0, b = 0, c = 0;
    int n = sscanf(sp + 1, "%d.%d.%d", &a, &b, &c);
    if (n >= 2) {
        snprintf(out, len, "%d.%d.%d", a, b, n == 3 ? c : 0);
        *major = a;
        *minor = b;
    }
}

/* "cu12" in a wheel name or a path gives the CUDA major; 0 if none. */
static int cu_tag_major(const char *s)
{
    for (const char *p = s; (p = strstr(p, "cu")) != NULL; p += 2) {
        int v = 0, k = 2;
        while (p[k] >= '0' && p[k] <= '9' && k < 5)
            v = v * 10 + (p[k++] - '0');
        if (k > 2 && v >= 10 && v <= 30 && !(p[k] >= '0' && p[k] <= '9') &&
            (p == s || p[-1] == '-' || p[-1] == '/' || p[-1] == '_' || p[-1] == '+'))
            return v;
    }
    return 0;
}

void cc_doc_probe_lib(cc_doc_lib *lib)
{
    lib_result res;
    char err[200];
    cc_doc_wheel_owner(lib->path, lib->wheel, sizeof lib->wheel);
    lib->probed = 1;
    long n = cc_doc_in_child(lib_child, lib, &res, sizeof res, 60000, err, sizeof err);
    if (n != (long)sizeof res) {
        snprintf(lib->error, sizeof lib->error, "%s", err);
        return;
    }
    snprintf(lib->error, sizeof lib->error, "%s", res.error);
    lib->ok = res.loaded && res.found_fn && res.status == 0;
    int maj = 0, min = 0, pat = 0;
    if (res.cudart > 0)
        lib->built_cudart = (int)res.cudart;
    switch (lib->kind) {
    case CC_LIB_CUDART:
        lib->raw = res.v1;
        if (lib->ok) {
            lib->cuda = (int)res.v1;
            cc_doc_cuda_str(lib->cuda, lib->version, sizeof lib->version);
        }
        break;
    case CC_LIB_CUBLAS:
        lib->raw = res.v1 * 10000 + res.v2 * 100 + res.v3;
        if (lib->ok) {
            snprintf(lib->version, sizeof lib->version, "%lld.%lld.%lld", res.v1, res.v2, res.v3);
            lib->cuda = CC_DOC_CUDA((int)res.v1, 0);
            lib->cuda_major_only = 1;
        }
        break;
    case CC_LIB_CUBLASLT:
        lib->raw = res.v1;
        if (lib->ok) {
            cc_doc_decode_cublaslt(res.v1, &maj, &min, &pat);
            snprintf(lib->version, sizeof lib->version, "%d.%d.%d", maj, min, pat);
            lib->cuda = CC_DOC_CUDA(maj, 0);
            lib->cuda_major_only = 1;
        }
        break;
    case CC_LIB_CUDNN:
        lib->raw = res.v1;
        if (lib->ok) {
            cc_doc_decode_cudnn(res.v1, &maj, &min, &pat);
            snprintf(lib->version, sizeof lib->version, "%d.%d.%d", maj, min, pat);
        }
        break;
    case CC_LIB_NCCL:
        lib->raw = res.v1;
        if (lib->ok) {
            cc_doc_decode_nccl(res.v1, &maj, &min, &pat);
            snprintf(lib->version, sizeof lib->version, "%d.%d.%d", maj, min, pat);
        }
        break;
    case CC_LIB_CUPTI:
        lib->raw = res.v1;
        if (lib->ok) {
            lib->cuda = cc_doc_cupti_cuda(res.v1);
            snprintf(lib->version, sizeof lib->version, "API %lld", res.v1);
        }
        break;
    case CC_LIB_NVRTC:
    case CC_LIB_NVJITLINK:
        lib->raw = res.v1 * 1000 + res.v2 * 10;
        if (lib->ok) {
            lib->cuda = (int)lib->raw;
            cc_doc_cuda_str(lib->cuda, lib->version, sizeof lib->version);
        }
        break;
    default:
        if (res.loaded && lib->wheel[0])
            version_from_wheel(lib->wheel, lib->version, sizeof lib->version, &maj, &min);
        if (res.loaded)
            lib->ok = 1;
        if (maj >= 10) {
            lib->cuda = CC_DOC_CUDA(maj, min);
        }
        break;
    }
    /* Libraries whose own version does not say the CUDA release: what they were built
     * against, else a cuXX tag in the wheel name or path. */
    if (lib->cuda == 0 && lib->built_cudart > 0) { /* any driver of that major will do */
        lib->cuda = CC_DOC_CUDA(CC_DOC_CUDA_MAJOR(lib->built_cudart), 0);
        lib->cuda_major_only = 1;
    }
    if (lib->cuda == 0) {
        int m = cu_tag_major(lib->wheel);
        if (!m)
            m = cu_tag_major(lib->path);
        if (m) {
            lib->cuda = CC_DOC_CUDA(m, 0);
            lib->cuda_major_only = 1;
        }
    }
}
