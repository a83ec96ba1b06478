/* Kernel image verdicts: for every binary and library that carries device code and every GPU
 * (present, or named with --cc), whether it runs as SASS, by PTX JIT (and whether this driver
 * accepts that PTX ISA), or not at all ("no kernel image"), each with the fix. Without any GPU
 * the images and the compute capabilities they cover are stated instead. */
#include "doctor/verdicts.h"

#include <limits.h>

#include <stdio.h>
#include <string.h>

/* Target GPUs: distinct compute capabilities of the GPUs present, then --cc ones. */
typedef struct target {
    int cc;
    char name[160];
} target;

static int collect_targets(const cc_doc_report *r, target *t, int cap)
{
    int n = 0;
    for (int i = 0; i < r->driver.ngpus && n < cap; i++) {
        const cc_doc_gpu *g = &r->driver.gpus[i];
        int dup = 0;
        for (int k = 0; k < n; k++)
            dup |= t[k].cc == g->cc;
        if (dup || g->cc <= 0)
            continue;
        t[n].cc = g->cc;
        snprintf(t[n].name, sizeof t[n].name, "GPU %d %s (CC %d.%d)", g->ordinal, g->name,
                 g->cc / 10, g->cc % 10);
        n++;
    }
    for (int i = 0; i < r->opt.nextra_cc && n < cap; i++) {
        int dup = 0;
        for (int k = 0; k < n; k++)
            dup |= t[k].cc == r->opt.extra_cc[i];
        if (dup)
            continue;
        t[n].cc = r->opt.extra_cc[i];
        snprintf(t[n].name, sizeof t[n].name, "CC %d.%d (--cc)", t[n].cc / 10, t[n].cc % 10);
        n++;
    }
    return n;
}

void cc_doc_images_list(const cc_doc_archs *a, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < a->n && off + 1 < len; i++) {
        char nm[32];
        cc_doc_image_name(&a->img[i], nm, sizeof nm);
        int w;
        if (a->img[i].is_ptx && a->img[i].ptx_major)
            w = snprintf(buf + off, len - off, "%s%s(PTX %u.%u)", off ? " " : "", nm,
                         a->img[i].ptx_major, a->img[i].ptx_minor);
        else
            w = snprintf(buf + off, len - off, "%s%s", off ? " " : "", nm);
        if (w < 0 || (size_t)w >= len - off)
            break;
        off += (size_t)w;
    }
    if (a->truncated && off + 5 < len)
        snprintf(buf + off, len - off, " ...");
}

void cc_doc_coverage(const cc_doc_archs *a, char *buf, size_t len)
{
    /* Per major: the lowest plain/family SASS minor covers the rest of that major; 'a' SASS
     * adds its exact CC when not covered already. */
    int low[64], nlow = 0, exact[64], nexact = 0, min_ptx = 0;
    for (int i = 0; i < a->n; i++) {
        const cc_doc_image *m = &a->img[i];
        if (m->is_ptx) {
            if (!m->suffix && (min_ptx == 0 || m->arch < min_ptx))
                min_ptx = m->arch;
            continue;
        }
        if (m->suffix == 'a') {
            if (nexact < 64)
                exact[nexact++] = m->arch;
            continue;
        }
        int k;
        for (k = 0; k < nlow && low[k] / 10 != m->arch / 10; k++) {
        }
        if (k == nlow && nlow < 64)
            low[nlow++] = m->arch;
        else if (k < nlow && m->arch < low[k])
            low[k] = m->arch;
    }
    size_t off = 0;
    buf[0] = 0;
    for (int k = 0; k < nlow; k++) {
        int w = snprintf(buf + off, len - off, "%s%d.%d-%d.9", off ? ", " : "SASS for CC ",
                         low[k] / 10, low[k] % 10, low[k] / 10);
        if (w < 0 || (size_t)w >= len - off)
            return;
        off += (size_t)w;
    }
    for (int k = 0; k < nexact; k++) {
        int covered = 0;
        for (int j = 0; j < nlow; j++)
            covered |= low[j] / 10 == exact[k] / 10 && low[j] <= exact[k];
        for (int j = 0; j < k; j++)
            covered |= exact[j] == exact[k];
        if (covered)
            continue;
        int w = snprintf(buf + off, len - off, "%s%d.%d only", off ? ", " : "SASS for CC ",
                         exact[k] / 10, exact[k] % 10);
        if (w < 0 || (size_t)w >= len - off)
            return;
        off += (size_t)w;
    }
    if (min_ptx && off + 1 < len)
        snprintf(buf + off, len - off, "%sPTX JIT for CC >= %d.%d", off ? "; " : "",
                 min_ptx / 10, min_ptx % 10);
    else if (!off)
        snprintf(buf, len, "no usable image");
}

