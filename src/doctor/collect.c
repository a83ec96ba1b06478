/* doctor's probing pass: host, environment, driver and GPUs, Python and PyTorch, the CUDA
 * libraries (system search, or exactly those a program loads), the binaries named with
 * --binary, the kernel images of everything that carries device code, and the agent. */
#include "doctor/doctor.h"
#include "doctor/probe.h"

#include <dirent.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

static void collect_host(cc_doc_report *r)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(r->host, sizeof r->host, "%.40s %.60s %.20s, glibc %.20s", u.sysname, u.release, u.machine,
                 gnu_get_libc_version());
}

/* cuDNN keeps its kernels in libcudnn_engines_precompiled.so.<major> beside libcudnn.so. */
static void scan_cudnn_engines(cc_doc_lib *l)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", l->path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    char best[PATH_MAX + 256] = "";
    while (!best[0] && (de = readdir(d)) != NULL)
        if (strncmp(de->d_name, "libcudnn_engines_precompiled.so", 31) == 0)
            snprintf(best, sizeof best, "%s/%s", dir, de->d_name);
    closedir(d);
    if (best[0])
        cc_doc_scan_archs(best, &l->archs);
}

/* The PyTorch arch list as a binary: its images, with the PTX ISA of torch's CUDA release. */
static void add_torch_arch_list(cc_doc_report *r)
{
    cc_doc_python *p = &r->python;
    if (!p->torch_archs[0] || r->nbins >= CC_DOC_MAX_BINS)
        return;
    cc_doc_binary *b = &r->bins[r->nbins];
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "torch.cuda.get_arch_list()");
    snprintf(b->label, sizeof b->label, "PyTorch arch list");
    b->origin = CC_ORIGIN_PYTHON;
    b->archs.scanned = 1;
    int maj = 0, min = 0, pm = 0, pn = 0;
    if (sscanf(p->torch_cuda, "%d.%d", &maj, &min) == 2)
        cc_doc_driver_max_ptx(CC_DOC_CUDA(maj, min), &pm, &pn);
    char copy[sizeof p->torch_archs];
    snprintf(copy, sizeof copy, "%s", p->torch_archs);
    for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        cc_doc_image img;
        if (cc_doc_parse_arch(tok, &img) != 0 || b->archs.n >= CC_DOC_MAX_IMAGES)
            continue;
        if (img.is_ptx) {
            img.ptx_major = (uint16_t)pm;
            img.ptx_minor = (uint16_t)pn;
        }
        b->archs.img[b->archs.n++] = img;
        b->archs.has_device_code = 1;
    }
    cc_doc_sort_images(b->archs.img, (size_t)b->archs.n);
    r->nbins++;
}

void cc_doctor_collect(cc_doc_report *r)
{
    collect_host(r);
    r->env_visible = getenv("CUDA_VISIBLE_DEVICES");
    r->env_module_loading = getenv("CUDA_MODULE_LOADING");
    r->env_ld_library_path = getenv("LD_LIBRARY_PATH");
    r->env_flags.disable_ptx_jit = cc_doc_env_true(getenv("CUDA_DISABLE_PTX_JIT"));
    r->env_flags.force_ptx_jit = cc_doc_env_true(getenv("CUDA_FORCE_PTX_JIT"));

    cc_doc_probe_driver(&r->driver);

    r->python.requested = r->opt.python;
    if (r->opt.python || !r->opt.no_search)
        cc_doc_probe_python(r, r->opt.python);
    cc_doc_nvcc_version(r->toolkit_nvcc, sizeof r->toolkit_nvcc);

    if (r->opt.program) {
        r->program.requested = 1;
        cc_doc_run_program(r);
    } else if (!r->opt.no_search) {
        cc_doc_search_libs(r);
    }
    if (r->python.torch_found && r->python.torch_lib[0]) {
        if (!r->opt.program)
            cc_doc_search_dir(r, r->python.torch_lib, CC_ORIGIN_PYTHON);
        char lib[PATH_MAX + 32];
        snprintf(lib, sizeof lib, "%s/libtorch_cuda.so", r->python.torch_lib);
        cc_doc_add_binary(r, lib, "PyTorch libtorch_cuda.so", CC_ORIGIN_PYTHON, 0);
    }
    add_torch_arch_list(r);
    cc_doc_probe_agent(r);
    for (int i = 0; i < r->opt.nbinaries; i++)
        cc_doc_add_binary(r, r->opt.binaries[i], "binary", CC_ORIGIN_ARGUMENT, 1);

    for (int i = 0; i < r->nlibs; i++) {
        cc_doc_lib *l = &r->libs[i];
        cc_doc_probe_lib(l);
        if (r->opt.program) /* its device code is judged among the loaded binaries */
            continue;
        if (l->kind == CC_LIB_CUBLAS || l->kind == CC_LIB_CUBLASLT || l->kind == CC_LIB_NCCL)
            cc_doc_scan_archs(l->path, &l->archs);
        else if (l->kind == CC_LIB_CUDNN)
            scan_cudnn_engines(l);
    }
}
