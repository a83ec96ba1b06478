/* Cubin facts: architecture and variant (ELF notes, e_flags, .nv.compat), line-info presence,
 * and per-kernel resources gathered from the symbol table, .nv.info (per-symbol records),
 * .nv.info.<kernel>, .nv.shared.<kernel> and .text.<kernel>. */
#include "symbols/cubin.h"
#include "symbols/elf.h"
#include "symbols/nvinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STT_FUNC 2u
#define STO_CUDA_ENTRY 0x10u
#define NOTE_CUINFO 1000u
#define NOTE_TKINFO 2000u
#define COMPAT_ARCH_SPECIFIC 9u   /* .nv.compat attribute: 1 for sm_XXa */
#define RESERVED_SMEM_SM90 1024u  /* system part of each .nv.shared.<k> on sm_90+ cubins */

int cc_cubin_is_cubin(const void *data, size_t size)
{
    return cc_elf_is_elf(data, size) && size >= 20 &&
           cc_le16((const unsigned char *)data + 18) == CC_EM_CUDA;
}

static int open_cubin(cc_elf *elf, const void *data, size_t size, char *err, size_t errlen)
{
    if (cc_elf_open(elf, data, size, err, errlen) != 0)
        return -1;
    if (elf->machine != CC_EM_CUDA) {
        snprintf(err, errlen, "not a cubin (e_machine %u, expected %u)", elf->machine, CC_EM_CUDA);
        return -1;
    }
    return 0;
}

/* The description of the first note of section s with the given type; NULL if none. */
static const unsigned char *note_desc(const cc_elf_section *s, uint32_t type, uint32_t *desclen)
{
    uint64_t off = 0;
    while (s->data && off <= s->size && s->size - off >= 12) {
        const unsigned char *n = s->data + off;
        uint64_t namesz = cc_le32(n), descsz = cc_le32(n + 4);
        uint64_t desc_off = off + 12 + ((namesz + 3) & ~3ull);
        if (desc_off > s->size || descsz > s->size - desc_off)
            return NULL;
        if (cc_le32(n + 8) == type) {
            *desclen = (uint32_t)descsz;
            return s->data + desc_off;
        }
        off = desc_off + ((descsz + 3) & ~3ull);
    }
    return NULL;
}

/* String field i of the tkinfo note (offsets into the string area after six u32 fields). */
static const char *tkinfo_string(const unsigned char *desc, uint32_t len, uint32_t field)
{
    if (len < 24 || field >= 6)
        return NULL;
    uint32_t off = cc_le32(desc + 4 * field);
    if (off >= len - 24)
        return NULL;
    const char *s = (const char *)desc + 24 + off;
    if (!memchr(s, 0, len - 24 - off) || !*s)
        return NULL;
    return s;
}

/* The variant letter in "-arch sm_100f ..." (0 if none). */
static char suffix_from_options(const char *opts)
{
    const char *p = opts ? strstr(opts, "sm_") : NULL;
    if (!p)
        return 0;
    p += 3;
    while (*p >= '0' && *p <= '9')
        p++;
    return (*p == 'a' || *p == 'f') ? *p : 0;
}

