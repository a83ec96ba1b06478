/* --gpu N: reads the occupancy-relevant attributes of a live device through the CUDA driver API,
 * loaded with dlopen("libcuda.so.1") at run time (never linked), so cucheck runs without a GPU. */
#include "occupancy/occupancy.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*fn_init)(unsigned);
typedef int (*fn_count)(int *);
typedef int (*fn_get)(int *, int);
typedef int (*fn_name)(char *, int, int);
typedef int (*fn_attr)(int *, int, int);

/* CUdevice_attribute values (cuda.h) */
enum {
    A_MAX_THREADS_PER_BLOCK = 1, A_SMEM_PER_BLOCK = 8, A_WARP_SIZE = 10, A_REGS_PER_BLOCK = 12,
    A_SM_COUNT = 16, A_MAX_THREADS_PER_SM = 39, A_CC_MAJOR = 75, A_CC_MINOR = 76,
    A_SMEM_PER_SM = 81, A_REGS_PER_SM = 82, A_SMEM_PER_BLOCK_OPTIN = 97, A_RESERVED_SMEM = 111
};

int cc_occ_device_from_gpu(int ordinal, cc_occ_device *d, char *name, size_t name_cap, char *err,
                           size_t err_cap)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, err_cap, "--gpu: no CUDA driver (libcuda.so.1 not found); use --arch sm_XX");
        return -1;
    }
    fn_init init = (fn_init)dlsym(lib, "cuInit");
    fn_count count = (fn_count)dlsym(lib, "cuDeviceGetCount");
    fn_get get = (fn_get)dlsym(lib, "cuDeviceGet");
    fn_name getname = (fn_name)dlsym(lib, "cuDeviceGetName");
    fn_attr attr = (fn_attr)dlsym(lib, "cuDeviceGetAttribute");
    int rc, n = 0, dev = 0;
    if (!init || !count || !get || !getname || !attr) {
        snprintf(err, err_cap, "--gpu: the CUDA driver lacks the device query functions");
        goto fail;
    }
    if ((rc = init(0)) != 0) {
        snprintf(err, err_cap, "--gpu: cuInit failed (CUDA error %d): no usable GPU", rc);
        goto fail;
    }
    if (count(&n) != 0 || ordinal < 0 || ordinal >= n) {
        snprintf(err, err_cap, "--gpu %d: no such device (%d device%s)", ordinal, n, n == 1 ? "" : "s");
        goto fail;
    }
    if (get(&dev, ordinal) != 0) {
        snprintf(err, err_cap, "--gpu %d: cuDeviceGet failed", ordinal);
        goto fail;
    }
    if (name && name_cap) {
        if (getname(name, (int)name_cap, dev) != 0) snprintf(name, name_cap, "GPU %d", ordinal);
        name[name_cap - 1] = 0;
    }
    static const int ids[] = {A_CC_MAJOR, A_CC_MINOR, A_MAX_THREADS_PER_BLOCK, A_MAX_THREADS_PER_SM,
                              A_REGS_PER_BLOCK, A_REGS_PER_SM, A_WARP_SIZE, A_SMEM_PER_BLOCK,
                              A_SMEM_PER_SM, A_SM_COUNT, A_SMEM_PER_BLOCK_OPTIN, A_RESERVED_SMEM};
    int v[12];
    for (int i = 0; i < 12; i++) {
        v[i] = 0;
        if (attr(&v[i], ids[i], dev) != 0 || v[i] < 0) {
            if (ids[i] == A_RESERVED_SMEM) { v[i] = 0; continue; } /* older drivers */
            snprintf(err, err_cap, "--gpu %d: cuDeviceGetAttribute(%d) failed", ordinal, ids[i]);
            goto fail;
        }
    }
    memset(d, 0, sizeof *d);
    d->major = v[0];
    d->minor = v[1];
    d->max_threads_per_block = v[2];
    d->max_threads_per_sm = v[3];
    d->regs_per_block = v[4];
    d->regs_per_sm = v[5];
    d->warp_size = v[6];
    d->smem_per_block = (size_t)v[7];
    d->smem_per_sm = (size_t)v[8];
    d->num_sms = v[9];
    d->smem_per_block_optin = (size_t)v[10];
    d->reserved_smem_per_block = (size_t)v[11];
    return 0; /* the driver stays loaded: unloading it after cuInit is unsafe */
fail:
    return -1;
}
