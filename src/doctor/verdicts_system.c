/* Verdicts about the driver and GPUs, the CUDA libraries (driver too old, minor-version
 * compatibility, mixed CUDA majors, copies loaded twice), CUDA's environment variables and the
 * Python/PyTorch environment. Each non-OK verdict carries its fix. */
#include "doctor/verdicts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cc_doc_judge_driver(cc_doc_report *r)
{
    const cc_doc_driver *d = &r->driver;
    char drv[16], fix[512];
    cc_doc_cuda_str(d->cuda, drv, sizeof drv);
    if (!d->libcuda_loaded) {
        cc_doc_add_verdict(r, CC_DOC_WARN, "driver", "libcuda.so.1",
                           "install the NVIDIA driver, or run doctor on the GPU machine",
                           "no NVIDIA driver found (libcuda.so.1 not loadable: %s): GPU checks "
                           "skipped; binaries and libraries are still inspected",
                           d->load_error[0] ? d->load_error : "unknown reason");
        return;
    }
    if (d->is_stub)
        cc_doc_add_verdict(r, CC_DOC_FAIL, "driver", d->libcuda_path,
                           "remove the toolkit's stubs folder from LD_LIBRARY_PATH and install "
                           "the NVIDIA driver",
                           "libcuda.so.1 is the toolkit's link-time stub: every CUDA call "
                           "fails with CUDA_ERROR_STUB_LIBRARY (34)");
    if (d->is_compat)
        cc_doc_add_verdict(r, CC_DOC_INFO, "driver", d->libcuda_path, NULL,
                           "a forward-compatibility libcuda (cuda-compat) is in use: supported "
                           "on data-center GPUs only, with a matching kernel module branch");
    const char *en = d->init_error[0] ? d->init_error : "error";
    switch (d->init_result) {
    case 0:
        cc_doc_add_verdict(r, CC_DOC_OK, "driver", d->libcuda_path, NULL,
                           "driver %s supports CUDA %s; %d GPU(s) visible to CUDA",
                           d->branch[0] ? d->branch : "(branch unknown)", drv, d->ngpus);
        break;
    case -1:
        break;
    case 100:
        cc_doc_add_verdict(r, CC_DOC_WARN, "driver", d->libcuda_path,
                           "check CUDA_VISIBLE_DEVICES and that nvidia-smi lists the GPUs",
                           "the driver loads but sees no CUDA GPU (%s)", en);
        break;
    case 34:
        break; /* the stub verdict above says it */
    case 35:
        cc_doc_add_verdict(r, CC_DOC_FAIL, "driver", d->libcuda_path,
                           "reinstall the driver so libcuda and the kernel module match",
                           "cuInit: %s (35): the kernel module is older than libcuda", en);
        break;
    case 803:
        cc_doc_add_verdict(r, CC_DOC_FAIL, "driver", d->libcuda_path,
                           "remove the cuda-compat folder from LD_LIBRARY_PATH, or install the "
                           "kernel driver branch the compat package was built for",
                           "cuInit: %s (803): this libcuda does not match the kernel module "
                           "(a cuda-compat package for another driver branch)", en);
        break;
    case 804:
        cc_doc_add_verdict(r, CC_DOC_FAIL, "driver", d->libcuda_path,
                           "upgrade the driver instead of using forward compatibility",
                           "cuInit: %s (804): forward compatibility is not supported on this "
                           "GPU (only data-center GPUs)", en);
        break;
    default:
        snprintf(fix, sizeof fix, "check `nvidia-smi` and the kernel log (dmesg) for this GPU");
        cc_doc_add_verdict(r, CC_DOC_FAIL, "driver", d->libcuda_path, fix,
                           "cuInit failed: %s (%d)", en, d->init_result);
        break;
    }
    for (int i = 0; i < d->ngpus; i++) {
        const cc_doc_gpu *g = &d->gpus[i];
        char subj[200];
        snprintf(subj, sizeof subj, "GPU %d %s", g->ordinal, g->name);
        if (g->ecc >= 0 && g->ecc_pending >= 0 && g->ecc != g->ecc_pending)
            cc_doc_add_verdict(r, CC_DOC_WARN, "driver", subj, "reboot (or reset the GPU) to apply it",
                               "an ECC mode change is pending (now %s, after reset %s)",
                               g->ecc ? "on" : "off", g->ecc_pending ? "on" : "off");
        if (g->mig == 1)
            cc_doc_add_verdict(r, CC_DOC_INFO, "driver", subj, NULL,
                               "MIG mode is enabled: CUDA programs see MIG instances; select one "
                               "with CUDA_VISIBLE_DEVICES=MIG-<uuid> (nvidia-smi -L)");
    }
}