/* Fix for a missing image: rebuild for binaries; a newer build for libraries and PyTorch. */
static void missing_fix(const char *what, int is_lib, int cc, char *fix, size_t len)
{
    char gencode[96];
    cc_doc_gencode_for(cc, gencode, sizeof gencode);
    if (is_lib == 2)
        snprintf(fix, len, "install a PyTorch build whose arch list has sm_%d (a wheel built "
                 "for a newer CUDA), or build PyTorch with TORCH_CUDA_ARCH_LIST=\"%d.%d\"", cc,
                 cc / 10, cc % 10);
    else if (is_lib)
        snprintf(fix, len, "use a %s release that ships sm_%d kernels (a newer CUDA "
                 "toolkit or wheel)", what, cc);
    else
        snprintf(fix, len, "rebuild with %s", gencode);
}

void cc_doc_judge_images_of(cc_doc_report *r, const char *subject, const char *what, int is_lib,
                            const cc_doc_archs *a)
{
    target t[CC_DOC_MAX_GPUS + CC_DOC_MAX_EXTRA_CC];
    int nt = collect_targets(r, t, (int)(sizeof t / sizeof t[0]));
    char list[1024], fix[512], gencode[96], cover[512];
    cc_doc_images_list(a, list, sizeof list);
    if (a->error[0])
        cc_doc_add_verdict(r, CC_DOC_WARN, "image", subject, NULL, "%s", a->error);
    if (!a->has_device_code) {
        cc_doc_add_verdict(r, CC_DOC_INFO, "image", subject, NULL,
                           "no device code (nothing to check)");
        return;
    }
    if (nt == 0) {
        cc_doc_coverage(a, cover, sizeof cover);
        cc_doc_add_verdict(r, CC_DOC_INFO, "image", subject, NULL,
                           "carries %s: %s (no GPU to check against; use --cc X.Y)", list,
                           cover);
        return;
    }
    int driver_cuda = r->driver.cuda;
    char drv[16];
    cc_doc_cuda_str(driver_cuda, drv, sizeof drv);
    for (int k = 0; k < nt; k++) {
        int cc = t[k].cc;
        cc_doc_pick p = cc_doc_pick_image(a->img, (size_t)a->n, cc, driver_cuda, &r->env_flags);
        char subj[400], img[32] = "";
        snprintf(subj, sizeof subj, "%s on %s", subject, t[k].name);
        if (p.image >= 0)
            cc_doc_image_name(&a->img[p.image], img, sizeof img);
        cc_doc_gencode_for(cc, gencode, sizeof gencode);
        const cc_doc_image *m = p.image >= 0 ? &a->img[p.image] : NULL;
        switch (p.kind) {
        case CC_RUN_SASS:
            cc_doc_add_verdict(r, CC_DOC_OK, "image", subj, NULL, "runs as SASS (%s)", img);
            break;
        case CC_RUN_PTX_JIT: {
            int pm = 0, pn = 0;
            cc_doc_driver_max_ptx(driver_cuda, &pm, &pn);
            char acc[96] = "";
            if (driver_cuda > 0)
                snprintf(acc, sizeof acc, "; this driver (CUDA %s) accepts PTX ISA <= %d.%d",
                         drv, pm, pn);
            if (is_lib)
                missing_fix(what, is_lib, cc, fix, sizeof fix);
            else
                snprintf(fix, sizeof fix, "add %s to skip the JIT", gencode);
            cc_doc_add_verdict(r, CC_DOC_WARN, "image", subj, fix,
                               "runs by PTX JIT from %s (PTX ISA %u.%u%s): no SASS for CC %d.%d, "
                               "the first launch compiles (slow start, JIT cache)",
                               img, m->ptx_major, m->ptx_minor, acc, cc / 10, cc % 10);
            break;
        }
        case CC_RUN_PTX_TOO_NEW: {
            char need[16];
            cc_doc_cuda_str(p.need_cuda, need, sizeof need);
            int branch = cc_doc_driver_branch_for_cuda(p.need_cuda);
            char br[48] = "";
            if (branch)
                snprintf(br, sizeof br, " (branch >= %d)", branch);
            snprintf(fix, sizeof fix, "upgrade the driver to one for CUDA %s%s, or %s", need, br,
                     is_lib ? "use a build with SASS for this GPU" : gencode);
            cc_doc_add_verdict(r, CC_DOC_FAIL, "image", subj, fix,
                               "only PTX %s of ISA %u.%u, which needs a driver for CUDA >= %s "
                               "(this one: CUDA %s): cudaErrorUnsupportedPtxVersion (222)",
                               img, m->ptx_major, m->ptx_minor, need, drv);
            break;
        }
        case CC_RUN_JIT_DISABLED:
            snprintf(fix, sizeof fix, "unset CUDA_DISABLE_PTX_JIT, or %s",
                     is_lib ? "use a build with SASS for this GPU" : gencode);
            cc_doc_add_verdict(r, CC_DOC_FAIL, "image", subj, fix,
                               "only PTX (%s) fits, and CUDA_DISABLE_PTX_JIT=1 forbids the JIT: "
                               "no kernel image (209)", img);
            break;
        case CC_RUN_NO_IMAGE:
            missing_fix(what, is_lib, cc, fix, sizeof fix);
            cc_doc_add_verdict(r, CC_DOC_FAIL, "image", subj, fix,
                               "NO KERNEL IMAGE for CC %d.%d: it carries %s%s; launches fail with "
                               "cudaErrorNoKernelImageForDevice (209)%s",
                               cc / 10, cc % 10, list,
                               r->env_flags.force_ptx_jit ? " (CUDA_FORCE_PTX_JIT=1 ignores SASS)"
                                                          : "",
                               cc_doc_lazy_loading(cc_doc_parse_module_loading(
                                                       r->env_module_loading), 0)
                                   ? ", at the kernel's first launch (lazy loading)"
                                   : "");
            break;
        case CC_RUN_NO_DEVICE_CODE:
            break;
        }
    }
}

void cc_doc_judge_images(cc_doc_report *r)
{
    for (int i = 0; i < r->nbins; i++) {
        const cc_doc_binary *b = &r->bins[i];
        char subject[PATH_MAX + 80];
        int is_lib = b->origin == CC_ORIGIN_ARGUMENT ? 0
                     : strcmp(b->label, "PyTorch arch list") == 0 ? 2
                     : b->origin == CC_ORIGIN_PROGRAM && strcmp(b->label, "the program") == 0
                         ? 0
                         : 1;
        snprintf(subject, sizeof subject, "%s", b->path);
        cc_doc_judge_images_of(r, subject, is_lib == 2 ? "PyTorch" : b->path, is_lib, &b->archs);
    }
    for (int i = 0; i < r->nlibs; i++) {
        const cc_doc_lib *l = &r->libs[i];
        if (!l->archs.scanned || (!l->archs.has_device_code && !l->archs.error[0]))
            continue;
        char subject[PATH_MAX + 80];
        snprintf(subject, sizeof subject, "%s %s", cc_doc_lib_name(l->kind), l->path);
        cc_doc_judge_images_of(r, subject, cc_doc_lib_name(l->kind), 1, &l->archs);
    }
}
