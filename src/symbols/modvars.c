/* A cubin's global variables from its symbol table, each checked against its section's bounds,
 * and their names as the program wrote them (see modvars.h). */
#include "symbols/modvars.h"

#include <stdio.h>
#include <string.h>

#include "symbols/demangle.h"
#include "symbols/elf.h"

#define STT_OBJECT 1u
#define STT_CUDA_OBJECT 13u       /* STT_LOPROC: objects of relocatable cubins */
#define SHN_LORESERVE 0xff00u
#define STO_CUDA_MANAGED 0x4u     /* st_other bit nvcc sets on __managed__ variables */

/* CC_CUBIN_VAR_* of a section that holds variables, or -1 for any other section. */
static int section_kind(const char *name)
{
    if (strcmp(name, ".nv.global") == 0 || strcmp(name, ".nv.global.init") == 0) {
        return 0;
    }
    static const char bank[] = ".nv.constant";
    if (strncmp(name, bank, sizeof bank - 1) != 0) {
        return -1;
    }
    const char *d = name + sizeof bank - 1;
    if (*d == '\0') {
        return -1;
    }
    for (; *d != '\0'; d++) {
        if (*d < '0' || *d > '9') {
            return -1; /* .nv.constant0.<kernel>: a kernel's parameter bank */
        }
    }
    return (int)CC_CUBIN_VAR_CONSTANT;
}

/* Name and size of section i from its header alone: relocatable cubins give .nv.global a
 * processor-specific type (SHT_LOPROC + 7) that holds no bytes in the file, so the reader's
 * check that a section's contents lie inside the file does not apply (cc_elf_open checked that
 * the header table does). 0 ok, -1 if i is out of range. */
static int section_header(const cc_elf *elf, uint32_t i, const char **name, uint64_t *size)
{
    if (i >= elf->shnum) {
        return -1;
    }
    const unsigned char *h = elf->data + elf->shoff + (uint64_t)i * elf->shentsize;
    *name = cc_elf_string(elf, elf->shstrndx, cc_le32(h));
    *size = cc_le64(h + 32);
    return *name != NULL ? 0 : -1;
}

int cc_cubin_vars(const void *data, size_t size, cc_cubin_var_cb cb, void *user, char *err,
                  size_t errlen)
{
    cc_elf elf;
    if (cc_elf_open(&elf, data, size, err, errlen) != 0) {
        return -1;
    }
    if (elf.machine != CC_EM_CUDA) {
        snprintf(err, errlen, "not a cubin (ELF machine %u)", (unsigned)elf.machine);
        return -1;
    }
    cc_elf_section symtab;
    if (cc_elf_symtab(&elf, &symtab) != 0) {
        return 0;
    }
    int delivered = 0;
    uint32_t n = cc_elf_symbol_count(&elf, &symtab);
    for (uint32_t i = 1; i < n; i++) {
        cc_elf_symbol sym;
        const char *sec_name;
        uint64_t sec_size;
        if (cc_elf_get_symbol(&elf, &symtab, i, &sym) != 0) {
            break;
        }
        unsigned type = sym.info & 0xfu;
        if ((type != STT_OBJECT && type != STT_CUDA_OBJECT) || sym.size == 0 ||
            sym.name[0] == '\0' || sym.shndx == 0 || sym.shndx >= SHN_LORESERVE ||
            section_header(&elf, sym.shndx, &sec_name, &sec_size) != 0) {
            continue;
        }
        int kind = section_kind(sec_name);
        if (kind < 0 || sym.value > sec_size || sym.size > sec_size - sym.value) {
            continue;
        }
        cc_cubin_var v;
        v.name = sym.name;
        v.section = sec_name;
        v.offset = sym.value;
        v.size = sym.size;
        v.flags = (uint32_t)kind;
        if (sym.other & STO_CUDA_MANAGED) {
            v.flags |= CC_CUBIN_VAR_MANAGED;
        }
        delivered++;
        if (cb != NULL && cb(&v, user) != 0) {
            break;
        }
    }
    return delivered;
}

/* The name inside nvcc's `__nv_static_<n>_<n characters>_<name>`, or name itself. */
static const char *strip_static_prefix(const char *name)
{
    static const char prefix[] = "__nv_static_";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0) {
        return name;
    }
    const char *p = name + sizeof prefix - 1;
    size_t n = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 6; p++, digits++) {
        n = n * 10 + (size_t)(*p - '0');
    }
    if (digits == 0 || *p != '_' || strnlen(p + 1, n + 1) < n + 1 || p[1 + n] != '_' ||
        p[2 + n] == '\0') {
        return name;
    }
    return p + 2 + n;
}

char *cc_cubin_var_display_name(const char *name, char *out, size_t len)
{
    if (out == NULL || len == 0) {
        return out;
    }
    cc_demangle(name != NULL ? strip_static_prefix(name) : "", out, len);
    /* "_INTERNAL_<unit>::(anonymous namespace)::x" -> "(anonymous namespace)::x" */
    static const char internal[] = "_INTERNAL_";
    if (strncmp(out, internal, sizeof internal - 1) == 0) {
        char *sep = strstr(out, "::");
        if (sep != NULL && sep[2] != '\0' && memchr(out, ' ', (size_t)(sep - out)) == NULL) {
            memmove(out, sep + 2, strlen(sep + 2) + 1);
        }
    }
    return out;
}