/* CUDA release a library needs from the driver (major-only versions as X.0). */
static int needed_cuda(const cc_doc_lib *l)
{
    return l->cuda_major_only ? CC_DOC_CUDA(CC_DOC_CUDA_MAJOR(l->cuda), 0) : l->cuda;
}

static void group_key(const cc_doc_lib *l, char *key, size_t len)
{
    if (l->origin == CC_ORIGIN_PROGRAM || l->origin == CC_ORIGIN_PYTHON) {
        snprintf(key, len, "%s", l->origin == CC_ORIGIN_PROGRAM ? "the program"
                                                                : "the Python environment");
        return;
    }
    snprintf(key, len, "%s", l->path);
    char *slash = strrchr(key, '/');
    if (slash)
        *slash = 0;
}

static void judge_mixed_majors(cc_doc_report *r)
{
    int done[CC_DOC_MAX_LIBS] = {0};
    for (int i = 0; i < r->nlibs; i++) {
        if (done[i] || r->libs[i].cuda <= 0)
            continue;
        char key[PATH_MAX], other[PATH_MAX], list[1024] = "";
        group_key(&r->libs[i], key, sizeof key);
        int majors[8], nm = 0;
        size_t off = 0;
        for (int j = i; j < r->nlibs; j++) {
            const cc_doc_lib *l = &r->libs[j];
            if (l->cuda <= 0)
                continue;
            group_key(l, other, sizeof other);
            if (strcmp(key, other) != 0)
                continue;
            done[j] = 1;
            int m = CC_DOC_CUDA_MAJOR(l->cuda), seen = 0;
            for (int k = 0; k < nm; k++)
                seen |= majors[k] == m;
            if (!seen && nm < 8)
                majors[nm++] = m;
            int w = snprintf(list + off, sizeof list - off, "%s%s %s (CUDA %d)", off ? ", " : "",
                             cc_doc_lib_name(l->kind), l->version[0] ? l->version : "?", m);
            if (w > 0 && (size_t)w < sizeof list - off)
                off += (size_t)w;
        }
        if (nm > 1)
            cc_doc_add_verdict(r, CC_DOC_WARN, "libraries", key,
                               "use libraries of one CUDA major (one toolkit, or pip wheels "
                               "with the same -cuXX suffix)",
                               "mixed CUDA majors: %s", list);
    }
}

static void judge_duplicates(cc_doc_report *r)
{
    for (int i = 0; i < r->nlibs; i++)
        for (int j = i + 1; j < r->nlibs; j++)
            if (r->libs[i].origin == CC_ORIGIN_PROGRAM && r->libs[j].origin == CC_ORIGIN_PROGRAM &&
                r->libs[i].kind == r->libs[j].kind)
                cc_doc_add_verdict(r, CC_DOC_WARN, "libraries", cc_doc_lib_name(r->libs[i].kind),
                                   "make every component load the same copy (check RPATH, "
                                   "LD_LIBRARY_PATH and bundled wheels)",
                                   "two copies loaded by the program: %s and %s",
                                   r->libs[i].path, r->libs[j].path);
}

