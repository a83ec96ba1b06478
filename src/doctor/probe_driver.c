/* Driver and GPU probe: loads libcuda.so.1 and libnvidia-ml.so.1 in a forked child (a broken
 * driver cannot crash doctor) and reports the driver's CUDA version, cuInit's result, every
 * visible GPU (name, compute capability, SMs, memory, ECC, PCI, UUID) and NVML's view (driver
 * branch, ECC and MIG modes, all GPUs regardless of CUDA_VISIBLE_DEVICES). The prototypes below
 * are written from the documented C signatures; no NVIDIA header is used. */
#include "doctor/doctor.h"
#include "doctor/probe_util.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*fn_i)(int);
typedef int (*fn_pi)(int *);
typedef int (*fn_dev_get)(int *, int);
typedef int (*fn_name)(char *, int, int);
typedef int (*fn_mem)(size_t *, int);
typedef int (*fn_attr)(int *, int, int);
typedef int (*fn_uuid)(unsigned char *, int);
typedef int (*fn_errname)(int, const char **);

enum { ATTR_SMS = 16, ATTR_ECC = 32, ATTR_PCI_BUS = 33, ATTR_PCI_DEV = 34, ATTR_PCI_DOMAIN = 50,
       ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76 };

static void *sym(void *h, const char *a, const char *b)
{
    void *p = dlsym(h, a);
    return p || !b ? p : dlsym(h, b);
}

static void probe_cuda(cc_doc_driver *d)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(d->load_error, sizeof d->load_error, "%s", e ? e : "dlopen failed");
        return;
    }
    d->libcuda_loaded = 1;
    fn_i cu_init = (fn_i)sym(h, "cuInit", NULL);
    Dl_info info;
    if (cu_init && dladdr((void *)cu_init, &info) && info.dli_fname) {
        char real[PATH_MAX];
        snprintf(d->libcuda_path, sizeof d->libcuda_path, "%s",
                 realpath(info.dli_fname, real) ? real : info.dli_fname);
    }
    d->is_stub = strstr(d->libcuda_path, "/stubs/") != NULL;
    d->is_compat = strstr(d->libcuda_path, "compat") != NULL;
    fn_pi drv_version = (fn_pi)sym(h, "cuDriverGetVersion", NULL);
    if (drv_version && drv_version(&d->cuda) != 0)
        d->cuda = 0;
    if (!cu_init)
        return;
    d->init_result = cu_init(0);
    fn_errname errname = (fn_errname)sym(h, "cuGetErrorName", NULL);
    const char *en = NULL;
    if (errname && errname(d->init_result, &en) == 0 && en)
        snprintf(d->init_error, sizeof d->init_error, "%s", en);
    if (d->init_result != 0)
        return;
    fn_pi count = (fn_pi)sym(h, "cuDeviceGetCount", NULL);
    fn_dev_get dev_get = (fn_dev_get)sym(h, "cuDeviceGet", NULL);
    fn_name name = (fn_name)sym(h, "cuDeviceGetName", NULL);
    fn_mem mem = (fn_mem)sym(h, "cuDeviceTotalMem_v2", "cuDeviceTotalMem");
    fn_attr attr = (fn_attr)sym(h, "cuDeviceGetAttribute", NULL);
    fn_uuid uuid = (fn_uuid)sym(h, "cuDeviceGetUuid_v2", "cuDeviceGetUuid");
    int n = 0;
    if (!count || !dev_get || count(&n) != 0)
        return;
    for (int i = 0; i < n && d->ngpus < CC_DOC_MAX_GPUS; i++) {
        int dev;
        if (dev_get(&dev, i) != 0)
            continue;
        cc_doc_gpu *g = &d->gpus[d->ngpus++];
        g->ordinal = i;
        g->ecc = g->ecc_pending = g->mig = -1;
        if (name && name(g->name, (int)sizeof g->name, dev) != 0)
            g->name[0] = 0;
        size_t bytes = 0;
        if (mem && mem(&bytes, dev) == 0)
            g->mem_bytes = bytes;
        int maj = 0, min = 0, v = 0, bus = 0, pdev = 0, dom = 0;
        if (attr) {
            attr(&maj, ATTR_CC_MAJOR, dev);
            attr(&min, ATTR_CC_MINOR, dev);
            if (attr(&v, ATTR_SMS, dev) == 0)
                g->sms = v;
            if (attr(&v, ATTR_ECC, dev) == 0)
                g->ecc = v != 0;
            if (attr(&bus, ATTR_PCI_BUS, dev) == 0 && attr(&pdev, ATTR_PCI_DEV, dev) == 0 &&
                attr(&dom, ATTR_PCI_DOMAIN, dev) == 0)
                snprintf(g->pci, sizeof g->pci, "%04x:%02x:%02x.0", (unsigned)dom & 0xffffu,
                         (unsigned)bus & 0xffu, (unsigned)pdev & 0xffu);
        }
        g->cc = maj * 10 + min;
        unsigned char u[16];
        if (uuid && uuid(u, dev) == 0)
            snprintf(g->uuid, sizeof g->uuid,
                     "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                     u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
                     u[12], u[13], u[14], u[15]);
    }
}

