/* A bounds-checked reader for ELF64 little-endian files held in memory: host executables,
 * shared libraries, relocatable objects and CUDA cubins (e_machine EM_CUDA = 190). Nothing is
 * copied: every returned pointer points into the caller's buffer, which must outlive the reader. */
#ifndef CUCHECK_SYMBOLS_ELF_H
#define CUCHECK_SYMBOLS_ELF_H

#include <stddef.h>
#include <stdint.h>

#define CC_EM_CUDA 190u
#define CC_ELF_ET_REL 1u
#define CC_ELF_ET_EXEC 2u
#define CC_ELF_ET_DYN 3u
#define CC_SHT_NOBITS 8u
#define CC_SHT_SYMTAB 2u
#define CC_SHT_RELA 4u
#define CC_SHT_REL 9u

typedef struct cc_elf_section {
    uint32_t index;
    const char *name;          /* "" if the name is out of range */
    uint32_t type, link, info;
    uint64_t flags, addr, offset, size, entsize, addralign;
    const unsigned char *data; /* NULL for SHT_NOBITS (size still given) */
} cc_elf_section;

typedef struct cc_elf_symbol {
    const char *name;
    uint64_t value, size;
    uint16_t shndx;
    unsigned char info, other;
} cc_elf_symbol;

typedef struct cc_elf {
    const unsigned char *data;
    size_t size;
    uint16_t type, machine;
    uint32_t flags;            /* e_flags */
    unsigned char osabi, abiversion;
    uint16_t shnum, shstrndx;
    uint64_t shoff;
    uint16_t shentsize;
} cc_elf;

/* 1 if data starts with the ELF magic. */
int cc_elf_is_elf(const void *data, size_t size);
/* Validate the header and the section table. 0 ok, -1 with a message in err. */
int cc_elf_open(cc_elf *elf, const void *data, size_t size, char *err, size_t errlen);
/* Section i (0 <= i < shnum); 0 ok, -1 if its header or contents lie outside the file. */
int cc_elf_get_section(const cc_elf *elf, uint32_t i, cc_elf_section *out);
/* First section called name; 0 found, -1 not found or malformed. */
int cc_elf_section_by_name(const cc_elf *elf, const char *name, cc_elf_section *out);
/* Number of symbols in a SHT_SYMTAB section; symbol i of it (0 ok, -1 out of range). */
uint32_t cc_elf_symbol_count(const cc_elf *elf, const cc_elf_section *symtab);
int cc_elf_get_symbol(const cc_elf *elf, const cc_elf_section *symtab, uint32_t i, cc_elf_symbol *out);
/* The first SHT_SYMTAB section; 0 found. */
int cc_elf_symtab(const cc_elf *elf, cc_elf_section *out);
/* NUL-terminated string at off in string-table section strtab, or NULL if out of range. */
const char *cc_elf_string(const cc_elf *elf, uint32_t strtab, uint64_t off);

/* Little-endian loads without alignment assumptions (callers check bounds first). */
static inline uint16_t cc_le16(const unsigned char *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t cc_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t cc_le64(const unsigned char *p)
{
    return (uint64_t)cc_le32(p) | ((uint64_t)cc_le32(p + 4) << 32);
}

#endif