/* Driver vs a CUDA release needed by `what`; returns 1 if a non-OK verdict was added. */
static int judge_fit(cc_doc_report *r, const char *subject, const char *what, int need)
{
    int drv = r->driver.cuda;
    char needs[16], has[16], fix[512];
    cc_doc_cuda_str(need, needs, sizeof needs);
    cc_doc_cuda_str(drv, has, sizeof has);
    int branch = cc_doc_driver_branch_for_cuda(need);
    char br[48] = "";
    if (branch)
        snprintf(br, sizeof br, " (branch >= %d)", branch);
    switch (cc_doc_driver_fits(need, drv)) {
    case CC_DRV_TOO_OLD:
        snprintf(fix, sizeof fix,
                 "upgrade the driver to one for CUDA %s%s; or, on a data-center GPU, install "
                 "cuda-compat-%d-%d and put its folder first on LD_LIBRARY_PATH; or use a "
                 "CUDA %d build of %s",
                 needs, br, CC_DOC_CUDA_MAJOR(need), CC_DOC_CUDA_MINOR(need),
                 CC_DOC_CUDA_MAJOR(drv), what);
        cc_doc_add_verdict(r, CC_DOC_FAIL, "libraries", subject, fix,
                           "needs a driver for CUDA %s; this driver supports CUDA %s: "
                           "cudaErrorInsufficientDriver (35)", needs, has);
        return 1;
    case CC_DRV_MINOR_COMPAT: {
        int pm = 0, pn = 0;
        cc_doc_driver_max_ptx(drv, &pm, &pn);
        snprintf(fix, sizeof fix, "upgrade the driver to one for CUDA %s%s for full support",
                 needs, br);
        cc_doc_add_verdict(r, CC_DOC_WARN, "libraries", subject, fix,
                           "built for CUDA %s on a CUDA %s driver: runs under minor-version "
                           "compatibility, but PTX newer than ISA %d.%d fails to JIT (222) and "
                           "newer APIs return cudaErrorCallRequiresNewerDriver (36)",
                           needs, has, pm, pn);
        return 1;
    }
    default:
        return 0;
    }
}

void cc_doc_judge_libraries(cc_doc_report *r)
{
    if (r->nlibs == 0) {
        if (r->program.requested || !r->opt.no_search)
            cc_doc_add_verdict(r, CC_DOC_INFO, "libraries", "CUDA libraries", NULL, "%s",
                               r->program.requested ? "the program loaded no CUDA library"
                                                    : "no CUDA library found");
        return;
    }
    int problems = 0, newest = 0;
    for (int i = 0; i < r->nlibs; i++) {
        const cc_doc_lib *l = &r->libs[i];
        char subj[PATH_MAX + 48];
        snprintf(subj, sizeof subj, "%s %s", cc_doc_lib_name(l->kind), l->path);
        if (!l->ok) {
            cc_doc_add_verdict(r, CC_DOC_WARN, "libraries", subj,
                               "check its dependencies with `ldd`",
                               "version not read: %s", l->error[0] ? l->error : "unknown");
            continue;
        }
        int need = needed_cuda(l);
        if (need <= 0)
            continue;
        if (need > newest)
            newest = need;
        problems += judge_fit(r, subj, cc_doc_lib_name(l->kind), need);
    }
    if (r->driver.cuda > 0 && newest > 0 && problems == 0) {
        char a[16], b[16];
        cc_doc_cuda_str(r->driver.cuda, a, sizeof a);
        cc_doc_cuda_str(newest, b, sizeof b);
        cc_doc_add_verdict(r, CC_DOC_OK, "libraries", "driver vs libraries", NULL,
                           "the driver (CUDA %s) covers every library found (newest needs "
                           "CUDA %s)", a, b);
    }
    judge_mixed_majors(r);
    judge_duplicates(r);
}

