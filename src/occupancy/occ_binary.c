/* Walks the cubins of a file (host ELF fatbin sections, fatbin containers, bare cubins) and the
 * kernels in each, using src/symbols; converts a kernel's .nv.info resources to occupancy input. */
#include "occupancy/occ_binary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input_file.h"
#include "symbols/elf.h"
#include "symbols/fatbin.h"

typedef struct {
    cc_occ_binary_cb cb;
    void *user;
    int cubins;
    int stop;
    char *err;
    size_t errlen;
    char arch_name[24];
    unsigned arch;
} walk_ctx;

static int kernel_cb(const cc_kernel_info *k, void *user)
{
    walk_ctx *w = user;
    if (w->cb(w->arch_name, w->arch, k, w->user)) w->stop = 1;
    return w->stop;
}

static void visit_cubin(walk_ctx *w, const void *data, size_t size)
{
    cc_cubin_info info;
    char err[256];
    if (cc_cubin_inspect(data, size, &info, err, sizeof err) != 0) {
        snprintf(w->err, w->errlen, "malformed cubin: %s", err);
        return;
    }
    w->cubins++;
    w->arch = info.arch;
    if (info.arch_suffix)
        snprintf(w->arch_name, sizeof w->arch_name, "sm_%u%c", info.arch, info.arch_suffix);
    else
        snprintf(w->arch_name, sizeof w->arch_name, "sm_%u", info.arch);
    if (cc_cubin_kernels(data, size, kernel_cb, w, err, sizeof err) < 0)
        snprintf(w->err, w->errlen, "malformed cubin (sm_%u): %s", info.arch, err);
}

static int fatbin_cb(const cc_fatbin_entry *e, void *user)
{
    walk_ctx *w = user;
    if (e->kind != CC_FATBIN_KIND_ELF) return 0;
    unsigned char *buf = NULL;
    size_t len = 0;
    char err[256];
    if (cc_fatbin_payload(e, &buf, &len, err, sizeof err) != 0) {
        snprintf(w->err, w->errlen, "fatbin entry at offset %llu: %s",
                 (unsigned long long)e->offset, err);
        return 0;
    }
    if (cc_cubin_is_cubin(buf, len)) visit_cubin(w, buf, len);
    free(buf);
    return w->stop;
}

static void visit_fatbin(walk_ctx *w, const void *data, size_t size)
{
    char err[256];
    if (cc_fatbin_iter(data, size, fatbin_cb, w, err, sizeof err) < 0 && !w->err[0])
        snprintf(w->err, w->errlen, "malformed fatbin: %s", err);
}

static void visit_host_elf(walk_ctx *w, const void *data, size_t size)
{
    cc_elf elf;
    char err[256];
    if (cc_elf_open(&elf, data, size, err, sizeof err) != 0) {
        snprintf(w->err, w->errlen, "malformed ELF: %s", err);
        return;
    }
    for (uint32_t i = 0; i < elf.shnum && !w->stop; i++) {
        cc_elf_section s;
        if (cc_elf_get_section(&elf, i, &s) != 0 || !s.data) continue;
        if (strcmp(s.name, ".nv_fatbin") == 0 || strcmp(s.name, "__nv_relfatbin") == 0)
            visit_fatbin(w, s.data, (size_t)s.size);
    }
}

int cc_occ_binary_kernels(const char *path, cc_occ_binary_cb cb, void *user, char *err,
                          size_t errlen)
{
    cc_input_map m; /* a regular file only: a FIFO or a device is refused, never read */
    char why[200];
    if (cc_input_map_open(path, &m, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    if (m.size == 0) {
        snprintf(err, errlen, "%s: empty file", path);
        return -1;
    }
    const void *data = m.data;
    size_t size = m.size;
    walk_ctx w = {cb, user, 0, 0, err, errlen, {0}, 0};
    err[0] = 0;
    if (cc_cubin_is_cubin(data, size)) visit_cubin(&w, data, size);
    else if (cc_fatbin_is_fatbin(data, size)) visit_fatbin(&w, data, size);
    else if (cc_elf_is_elf(data, size)) visit_host_elf(&w, data, size);
    else snprintf(err, errlen, "%s: not an ELF file, fatbin or cubin", path);
    cc_input_map_close(&m);
    if (w.cubins == 0 && err[0]) return -1;
    return w.cubins;
}

void cc_occ_kernel_from_info(const cc_kernel_info *info, cc_occ_kernel *k)
{
    cc_occ_kernel_init(k);
    k->regs = info->has_regs ? (int)info->regs : 0;
    k->smem_static = info->static_smem;
    k->local_bytes = info->local_bytes;
    unsigned long long mt = 0;
    if (info->max_threads[0])
        mt = (unsigned long long)info->max_threads[0] * (info->max_threads[1] ? info->max_threads[1] : 1) *
             (info->max_threads[2] ? info->max_threads[2] : 1);
    else if (info->req_threads[0])
        mt = (unsigned long long)info->req_threads[0] * (info->req_threads[1] ? info->req_threads[1] : 1) *
             (info->req_threads[2] ? info->req_threads[2] : 1);
    k->max_threads = mt > 0 && mt <= 1u << 20 ? (int)mt : 0;
    k->reg_cap = (int)info->max_regs;
    k->barriers = info->barriers > 0 ? (int)info->barriers : 1;
}
