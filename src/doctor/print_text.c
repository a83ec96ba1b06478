/* doctor's readable output: sections for host, driver, GPUs, libraries, binaries, Python,
 * environment and the agent (print_agent.c), then the verdicts grouped by topic (OK/WARN/FAIL/
 * INFO with a fix line each) and a one-line summary. */
#include "doctor/doctor.h"
#include "doctor/verdicts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_gpus(FILE *out, const cc_doc_report *r)
{
    const cc_doc_driver *d = &r->driver;
    fprintf(out, "\nGPUs\n");
    if (d->ngpus == 0)
        fprintf(out, "  none visible to CUDA%s\n", d->libcuda_loaded ? "" : " (no driver)");
    for (int i = 0; i < d->ngpus; i++) {
        const cc_doc_gpu *g = &d->gpus[i];
        fprintf(out, "  [%d] %s  CC %d.%d  %d SMs  %.1f GiB  ECC %s  MIG %s\n", g->ordinal,
                g->name, g->cc / 10, g->cc % 10, g->sms, (double)g->mem_bytes / (1u << 30),
                g->ecc < 0 ? "?" : g->ecc ? "on" : "off", g->mig < 0 ? "n/a" : g->mig ? "on" : "off");
        if (g->pci[0] || g->uuid[0])
            fprintf(out, "      %s %s\n", g->pci, g->uuid);
    }
    if (d->nvml_gpus >= 0 && d->nvml_gpus != d->ngpus)
        fprintf(out, "  NVML sees %d GPU(s) in all (CUDA_VISIBLE_DEVICES ignored):\n", d->nvml_gpus);
    for (int i = 0; d->nvml_gpus != d->ngpus && i < d->nvml_gpus && i < CC_DOC_MAX_GPUS; i++)
        fprintf(out, "    nvml %d: %s %s\n", i, d->nvml_names[i], d->nvml_uuids[i]);
}

static void print_libs(FILE *out, const cc_doc_report *r)
{
    fprintf(out, "\nCUDA libraries%s\n", r->program.requested ? " (loaded by the program)" : "");
    if (r->nlibs == 0)
        fprintf(out, "  none found\n");
    for (int i = 0; i < r->nlibs; i++) {
        const cc_doc_lib *l = &r->libs[i];
        char cuda[16] = "";
        if (l->cuda > 0 && l->cuda_major_only)
            snprintf(cuda, sizeof cuda, "%d", CC_DOC_CUDA_MAJOR(l->cuda));
        else
            cc_doc_cuda_str(l->cuda, cuda, sizeof cuda);
        fprintf(out, "  %-22s %-12s CUDA %-8s %s\n", cc_doc_lib_name(l->kind),
                l->ok && l->version[0] ? l->version : "?", cuda, l->path);
        fprintf(out, "  %-22s from %s%s%s", "", cc_doc_origin_name(l->origin),
                l->wheel[0] ? ", wheel " : "", l->wheel);
        if (l->built_cudart > 0) {
            char b[16];
            cc_doc_cuda_str(l->built_cudart, b, sizeof b);
            fprintf(out, ", built against cudart %s", b);
        }
        if (!l->ok && l->error[0])
            fprintf(out, ", %s", l->error);
        fprintf(out, "\n");
        if (l->archs.has_device_code) {
            char list[1024];
            cc_doc_images_list(&l->archs, list, sizeof list);
            fprintf(out, "  %-22s images: %s\n", "", list);
        }
    }
}

static void print_bins(FILE *out, const cc_doc_report *r)
{
    if (r->nbins == 0)
        return;
    fprintf(out, "\nBinaries\n");
    for (int i = 0; i < r->nbins; i++) {
        const cc_doc_binary *b = &r->bins[i];
        char list[1024], cover[512];
        cc_doc_images_list(&b->archs, list, sizeof list);
        cc_doc_coverage(&b->archs, cover, sizeof cover);
        fprintf(out, "  %s (%s)\n", b->path, b->label);
        if (b->archs.has_device_code)
            fprintf(out, "      images: %s\n      covers: %s\n", list, cover);
        else
            fprintf(out, "      no device code%s%s\n", b->archs.error[0] ? ": " : "",
                    b->archs.error);
    }
}