void cc_doc_judge_environment(cc_doc_report *r)
{
    const cc_doc_driver *d = &r->driver;
    char fix[512];
    if (r->env_visible) {
        const char *uuids[CC_DOC_MAX_GPUS];
        int n = d->nvml_gpus > CC_DOC_MAX_GPUS ? CC_DOC_MAX_GPUS : d->nvml_gpus;
        for (int i = 0; i < n; i++)
            uuids[i] = d->nvml_uuids[i];
        cc_doc_visible v;
        cc_doc_parse_visible(r->env_visible, n, n > 0 ? uuids : NULL, &v);
        if (v.first_invalid >= 0) {
            snprintf(fix, sizeof fix, "list valid GPU indices%s or GPU-/MIG- UUIDs "
                     "(nvidia-smi -L)", n > 0 ? " (0..N-1)" : "");
            cc_doc_add_verdict(r, CC_DOC_WARN, "environment", "CUDA_VISIBLE_DEVICES", fix,
                               "entry %d \"%s\" is invalid (%s): CUDA ignores it and every later "
                               "entry, so %d GPU(s) stay visible",
                               v.first_invalid + 1, v.invalid, v.why, v.count);
        } else if (v.count == 0) {
            cc_doc_add_verdict(r, CC_DOC_WARN, "environment", "CUDA_VISIBLE_DEVICES",
                               "unset CUDA_VISIBLE_DEVICES or list the GPUs to use",
                               "is empty: CUDA sees no GPU");
        } else {
            char of[32] = "";
            if (n >= 0)
                snprintf(of, sizeof of, " of %d", n);
            cc_doc_add_verdict(r, CC_DOC_INFO, "environment", "CUDA_VISIBLE_DEVICES", NULL,
                               "=%s: CUDA sees %d%s GPU(s), renumbered from 0 in the listed order",
                               r->env_visible, v.count, of);
        }
    }
    if (d->ngpus > 1 && !getenv("CUDA_DEVICE_ORDER"))
        cc_doc_add_verdict(r, CC_DOC_INFO, "environment", "CUDA_DEVICE_ORDER", NULL,
                           "unset: CUDA numbers GPUs fastest first, nvidia-smi by PCI bus; "
                           "CUDA_DEVICE_ORDER=PCI_BUS_ID makes the numbers agree");
    cc_doc_module_loading ml = cc_doc_parse_module_loading(r->env_module_loading);
    if (ml == CC_MODLOAD_INVALID)
        cc_doc_add_verdict(r, CC_DOC_WARN, "environment", "CUDA_MODULE_LOADING",
                           "set CUDA_MODULE_LOADING=LAZY or EAGER",
                           "=%s is not a valid value (LAZY or EAGER); the default applies",
                           r->env_module_loading);
    else
        cc_doc_add_verdict(r, CC_DOC_INFO, "environment", "CUDA_MODULE_LOADING", NULL,
                           "%s%s: %s", ml == CC_MODLOAD_UNSET ? "unset" : "=",
                           ml == CC_MODLOAD_UNSET ? "" : r->env_module_loading,
                           cc_doc_lazy_loading(ml, 0)
                               ? "modules load lazily (default since CUDA 12.2): a missing "
                                 "kernel image shows up at that kernel's first launch"
                               : "modules load eagerly: a missing kernel image shows up when "
                                 "the module loads");
    if (cc_doc_env_true(getenv("CUDA_LAUNCH_BLOCKING")))
        cc_doc_add_verdict(r, CC_DOC_WARN, "environment", "CUDA_LAUNCH_BLOCKING",
                           "unset it outside debugging",
                           "=1: every kernel launch waits for completion (slow)");
    if (r->env_flags.disable_ptx_jit)
        cc_doc_add_verdict(r, CC_DOC_INFO, "environment", "CUDA_DISABLE_PTX_JIT", NULL,
                           "=1: PTX is never JIT-compiled; binaries need SASS for the GPU");
    if (r->env_flags.force_ptx_jit)
        cc_doc_add_verdict(r, CC_DOC_WARN, "environment", "CUDA_FORCE_PTX_JIT",
                           "unset it outside testing",
                           "=1: embedded SASS is ignored and every kernel is JIT-compiled from "
                           "PTX (binaries without PTX fail)");
    if (cc_doc_env_true(getenv("CUDA_CACHE_DISABLE")))
        cc_doc_add_verdict(r, CC_DOC_INFO, "environment", "CUDA_CACHE_DISABLE", NULL,
                           "=1: the JIT cache is off, PTX is recompiled on every run");
    if (r->env_ld_library_path && strstr(r->env_ld_library_path, "/stubs"))
        cc_doc_add_verdict(r, CC_DOC_WARN, "environment", "LD_LIBRARY_PATH",
                           "remove the stubs folder from LD_LIBRARY_PATH (stubs are for "
                           "linking only)",
                           "contains a toolkit stubs folder: a stub libcuda.so.1 there hides "
                           "the real driver (CUDA_ERROR_STUB_LIBRARY, 34)");
}