typedef int (*nvml_void)(void);
typedef int (*nvml_str)(char *, unsigned);
typedef int (*nvml_count)(unsigned *);
typedef int (*nvml_handle)(unsigned, void **);
typedef int (*nvml_dev_str)(void *, char *, unsigned);
typedef int (*nvml_dev_modes)(void *, int *, int *);

static void probe_nvml(cc_doc_driver *d)
{
    d->nvml_gpus = -1;
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    nvml_void init = (nvml_void)sym(h, "nvmlInit_v2", "nvmlInit");
    if (!init || init() != 0)
        return;
    d->nvml_loaded = 1;
    nvml_str drv = (nvml_str)sym(h, "nvmlSystemGetDriverVersion", NULL);
    if (!drv || drv(d->branch, sizeof d->branch) != 0)
        d->branch[0] = '\0';
    nvml_count count = (nvml_count)sym(h, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    nvml_handle handle = (nvml_handle)sym(h, "nvmlDeviceGetHandleByIndex_v2",
                                          "nvmlDeviceGetHandleByIndex");
    nvml_dev_str get_uuid = (nvml_dev_str)sym(h, "nvmlDeviceGetUUID", NULL);
    nvml_dev_str get_name = (nvml_dev_str)sym(h, "nvmlDeviceGetName", NULL);
    nvml_dev_modes ecc = (nvml_dev_modes)sym(h, "nvmlDeviceGetEccMode", NULL);
    nvml_dev_modes mig = (nvml_dev_modes)sym(h, "nvmlDeviceGetMigMode", NULL);
    unsigned n = 0;
    if (!count || !handle || count(&n) != 0)
        return;
    d->nvml_gpus = (int)n;
    for (unsigned i = 0; i < n && i < CC_DOC_MAX_GPUS; i++) {
        void *dev = NULL;
        if (handle(i, &dev) != 0)
            continue;
        char *u = d->nvml_uuids[i], *nm = d->nvml_names[i];
        if (!get_uuid || get_uuid(dev, u, sizeof d->nvml_uuids[i]) != 0)
            u[0] = '\0';
        if (!get_name || get_name(dev, nm, sizeof d->nvml_names[i]) != 0)
            nm[0] = '\0';
        for (int k = 0; k < d->ngpus; k++) {
            cc_doc_gpu *g = &d->gpus[k];
            if (!u[0] || strcmp(g->uuid, u) != 0)
                continue;
            int cur = 0, pend = 0;
            if (ecc && ecc(dev, &cur, &pend) == 0) {
                g->ecc = cur != 0;
                g->ecc_pending = pend != 0;
            }
            if (mig && mig(dev, &cur, &pend) == 0)
                g->mig = cur != 0;
        }
    }
}

static size_t driver_child(void *arg, void *out, size_t cap)
{
    (void)arg;
    if (cap < sizeof(cc_doc_driver))
        return 0;
    cc_doc_driver *d = out;
    memset(d, 0, sizeof *d);
    d->init_result = -1;
    probe_cuda(d);
    probe_nvml(d);
    return sizeof *d;
}

/* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  ..." -> "580.65.06" */
static void branch_from_proc(cc_doc_driver *d)
{
    char buf[1024];
    if (cc_doc_read_small_file("/proc/driver/nvidia/version", buf, sizeof buf) < 0)
        return;
    const char *p = strstr(buf, "Module");
    for (p = p ? p : buf; *p && *p != '\n'; p++) {
        if (isdigit((unsigned char)*p) && (p == buf || p[-1] == ' ')) {
            size_t n = 0;
            while ((isdigit((unsigned char)p[n]) || p[n] == '.') && n < sizeof d->branch - 1)
                n++;
            if (memchr(p, '.', n)) {
                memcpy(d->branch, p, n);
                d->branch[n] = 0;
                return;
            }
        }
    }
}

void cc_doc_probe_driver(cc_doc_driver *d)
{
    char err[200];
    cc_doc_driver *tmp = malloc(sizeof *tmp);
    memset(d, 0, sizeof *d);
    d->init_result = -1;
    d->nvml_gpus = -1;
    long n = tmp ? cc_doc_in_child(driver_child, NULL, tmp, sizeof *tmp, 60000, err, sizeof err)
                 : -1;
    if (n == (long)sizeof *tmp) {
        memcpy(d, tmp, sizeof *d);
    } else {
        snprintf(d->load_error, sizeof d->load_error, "driver probe failed: %s",
                 tmp ? err : "out of memory");
    }
    free(tmp);
    if (!d->branch[0])
        branch_from_proc(d);
    d->branch_major = atoi(d->branch);
}
