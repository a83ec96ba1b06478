/* From a core dump fault to kernel name, pc offset and source line: the grid's relocated ELF
 * image (a cubin loaded at its device addresses) names the function whose code holds the entry
 * or the pc, and its line table (-lineinfo / -G) gives the line (see cudacore_dump.h). */
#include "symbols/cudacore_dump.h"

#include <stdio.h>
#include <string.h>

#include "symbols/elf.h"
#include "symbols/lines.h"

#define STT_FUNC_ 2u

/* Device address where symbol s starts: relocated images hold absolute values; otherwise the
 * value is relative to its section's load address. */
static uint64_t symbol_start(const cc_elf *e, const cc_elf_symbol *s, uint64_t entry)
{
    cc_elf_section sec;
    if (s->value == entry || s->shndx == 0 || s->shndx >= e->shnum ||
        cc_elf_get_section(e, s->shndx, &sec) != 0 || sec.addr == 0 || s->value >= sec.addr)
        return s->value;
    return sec.addr + s->value;
}

/* The function symbol starting at entry, else the one whose code covers pc. */
static const char *find_function(const cc_elf *e, uint64_t entry, uint64_t pc, uint64_t *start)
{
    cc_elf_section symtab;
    const char *cover = NULL;
    uint64_t cover_start = 0;
    if (cc_elf_symtab(e, &symtab) != 0)
        return NULL;
    uint32_t n = cc_elf_symbol_count(e, &symtab);
    for (uint32_t i = 0; i < n; i++) {
        cc_elf_symbol s;
        if (cc_elf_get_symbol(e, &symtab, i, &s) != 0 || (s.info & 0xfu) != STT_FUNC_ || !s.name ||
            !*s.name)
            continue;
        uint64_t at = symbol_start(e, &s, entry);
        if (entry && at == entry) {
            *start = at;
            return s.name;
        }
        if (!cover && pc >= at && s.size && pc - at < s.size) {
            cover = s.name;
            cover_start = at;
        }
    }
    *start = cover_start;
    return cover;
}

int cc_cudacore_locate(const cc_cudacore_fault *f, char *kernel, size_t kernel_len,
                       uint64_t *pc_offset, const char **file, uint32_t *line)
{
    cc_elf e;
    char err[160];
    uint64_t start = 0;
    if (kernel_len)
        kernel[0] = '\0';
    *pc_offset = f->pc_valid && f->function_entry && f->pc >= f->function_entry
                     ? f->pc - f->function_entry
                     : 0;
    *file = "";
    *line = 0;
    if (!f->image || cc_elf_open(&e, f->image, f->image_size, err, sizeof err) != 0)
        return 0;
    const char *name = find_function(&e, f->function_entry, f->pc, &start);
    if (!name)
        return 0;
    snprintf(kernel, kernel_len, "%s", name);
    if (!f->pc_valid || f->pc < start)
        return 0;
    *pc_offset = f->pc - start;
    cc_line_table *t = cc_line_table_open(f->image, f->image_size, CC_LINES_SOURCE, err,
                                          sizeof err);
    if (!t)
        return 0;
    const cc_line_row *row = NULL;
    int found = cc_line_table_lookup(t, name, *pc_offset, &row);
    /* A relocated image may keep absolute addresses in its line program with no relocation left
     * to name the kernel: rows then cover [start, end) of device addresses. */
    for (size_t i = 0; !found && i < cc_line_table_count(t); i++) {
        const cc_line_row *r = cc_line_table_row(t, i);
        if (!r->kernel && f->pc >= r->start && f->pc < r->end) {
            row = r;
            found = 1;
        }
    }
    if (found && row) {
        *file = row->file ? row->file : "";
        *line = row->line;
    }
    cc_line_table_free(t);
    return found && row && row->line ? 1 : 0;
}