void cc_doc_judge_python(cc_doc_report *r)
{
    const cc_doc_python *p = &r->python;
    if (!p->requested)
        return;
    if (!p->ran) {
        cc_doc_add_verdict(r, CC_DOC_WARN, "python", p->interpreter,
                           "pass the interpreter to use: --python /path/to/python",
                           "could not run the Python probe: %s", p->error);
        return;
    }
    if (!p->torch_found) {
        cc_doc_add_verdict(r, CC_DOC_INFO, "python", p->interpreter, NULL,
                           "PyTorch is not importable%s%s%s", p->torch_error[0] ? " (" : "",
                           p->torch_error, p->torch_error[0] ? ")" : "");
        return;
    }
    char subj[200];
    snprintf(subj, sizeof subj, "PyTorch %s", p->torch_version);
    int maj = 0, min = 0;
    if (!p->torch_cuda[0] || sscanf(p->torch_cuda, "%d.%d", &maj, &min) != 2) {
        cc_doc_add_verdict(r, CC_DOC_WARN, "python", subj,
                           "install a CUDA build: pip install torch --index-url "
                           "https://download.pytorch.org/whl/cuXYZ",
                           "is a CPU-only build (torch.version.cuda is None)");
        return;
    }
    int tc = CC_DOC_CUDA(maj, min);
    if (!judge_fit(r, subj, "PyTorch", tc) && r->driver.cuda > 0) {
        char a[16];
        cc_doc_cuda_str(r->driver.cuda, a, sizeof a);
        cc_doc_add_verdict(r, CC_DOC_OK, "python", subj, NULL,
                           "built for CUDA %s; the driver supports CUDA %s", p->torch_cuda, a);
    }
    if (strcmp(p->cuda_available, "False") == 0 && r->driver.ngpus > 0)
        cc_doc_add_verdict(r, CC_DOC_FAIL, "python", subj,
                           "see the driver, library and image verdicts; run "
                           "`cucheck doctor -- python -c 'import torch; torch.zeros(1).cuda()'`",
                           "torch.cuda.is_available() is False although the driver sees %d "
                           "GPU(s)", r->driver.ngpus);
    int nv = 0, nvm = 0;
    const char *rel = strstr(r->toolkit_nvcc, "release ");
    if (rel && sscanf(rel, "release %d.%d", &nv, &nvm) == 2 && (nv != maj || nvm != min))
        cc_doc_add_verdict(r, CC_DOC_INFO, "python", "nvcc on PATH", NULL,
                           "nvcc is CUDA %d.%d but PyTorch runs its own CUDA %s libraries; nvcc "
                           "only matters when building extensions (use a CUDA %d toolkit then)",
                           nv, nvm, p->torch_cuda, maj);
}

void cc_doctor_judge(cc_doc_report *r)
{
    cc_doc_judge_driver(r);
    cc_doc_judge_libraries(r);
    cc_doc_judge_images(r);
    cc_doc_judge_environment(r);
    cc_doc_judge_python(r);
    cc_doc_judge_agent(r);
    if (r->program.requested) {
        const cc_doc_program *pr = &r->program;
        if (pr->error[0])
            cc_doc_add_verdict(r, pr->ran ? CC_DOC_WARN : CC_DOC_FAIL, "program",
                               r->opt.program[0], NULL, "%s", pr->error);
        if (pr->ran)
            cc_doc_add_verdict(r, pr->status == 0 ? CC_DOC_INFO : CC_DOC_WARN, "program",
                               r->opt.program[0], NULL,
                               "exited with status %d; loaded %d object(s)%s%s", pr->status,
                               pr->nloaded, pr->libcuda[0] ? ", libcuda: " : ", no libcuda",
                               pr->libcuda);
    }
}
