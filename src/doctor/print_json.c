/* doctor's --json output: one JSON object with the driver, GPUs, libraries, binaries with
 * their images, Python, program, agent, environment, verdicts and a summary. */
#include "core/json.h"
#include "doctor/doctor.h"

#include <stdio.h>
#include <stdlib.h>

static void key(FILE *o, const char *k, int first)
{
    fprintf(o, "%s", first ? "" : ",");
    cc_json_write_str(o, k);
    fputc(':', o);
}

static void kv_str(FILE *o, const char *k, const char *v, int first)
{
    key(o, k, first);
    cc_json_write_str(o, v);
}

static void kv_int(FILE *o, const char *k, long long v, int first)
{
    key(o, k, first);
    fprintf(o, "%lld", v);
}

static void kv_cuda(FILE *o, const char *k, int cuda, int first)
{
    char s[16];
    key(o, k, first);
    if (cuda <= 0) {
        fputs("null", o);
        return;
    }
    cc_doc_cuda_str(cuda, s, sizeof s);
    cc_json_write_str(o, s);
}

static void write_archs(FILE *o, const cc_doc_archs *a)
{
    fputs("{", o);
    kv_int(o, "has_device_code", a->has_device_code, 1);
    key(o, "images", 0);
    fputc('[', o);
    for (int i = 0; i < a->n; i++) {
        char nm[32];
        cc_doc_image_name(&a->img[i], nm, sizeof nm);
        fprintf(o, "%s{", i ? "," : "");
        kv_str(o, "name", nm, 1);
        kv_str(o, "kind", a->img[i].is_ptx ? "ptx" : "sass", 0);
        kv_int(o, "arch", a->img[i].arch, 0);
        if (a->img[i].is_ptx) {
            char v[16];
            snprintf(v, sizeof v, "%u.%u", a->img[i].ptx_major, a->img[i].ptx_minor);
            kv_str(o, "ptx_isa", v, 0);
        }
        fputc('}', o);
    }
    fputc(']', o);
    if (a->error[0])
        kv_str(o, "error", a->error, 0);
    fputc('}', o);
}

static void write_driver(FILE *o, const cc_doc_driver *d)
{
    fputs("{", o);
    kv_int(o, "loaded", d->libcuda_loaded, 1);
    kv_str(o, "libcuda", d->libcuda_loaded ? d->libcuda_path : NULL, 0);
    kv_str(o, "load_error", d->load_error[0] ? d->load_error : NULL, 0);
    kv_str(o, "version", d->branch[0] ? d->branch : NULL, 0);
    kv_cuda(o, "cuda", d->cuda, 0);
    kv_int(o, "cu_init", d->init_result, 0);
    kv_str(o, "cu_init_name", d->init_error[0] ? d->init_error : NULL, 0);
    kv_int(o, "stub", d->is_stub, 0);
    kv_int(o, "forward_compat", d->is_compat, 0);
    kv_int(o, "nvml_gpus", d->nvml_gpus, 0);
    key(o, "gpus", 0);
    fputc('[', o);
    for (int i = 0; i < d->ngpus; i++) {
        const cc_doc_gpu *g = &d->gpus[i];
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", g->cc / 10, g->cc % 10);
        fprintf(o, "%s{", i ? "," : "");
        kv_int(o, "ordinal", g->ordinal, 1);
        kv_str(o, "name", g->name, 0);
        kv_str(o, "compute_capability", cc, 0);
        kv_int(o, "sms", g->sms, 0);
        kv_int(o, "memory_bytes", (long long)g->mem_bytes, 0);
        kv_int(o, "ecc", g->ecc, 0);
        kv_int(o, "mig", g->mig, 0);
        kv_str(o, "uuid", g->uuid, 0);
        kv_str(o, "pci", g->pci, 0);
        fputc('}', o);
    }
    fputs("]}", o);
}

static void write_python(FILE *o, const cc_doc_python *p)
{
    fputs("{", o);
    kv_int(o, "requested", p->requested, 1);
    kv_str(o, "interpreter", p->interpreter, 0);
    kv_int(o, "ran", p->ran, 0);
    kv_str(o, "error", p->error[0] ? p->error : NULL, 0);
    kv_str(o, "python_version", p->python_version, 0);
    key(o, "site_packages", 0);
    fputc('[', o);
    for (int i = 0; i < p->nsites; i++) {
        if (i)
            fputc(',', o);
        cc_json_write_str(o, p->sites[i]);
    }
    fputc(']', o);
    key(o, "packages", 0);
    fputc('[', o);
    for (int i = 0; i < p->npkgs; i++) {
        if (i)
            fputc(',', o);
        cc_json_write_str(o, p->pkgs[i]);
    }
    fputc(']', o);
    key(o, "torch", 0);
    if (!p->torch_found) {
        fputs("null", o);
    } else {
        fputc('{', o);
        kv_str(o, "version", p->torch_version, 1);
        kv_str(o, "cuda", p->torch_cuda[0] ? p->torch_cuda : NULL, 0);
        kv_str(o, "cudnn", p->torch_cudnn, 0);
        kv_str(o, "nccl", p->torch_nccl, 0);
        kv_str(o, "arch_list", p->torch_archs, 0);
        kv_str(o, "lib", p->torch_lib, 0);
        kv_str(o, "debug", p->torch_debug, 0);
        kv_str(o, "cuda_available", p->cuda_available, 0);
        kv_str(o, "device_count", p->device_count, 0);
        fputc('}', o);
    }
    kv_str(o, "torch_error", p->torch_error[0] ? p->torch_error : NULL, 0);
    fputc('}', o);
}