int cc_cubin_inspect(const void *data, size_t size, cc_cubin_info *info, char *err, size_t errlen)
{
    cc_elf elf;
    memset(info, 0, sizeof *info);
    if (open_cubin(&elf, data, size, err, errlen) != 0)
        return -1;
    info->elf_type = elf.type;
    /* e_flags: newer cubins (ELF ABI version >= 8) keep the SM in bits 8..15, older ones in
     * bits 0..7. The .note.nv.cuinfo note, when present, says it directly. */
    info->arch = elf.abiversion >= 8 ? (elf.flags >> 8) & 0xffu : elf.flags & 0xffu;
    cc_elf_section s;
    for (uint32_t i = 1; i < elf.shnum; i++) {
        if (cc_elf_get_section(&elf, i, &s) != 0)
            continue;
        uint32_t dl;
        const unsigned char *d;
        if (strcmp(s.name, ".note.nv.cuinfo") == 0 && (d = note_desc(&s, NOTE_CUINFO, &dl)) &&
            dl >= 4 && cc_le16(d + 2))
            info->arch = cc_le16(d + 2);
        else if (strcmp(s.name, ".note.nv.tkinfo") == 0 && (d = note_desc(&s, NOTE_TKINFO, &dl))) {
            info->toolkit = tkinfo_string(d, dl, 3);
            info->ptxas_options = tkinfo_string(d, dl, 5);
        } else if (strcmp(s.name, ".nv.compat") == 0) {
            cc_nvinfo_iter it;
            cc_nvinfo_record r;
            char sub[8];
            cc_nvinfo_begin(&it, s.data, (size_t)s.size);
            while (cc_nvinfo_next(&it, &r, sub, sizeof sub) == 1)
                if (r.format == CC_EIFMT_BVAL && r.attr == COMPAT_ARCH_SPECIFIC && r.value == 1)
                    info->arch_suffix = 'a';
        } else if (strcmp(s.name, ".debug_line") == 0) {
            info->has_line_info = 1;
        } else if (strcmp(s.name, ".nv_debug_line_sass") == 0) {
            info->has_ptx_line_info = 1;
        } else if (strcmp(s.name, ".debug_info") == 0) {
            info->has_debug_info = 1;
        } else if (strcmp(s.name, ".nv.shared.reserved.0") == 0) {
            info->reserved_smem = RESERVED_SMEM_SM90;
        }
    }
    if (!info->arch_suffix)
        info->arch_suffix = suffix_from_options(info->ptxas_options);
    cc_elf_section symtab;
    if (cc_elf_symtab(&elf, &symtab) == 0) {
        uint32_t n = cc_elf_symbol_count(&elf, &symtab);
        for (uint32_t i = 0; i < n; i++) {
            cc_elf_symbol sym;
            if (cc_elf_get_symbol(&elf, &symtab, i, &sym) == 0 && (sym.info & 0xf) == STT_FUNC) {
                info->functions++;
                if (sym.other & STO_CUDA_ENTRY)
                    info->kernels++;
            }
        }
    }
    return 0;
}

/* Per-symbol values from the global .nv.info section. */
typedef struct sym_attrs {
    uint32_t regs, frame, min_stack, max_stack;
    unsigned char has_regs;
} sym_attrs;

static int read_global_info(const cc_elf *elf, sym_attrs *attrs, uint32_t nsyms, char *err,
                            size_t errlen)
{
    cc_elf_section s;
    if (cc_elf_section_by_name(elf, ".nv.info", &s) != 0 || !s.data)
        return 0;
    cc_nvinfo_iter it;
    cc_nvinfo_record r;
    int rc;
    cc_nvinfo_begin(&it, s.data, (size_t)s.size);
    while ((rc = cc_nvinfo_next(&it, &r, err, errlen)) == 1) {
        if (r.format != CC_EIFMT_SVAL || r.value < 8)
            continue;
        uint32_t sym = cc_nvinfo_u32(&r, 0), v = cc_nvinfo_u32(&r, 1);
        if (sym >= nsyms)
            continue;
        switch (r.attr) {
        case CC_EIATTR_REGCOUNT: attrs[sym].regs = v; attrs[sym].has_regs = 1; break;
        case CC_EIATTR_FRAME_SIZE: attrs[sym].frame = v; break;
        case CC_EIATTR_MIN_STACK_SIZE: attrs[sym].min_stack = v; break;
        case CC_EIATTR_MAX_STACK_SIZE: attrs[sym].max_stack = v; break;
        default: break;
        }
    }
    return rc;
}

static void read_kernel_info(const cc_elf_section *s, cc_kernel_info *k)
{
    cc_nvinfo_iter it;
    cc_nvinfo_record r;
    char sub[8];
    cc_nvinfo_begin(&it, s->data, (size_t)s->size);
    while (cc_nvinfo_next(&it, &r, sub, sizeof sub) == 1) {
        switch (r.attr) {
        case CC_EIATTR_MAX_THREADS:
        case CC_EIATTR_REQNTID:
        case CC_EIATTR_CTA_PER_CLUSTER: {
            uint32_t *dst = r.attr == CC_EIATTR_MAX_THREADS ? k->max_threads
                            : r.attr == CC_EIATTR_REQNTID   ? k->req_threads
                                                            : k->cluster_dims;
            for (uint32_t i = 0; i < 3; i++)
                dst[i] = cc_nvinfo_u32(&r, i);
            break;
        }
        case CC_EIATTR_MAXREG_COUNT: k->max_regs = r.value; break;
        case CC_EIATTR_NUM_BARRIERS: k->barriers = r.value; break;
        case CC_EIATTR_CBANK_PARAM_SIZE: k->param_bytes = r.value; break;
        case CC_EIATTR_KPARAM_INFO: k->params++; break;
        case CC_EIATTR_EXPLICIT_CLUSTER: k->explicit_cluster = 1; break;
        case CC_EIATTR_MAX_CLUSTER_RANK: k->max_cluster_rank = cc_nvinfo_u32(&r, 0); break;
        case CC_EIATTR_COOP_GROUP_INSTR_OFFSETS: k->warp_sync_ops = 1; break;
        case CC_EIATTR_CRS_STACK_SIZE: k->crs_stack_bytes = cc_nvinfo_u32(&r, 0); break;
        case CC_EIATTR_CUDA_API_VERSION: k->cuda_api_version = cc_nvinfo_u32(&r, 0); break;
        case CC_EIATTR_NUM_MBARRIERS:
            k->mbarriers = r.format == CC_EIFMT_SVAL ? cc_nvinfo_u32(&r, 0) : r.value;
            break;
        default: break;
        }
    }
}

