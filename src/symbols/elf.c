/* ELF64 reader: header and section table validation, sections, symbols and string lookups, each
 * checked against the buffer's bounds (see elf.h). */
#include "symbols/elf.h"

#include <stdio.h>
#include <string.h>

#define EHDR_SIZE 64u
#define SHDR_SIZE 64u
#define SYM_SIZE 24u

int cc_elf_is_elf(const void *data, size_t size)
{
    return data && size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

/* 1 if [off, off+len) lies within a buffer of size bytes. */
static int in_range(uint64_t off, uint64_t len, size_t size)
{
    return off <= size && len <= size - off;
}

int cc_elf_open(cc_elf *elf, const void *data, size_t size, char *err, size_t errlen)
{
    const unsigned char *p = data;
    memset(elf, 0, sizeof *elf);
    if (!cc_elf_is_elf(data, size)) {
        snprintf(err, errlen, "not an ELF file");
        return -1;
    }
    if (size < EHDR_SIZE) {
        snprintf(err, errlen, "truncated ELF header (%zu bytes)", size);
        return -1;
    }
    if (p[4] != 2 || p[5] != 1) {
        snprintf(err, errlen, "unsupported ELF class/encoding (only 64-bit little-endian)");
        return -1;
    }
    elf->data = p;
    elf->size = size;
    elf->osabi = p[7];
    elf->abiversion = p[8];
    elf->type = cc_le16(p + 16);
    elf->machine = cc_le16(p + 18);
    elf->flags = cc_le32(p + 48);
    elf->shoff = cc_le64(p + 40);
    elf->shentsize = cc_le16(p + 58);
    elf->shnum = cc_le16(p + 60);
    elf->shstrndx = cc_le16(p + 62);
    if (elf->shoff == 0) {
        elf->shnum = 0; /* no section table: valid, just empty */
        return 0;
    }
    if (elf->shentsize < SHDR_SIZE) {
        snprintf(err, errlen, "bad section header size %u", (unsigned)elf->shentsize);
        return -1;
    }
    if (!in_range(elf->shoff, (uint64_t)elf->shnum * elf->shentsize, size)) {
        snprintf(err, errlen, "section table (offset %llu, %u entries) outside the file",
                 (unsigned long long)elf->shoff, (unsigned)elf->shnum);
        return -1;
    }
    if (elf->shnum == 0 || elf->shstrndx == 0xffffu) {
        /* Extended numbering: the real values live in section 0 (sh_size, sh_link). */
        if (!in_range(elf->shoff, SHDR_SIZE, size)) {
            snprintf(err, errlen, "section table outside the file");
            return -1;
        }
        const unsigned char *h0 = p + elf->shoff;
        uint64_t n = elf->shnum ? elf->shnum : cc_le64(h0 + 32);
        if (n > 0xffffu || !in_range(elf->shoff, n * elf->shentsize, size)) {
            snprintf(err, errlen, "section table (%llu entries) outside the file",
                     (unsigned long long)n);
            return -1;
        }
        elf->shnum = (uint16_t)n;
        if (elf->shstrndx == 0xffffu)
            elf->shstrndx = (uint16_t)cc_le32(h0 + 40);
    }
    if (elf->shstrndx >= elf->shnum) {
        snprintf(err, errlen, "bad section name table index %u", (unsigned)elf->shstrndx);
        return -1;
    }
    return 0;
}

/* Raw section header fields without resolving the name. */
static int read_shdr(const cc_elf *elf, uint32_t i, cc_elf_section *out)
{
    if (i >= elf->shnum)
        return -1;
    const unsigned char *h = elf->data + elf->shoff + (uint64_t)i * elf->shentsize;
    memset(out, 0, sizeof *out);
    out->index = i;
    out->type = cc_le32(h + 4);
    out->flags = cc_le64(h + 8);
    out->addr = cc_le64(h + 16);
    out->offset = cc_le64(h + 24);
    out->size = cc_le64(h + 32);
    out->link = cc_le32(h + 40);
    out->info = cc_le32(h + 44);
    out->addralign = cc_le64(h + 48);
    out->entsize = cc_le64(h + 56);
    if (out->type != CC_SHT_NOBITS && out->type != 0) {
        if (!in_range(out->offset, out->size, elf->size))
            return -1;
        out->data = elf->data + out->offset;
    }
    return 0;
}

const char *cc_elf_string(const cc_elf *elf, uint32_t strtab, uint64_t off)
{
    cc_elf_section s;
    if (read_shdr(elf, strtab, &s) != 0 || !s.data || off >= s.size)
        return NULL;
    const char *str = (const char *)s.data + off;
    if (!memchr(str, 0, (size_t)(s.size - off)))
        return NULL;
    return str;
}

int cc_elf_get_section(const cc_elf *elf, uint32_t i, cc_elf_section *out)
{
    uint32_t name_off;
    if (i >= elf->shnum)
        return -1;
    name_off = cc_le32(elf->data + elf->shoff + (uint64_t)i * elf->shentsize);
    if (read_shdr(elf, i, out) != 0)
        return -1;
    out->name = cc_elf_string(elf, elf->shstrndx, name_off);
    if (!out->name)
        out->name = "";
    return 0;
}

int cc_elf_section_by_name(const cc_elf *elf, const char *name, cc_elf_section *out)
{
    for (uint32_t i = 1; i < elf->shnum; i++) {
        if (cc_elf_get_section(elf, i, out) == 0 && strcmp(out->name, name) == 0)
            return 0;
    }
    return -1;
}

int cc_elf_symtab(const cc_elf *elf, cc_elf_section *out)
{
    for (uint32_t i = 1; i < elf->shnum; i++) {
        if (cc_elf_get_section(elf, i, out) == 0 && out->type == CC_SHT_SYMTAB && out->data)
            return 0;
    }
    return -1;
}

uint32_t cc_elf_symbol_count(const cc_elf *elf, const cc_elf_section *symtab)
{
    (void)elf;
    if (!symtab->data)
        return 0;
    uint64_t n = symtab->size / SYM_SIZE;
    return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

int cc_elf_get_symbol(const cc_elf *elf, const cc_elf_section *symtab, uint32_t i, cc_elf_symbol *out)
{
    if (i >= cc_elf_symbol_count(elf, symtab))
        return -1;
    const unsigned char *s = symtab->data + (uint64_t)i * SYM_SIZE;
    out->name = cc_elf_string(elf, symtab->link, cc_le32(s));
    if (!out->name)
        out->name = "";
    out->info = s[4];
    out->other = s[5];
    out->shndx = cc_le16(s + 6);
    out->value = cc_le64(s + 8);
    out->size = cc_le64(s + 16);
    return 0;
}