static void print_python(FILE *out, const cc_doc_report *r)
{
    const cc_doc_python *p = &r->python;
    fprintf(out, "\nPython\n");
    if (!p->ran && !p->requested) {
        fprintf(out, "  not probed (use --python)\n");
    } else {
        fprintf(out, "  interpreter: %s %s%s%s\n", p->interpreter, p->python_version,
                p->platform[0] ? " on " : "", p->platform);
        if (p->error[0])
            fprintf(out, "  error: %s\n", p->error);
        for (int i = 0; i < p->nsites; i++)
            fprintf(out, "  site-packages: %s\n", p->sites[i]);
        if (p->requested) {
            if (p->torch_found) {
                fprintf(out, "  PyTorch %s (debug %s), CUDA used to build: %s, cuDNN %s, NCCL %s\n",
                        p->torch_version, p->torch_debug[0] ? p->torch_debug : "?",
                        p->torch_cuda[0] ? p->torch_cuda : "none (CPU build)",
                        p->torch_cudnn[0] ? p->torch_cudnn : "?",
                        p->torch_nccl[0] ? p->torch_nccl : "?");
                fprintf(out, "  arch list: %s\n  torch/lib: %s\n", p->torch_archs[0] ? p->torch_archs : "?",
                        p->torch_lib);
                fprintf(out, "  torch.cuda.is_available(): %s, device_count: %s\n",
                        p->cuda_available[0] ? p->cuda_available : "?",
                        p->device_count[0] ? p->device_count : "?");
            } else {
                fprintf(out, "  PyTorch: not importable%s%s\n", p->torch_error[0] ? ": " : "",
                        p->torch_error);
            }
        }
        for (int i = 0; i < p->npkgs; i++)
            fprintf(out, "  package: %s\n", p->pkgs[i]);
    }
    fprintf(out, "  nvcc on PATH: %s\n", r->toolkit_nvcc[0] ? r->toolkit_nvcc : "none");
}

static void print_env(FILE *out, const cc_doc_report *r)
{
    static const char *const vars[] = {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
                                       "CUDA_MODULE_LOADING", "CUDA_LAUNCH_BLOCKING",
                                       "CUDA_DISABLE_PTX_JIT", "CUDA_FORCE_PTX_JIT",
                                       "CUDA_CACHE_DISABLE", "CUDA_CACHE_MAXSIZE",
                                       "CUDA_HOME", "LD_LIBRARY_PATH"};
    fprintf(out, "\nEnvironment\n");
    for (unsigned i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        fprintf(out, "  %-22s %s\n", vars[i], v ? v : "(unset)");
    }
    (void)r;
}

void cc_doctor_print_text(FILE *out, const cc_doc_report *r)
{
    const cc_doc_driver *d = &r->driver;
    char cuda[16];
    cc_doc_cuda_str(d->cuda, cuda, sizeof cuda);
    fprintf(out, "cucheck doctor\n  host: %s\n", r->host);
    fprintf(out, "\nDriver\n");
    if (!d->libcuda_loaded) {
        fprintf(out, "  no NVIDIA driver found (libcuda.so.1 not loadable): GPU checks skipped\n");
        if (d->load_error[0])
            fprintf(out, "  (%s)\n", d->load_error);
    } else {
        fprintf(out, "  libcuda: %s\n", d->libcuda_path);
        fprintf(out, "  driver version: %s, highest CUDA supported: %s\n",
                d->branch[0] ? d->branch : "unknown", cuda);
        fprintf(out, "  cuInit: %s (%d)\n", d->init_result == 0 ? "CUDA_SUCCESS" : d->init_error,
                d->init_result);
    }
    if (d->branch[0] && !d->libcuda_loaded)
        fprintf(out, "  kernel module: %s\n", d->branch);
    print_gpus(out, r);
    print_libs(out, r);
    print_bins(out, r);
    print_python(out, r);
    print_env(out, r);
    cc_doc_print_agent_text(out, r);

    static const char *const topics[] = {"driver", "libraries", "image", "environment", "python",
                                         "agent", "program"};
    int counts[4] = {0};
    fprintf(out, "\nVerdicts\n");
    for (unsigned t = 0; t < sizeof topics / sizeof topics[0]; t++)
        for (int i = 0; i < r->nverdicts; i++) {
            const cc_doc_verdict *v = &r->verdicts[i];
            if (strcmp(v->topic, topics[t]) != 0)
                continue;
            fprintf(out, "  %-4s [%s] %s: %s\n", cc_doc_level_name(v->level), v->topic,
                    v->subject, v->text);
            if (v->fix[0])
                fprintf(out, "       fix: %s\n", v->fix);
        }
    for (int i = 0; i < r->nverdicts; i++)
        if (r->verdicts[i].level >= 0 && r->verdicts[i].level < 4)
            counts[r->verdicts[i].level]++;
    fprintf(out, "\nSummary: %d OK, %d WARN, %d FAIL, %d INFO\n", counts[CC_DOC_OK],
            counts[CC_DOC_WARN], counts[CC_DOC_FAIL], counts[CC_DOC_INFO]);
}