int cc_cubin_kernels(const void *data, size_t size, cc_kernel_cb cb, void *user, char *err,
                     size_t errlen)
{
    cc_elf elf;
    cc_cubin_info ci;
    if (cc_cubin_inspect(data, size, &ci, err, errlen) != 0 ||
        open_cubin(&elf, data, size, err, errlen) != 0)
        return -1;
    cc_elf_section symtab;
    if (cc_elf_symtab(&elf, &symtab) != 0)
        return 0; /* no symbols, no kernels */
    uint32_t nsyms = cc_elf_symbol_count(&elf, &symtab);
    sym_attrs *attrs = calloc(nsyms ? nsyms : 1, sizeof *attrs);
    /* For each section index: its .nv.info.<k> and .nv.shared.<k> sections (by sh_info). */
    uint32_t *info_of = calloc(elf.shnum ? elf.shnum : 1, sizeof *info_of);
    uint32_t *shared_of = calloc(elf.shnum ? elf.shnum : 1, sizeof *shared_of);
    int count = -1;
    if (!attrs || !info_of || !shared_of) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (read_global_info(&elf, attrs, nsyms, err, errlen) < 0)
        goto out;
    cc_elf_section s;
    for (uint32_t i = 1; i < elf.shnum; i++) {
        if (cc_elf_get_section(&elf, i, &s) != 0 || s.info == 0 || s.info >= elf.shnum)
            continue;
        if (strncmp(s.name, ".nv.info.", 9) == 0)
            info_of[s.info] = i;
        else if (strncmp(s.name, ".nv.shared.", 11) == 0)
            shared_of[s.info] = i;
    }
    count = 0;
    for (uint32_t i = 0; i < nsyms; i++) {
        cc_elf_symbol sym;
        if (cc_elf_get_symbol(&elf, &symtab, i, &sym) != 0 || (sym.info & 0xf) != STT_FUNC ||
            !(sym.other & STO_CUDA_ENTRY))
            continue;
        cc_kernel_info k;
        memset(&k, 0, sizeof k);
        k.name = sym.name;
        k.text_section = sym.shndx;
        k.code_bytes = sym.size;
        k.regs = attrs[i].regs;
        k.has_regs = attrs[i].has_regs;
        k.local_bytes = attrs[i].frame;
        k.min_stack_bytes = attrs[i].min_stack;
        k.max_stack_bytes = attrs[i].max_stack;
        if (sym.shndx > 0 && sym.shndx < elf.shnum) {
            /* Before sm_90 the register count is also in the top byte of .text's sh_info. */
            if (cc_elf_get_section(&elf, sym.shndx, &s) == 0 && !k.has_regs && (s.info >> 24)) {
                k.regs = s.info >> 24;
                k.has_regs = 1;
            }
            if (info_of[sym.shndx] && cc_elf_get_section(&elf, info_of[sym.shndx], &s) == 0)
                read_kernel_info(&s, &k);
            if (shared_of[sym.shndx] && cc_elf_get_section(&elf, shared_of[sym.shndx], &s) == 0) {
                k.smem_section_bytes = s.size;
                uint64_t st = s.size >= ci.reserved_smem ? s.size - ci.reserved_smem : s.size;
                k.static_smem = st > UINT32_MAX ? UINT32_MAX : (uint32_t)st;
            }
        }
        count++;
        if (cb && cb(&k, user))
            break;
    }
out:
    free(attrs);
    free(info_of);
    free(shared_of);
    return count;
}

typedef struct find_ctx {
    const char *name;
    cc_kernel_info *out;
    int found;
} find_ctx;

static int find_cb(const cc_kernel_info *k, void *user)
{
    find_ctx *f = user;
    if (strcmp(k->name, f->name) != 0)
        return 0;
    *f->out = *k;
    f->found = 1;
    return 1;
}

int cc_cubin_kernel(const void *data, size_t size, const char *name, cc_kernel_info *out,
                    char *err, size_t errlen)
{
    find_ctx f = {name, out, 0};
    if (cc_cubin_kernels(data, size, find_cb, &f, err, errlen) < 0)
        return -1;
    return f.found;
}