void cc_doctor_print_json(FILE *o, const cc_doc_report *r)
{
    fputc('{', o);
    kv_str(o, "tool", "doctor", 1);
    kv_str(o, "host", r->host, 0);
    key(o, "driver", 0);
    write_driver(o, &r->driver);
    key(o, "libraries", 0);
    fputc('[', o);
    for (int i = 0; i < r->nlibs; i++) {
        const cc_doc_lib *l = &r->libs[i];
        fprintf(o, "%s{", i ? "," : "");
        kv_str(o, "name", cc_doc_lib_name(l->kind), 1);
        kv_str(o, "path", l->path, 0);
        kv_str(o, "origin", cc_doc_origin_name(l->origin), 0);
        kv_int(o, "loaded", l->ok, 0);
        kv_str(o, "version", l->version[0] ? l->version : NULL, 0);
        kv_int(o, "raw_version", l->raw, 0);
        kv_cuda(o, "cuda", l->cuda, 0);
        kv_int(o, "cuda_major_only", l->cuda_major_only, 0);
        kv_cuda(o, "built_against_cudart", l->built_cudart, 0);
        kv_str(o, "wheel", l->wheel[0] ? l->wheel : NULL, 0);
        kv_str(o, "error", l->error[0] ? l->error : NULL, 0);
        if (l->archs.scanned) {
            key(o, "images", 0);
            write_archs(o, &l->archs);
        }
        fputc('}', o);
    }
    fputc(']', o);
    key(o, "binaries", 0);
    fputc('[', o);
    for (int i = 0; i < r->nbins; i++) {
        fprintf(o, "%s{", i ? "," : "");
        kv_str(o, "path", r->bins[i].path, 1);
        kv_str(o, "label", r->bins[i].label, 0);
        kv_str(o, "origin", cc_doc_origin_name(r->bins[i].origin), 0);
        key(o, "images", 0);
        write_archs(o, &r->bins[i].archs);
        fputc('}', o);
    }
    fputc(']', o);
    key(o, "python", 0);
    write_python(o, &r->python);
    kv_str(o, "nvcc", r->toolkit_nvcc[0] ? r->toolkit_nvcc : NULL, 0);
    if (r->program.requested) {
        key(o, "program", 0);
        fputc('{', o);
        kv_str(o, "command", r->opt.program[0], 1);
        kv_int(o, "ran", r->program.ran, 0);
        kv_int(o, "status", r->program.status, 0);
        kv_int(o, "objects_loaded", r->program.nloaded, 0);
        kv_str(o, "libcuda", r->program.libcuda[0] ? r->program.libcuda : NULL, 0);
        kv_str(o, "error", r->program.error[0] ? r->program.error : NULL, 0);
        fputc('}', o);
    }
    key(o, "agent", 0);
    cc_doc_print_agent_json(o, &r->agent);
    key(o, "environment", 0);
    fputc('{', o);
    static const char *const vars[] = {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
                                       "CUDA_MODULE_LOADING", "CUDA_LAUNCH_BLOCKING",
                                       "CUDA_DISABLE_PTX_JIT", "CUDA_FORCE_PTX_JIT",
                                       "CUDA_CACHE_DISABLE", "LD_LIBRARY_PATH"};
    for (unsigned i = 0; i < sizeof vars / sizeof vars[0]; i++)
        kv_str(o, vars[i], getenv(vars[i]), i == 0);
    fputc('}', o);
    int counts[4] = {0};
    key(o, "verdicts", 0);
    fputc('[', o);
    for (int i = 0; i < r->nverdicts; i++) {
        const cc_doc_verdict *v = &r->verdicts[i];
        if (v->level >= 0 && v->level < 4)
            counts[v->level]++;
        fprintf(o, "%s{", i ? "," : "");
        kv_str(o, "level", cc_doc_level_name(v->level), 1);
        kv_str(o, "topic", v->topic, 0);
        kv_str(o, "subject", v->subject, 0);
        kv_str(o, "text", v->text, 0);
        kv_str(o, "fix", v->fix[0] ? v->fix : NULL, 0);
        fputc('}', o);
    }
    fputc(']', o);
    key(o, "summary", 0);
    fprintf(o, "{\"ok\":%d,\"warn\":%d,\"fail\":%d,\"info\":%d}", counts[CC_DOC_OK],
            counts[CC_DOC_WARN], counts[CC_DOC_FAIL], counts[CC_DOC_INFO]);
    fputs("}\n", o);
}
