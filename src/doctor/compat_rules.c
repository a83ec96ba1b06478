/* The compatibility rules of compat.h: CUDA release <-> PTX ISA and driver branch tables, SASS
 * and PTX compatibility per compute capability, image choice and the -gencode fix, and the
 * driver vs runtime verdict. Facts come from the CUDA compatibility guide and the PTX ISA
 * release history (docs/doctor.md lists the sources). */
#include "doctor/compat.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Linux driver branch that first shipped with each CUDA release. */
static const struct { int cuda, branch; } branch_table[] = {
    {CC_DOC_CUDA(11, 0), 450}, {CC_DOC_CUDA(11, 1), 455}, {CC_DOC_CUDA(11, 2), 460},
    {CC_DOC_CUDA(11, 3), 465}, {CC_DOC_CUDA(11, 4), 470}, {CC_DOC_CUDA(11, 5), 495},
    {CC_DOC_CUDA(11, 6), 510}, {CC_DOC_CUDA(11, 7), 515}, {CC_DOC_CUDA(11, 8), 520},
    {CC_DOC_CUDA(12, 0), 525}, {CC_DOC_CUDA(12, 1), 530}, {CC_DOC_CUDA(12, 2), 535},
    {CC_DOC_CUDA(12, 3), 545}, {CC_DOC_CUDA(12, 4), 550}, {CC_DOC_CUDA(12, 5), 555},
    {CC_DOC_CUDA(12, 6), 560}, {CC_DOC_CUDA(12, 8), 570}, {CC_DOC_CUDA(12, 9), 575},
    {CC_DOC_CUDA(13, 0), 580},
};
#define BRANCHES (sizeof branch_table / sizeof branch_table[0])

int cc_doc_ptx_min_cuda(int maj, int min)
{
    if (maj <= 0 || min < 0)
        return 0;
    if (maj < 6)
        return CC_DOC_CUDA(8, 0); /* ancient PTX: any driver this tool meets accepts it */
    if (maj == 6)
        return min <= 2 ? CC_DOC_CUDA(9, min) : CC_DOC_CUDA(10, min - 3);
    if (maj == 7)
        return CC_DOC_CUDA(11, min);
    if (maj == 8) /* 8.0-8.5 = 12.0-12.5; 8.6 = 12.7, 8.7 = 12.8, 8.8 = 12.9 (12.6 kept 8.5) */
        return min <= 5 ? CC_DOC_CUDA(12, min) : CC_DOC_CUDA(12, min + 1);
    return CC_DOC_CUDA(maj + 4, min); /* 9.0 = 13.0, 9.1 = 13.1, extrapolated after */
}

void cc_doc_driver_max_ptx(int cuda, int *ptx_major, int *ptx_minor)
{
    int bm = 0, bn = 0;
    for (int maj = 1; maj <= 30; maj++)
        for (int min = 0; min <= 9; min++) {
            int need = cc_doc_ptx_min_cuda(maj, min);
            if (need && need <= cuda) {
                bm = maj;
                bn = min;
            }
        }
    *ptx_major = bm;
    *ptx_minor = bn;
}

int cc_doc_driver_branch_for_cuda(int cuda)
{
    for (size_t i = 0; i < BRANCHES; i++)
        if (branch_table[i].cuda >= cuda)
            return branch_table[i].branch;
    return 0;
}

int cc_doc_driver_branch_for_major(int major)
{
    return cc_doc_driver_branch_for_cuda(CC_DOC_CUDA(major, 0));
}

int cc_doc_cuda_for_driver_branch(int branch)
{
    int best = 0;
    for (size_t i = 0; i < BRANCHES; i++)
        if (branch_table[i].branch <= branch)
            best = branch_table[i].cuda;
    return best;
}

void cc_doc_cuda_str(int cuda, char *buf, size_t len)
{
    if (cuda <= 0)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%d.%d", CC_DOC_CUDA_MAJOR(cuda), CC_DOC_CUDA_MINOR(cuda));
}

int cc_doc_sass_runs(int arch, char suffix, int cc)
{
    if (arch <= 0 || cc <= 0)
        return 0;
    if (suffix == 'a')
        return arch == cc;
    return arch / 10 == cc / 10 && arch % 10 <= cc % 10;
}

int cc_doc_ptx_arch_ok(int arch, char suffix, int cc)
{
    if (arch <= 0 || cc <= 0)
        return 0;
    if (suffix == 'a')
        return arch == cc;
    if (suffix == 'f')
        return arch / 10 == cc / 10 && arch % 10 <= cc % 10;
    return arch <= cc;
}

cc_doc_pick cc_doc_pick_image(const cc_doc_image *imgs, size_t n, int cc, int driver_cuda,
                              const cc_doc_env_flags *env)
{
    cc_doc_pick p = {CC_RUN_NO_IMAGE, -1, 0};
    int force_jit = env && env->force_ptx_jit, no_jit = env && env->disable_ptx_jit;
    if (n == 0) {
        p.kind = CC_RUN_NO_DEVICE_CODE;
        return p;
    }
    int sass = -1;
    for (size_t i = 0; i < n && !force_jit; i++)
        if (!imgs[i].is_ptx && cc_doc_sass_runs(imgs[i].arch, imgs[i].suffix, cc) &&
            (sass < 0 || imgs[i].arch > imgs[sass].arch))
            sass = (int)i;
    if (sass >= 0) {
        p.kind = CC_RUN_SASS;
        p.image = sass;
        return p;
    }
    int ok = -1, too_new = -1, need = 0;
    for (size_t i = 0; i < n; i++) {
        if (!imgs[i].is_ptx || !cc_doc_ptx_arch_ok(imgs[i].arch, imgs[i].suffix, cc))
            continue;
        int min_cuda = cc_doc_ptx_min_cuda(imgs[i].ptx_major, imgs[i].ptx_minor);
        if (driver_cuda > 0 && min_cuda > driver_cuda) {
            if (too_new < 0 || imgs[i].arch > imgs[too_new].arch)
                too_new = (int)i;
            if (need == 0 || min_cuda < need)
                need = min_cuda;
        } else if (ok < 0 || imgs[i].arch > imgs[ok].arch) {
            ok = (int)i;
        }
    }
    if (ok >= 0 && no_jit) {
        p.kind = CC_RUN_JIT_DISABLED;
        p.image = ok;
    } else if (ok >= 0) {
        p.kind = CC_RUN_PTX_JIT;
        p.image = ok;
    } else if (too_new >= 0) {
        p.kind = CC_RUN_PTX_TOO_NEW;
        p.image = too_new;
        p.need_cuda = need;
    }
    return p;
}

static int image_cmp(const void *pa, const void *pb)
{
    const cc_doc_image *a = pa, *b = pb;
    if (a->arch != b->arch)
        return a->arch < b->arch ? -1 : 1;
    if (a->is_ptx != b->is_ptx)
        return a->is_ptx - b->is_ptx;
    if (a->suffix != b->suffix)
        return a->suffix < b->suffix ? -1 : 1;
    return (a->ptx_major * 100 + a->ptx_minor) - (b->ptx_major * 100 + b->ptx_minor);
}

void cc_doc_sort_images(cc_doc_image *imgs, size_t n)
{
    if (n > 1)
        qsort(imgs, n, sizeof *imgs, image_cmp);
}

void cc_doc_gencode_for(int cc, char *buf, size_t len)
{
    snprintf(buf, len, "-gencode arch=compute_%d,code=sm_%d", cc, cc);
}

void cc_doc_image_name(const cc_doc_image *img, char *buf, size_t len)
{
    if (img->suffix)
        snprintf(buf, len, "%s_%u%c", img->is_ptx ? "compute" : "sm", img->arch, img->suffix);
    else
        snprintf(buf, len, "%s_%u", img->is_ptx ? "compute" : "sm", img->arch);
}

/* Digits of s into *v (at most 4); returns the characters read, 0 if none. */
static size_t read_num(const char *s, int *v)
{
    size_t i = 0;
    *v = 0;
    while (isdigit((unsigned char)s[i]) && i < 4)
        *v = *v * 10 + (s[i++] - '0');
    return isdigit((unsigned char)s[i]) ? 0 : i;
}

int cc_doc_parse_cc(const char *s)
{
    int maj, min;
    if (!s)
        return -1;
    size_t n = read_num(s, &maj);
    if (n == 0)
        return -1;
    if (s[n] == 0)
        return maj >= 10 && maj <= 1209 ? maj : -1;
    if (s[n] != '.' || !isdigit((unsigned char)s[n + 1]) || s[n + 2] != 0)
        return -1;
    min = s[n + 1] - '0';
    return maj >= 1 && maj <= 120 ? maj * 10 + min : -1;
}

int cc_doc_parse_arch(const char *s, cc_doc_image *out)
{
    memset(out, 0, sizeof *out);
    if (!s)
        return -1;
    const char *p = s;
    if (strncmp(p, "sm_", 3) == 0) {
        p += 3;
    } else if (strncmp(p, "compute_", 8) == 0) {
        p += 8;
        out->is_ptx = 1;
    } else {
        int cc = cc_doc_parse_cc(s);
        if (cc < 0)
            return -1;
        out->arch = (uint16_t)cc;
        return 0;
    }
    int v;
    size_t n = read_num(p, &v);
    if (n < 2 || v < 10)
        return -1;
    p += n;
    if (*p == 'a' || *p == 'f')
        out->suffix = *p++;
    if (*p != 0)
        return -1;
    out->arch = (uint16_t)v;
    return 0;
}

cc_doc_drv_fit cc_doc_driver_fits(int runtime_cuda, int driver_cuda)
{
    if (runtime_cuda <= 0 || driver_cuda <= 0)
        return CC_DRV_UNKNOWN;
    if (driver_cuda >= runtime_cuda)
        return CC_DRV_OK;
    if (CC_DOC_CUDA_MAJOR(driver_cuda) == CC_DOC_CUDA_MAJOR(runtime_cuda))
        return CC_DRV_MINOR_COMPAT;
    return CC_DRV_TOO_OLD;
}
