/* Device line tables built from a cubin's DWARF line programs, with each sequence attributed to
 * its kernel through the relocation on its DW_LNE_set_address operand, and each row placed at
 * the innermost user frame of its inline chain (see lines.h). */
#include "symbols/lines.h"
#include "symbols/cubin.h"
#include "symbols/dwarf_line.h"
#include "symbols/elf.h"
#include "symbols/toolkit_path.h"
#include "core/grow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STT_FUNC 2u
#define STT_SECTION 3u

typedef struct reloc {
    uint64_t offset;
    uint32_t sym;
    int64_t addend;
} reloc;

struct cc_line_table {
    cc_line_row *rows;
    size_t n, cap;
};

/* One row of the current sequence, as a frame of the inline chains that name it. */
typedef struct frame {
    const char *file, *dir;
    uint32_t line;
    uint32_t depth; /* call sites above it */
    size_t user;    /* 1-based index of the innermost non-toolkit frame of its chain, 0: none */
} frame;

typedef struct builder {
    cc_line_table *t;
    const cc_elf *elf;
    cc_elf_section symtab;
    int have_symtab;
    reloc *relocs;
    size_t nrelocs, cap_relocs;
    const char *only_function; /* the cubin's single function, for unrelocated sequences */
    cc_line_kind kind;
    /* current sequence */
    uint64_t seq;
    const char *kernel;
    int64_t bias;
    int have_prev;
    cc_dwarf_row prev;
    size_t prev_frame; /* 1-based index of prev's frame */
    frame *frames;     /* every row of the current sequence so far, in order */
    size_t nframes, cap_frames;
    const char *tk_dir, *tk_file; /* the last path asked of cc_toolkit_header, and its answer */
    int tk_valid, tk;
    int oom;
} builder;

static int cmp_reloc(const void *a, const void *b)
{
    const reloc *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int read_relocs(builder *b, uint32_t target)
{
    cc_elf_section s;
    for (uint32_t i = 1; i < b->elf->shnum; i++) {
        if (cc_elf_get_section(b->elf, i, &s) != 0 || s.info != target || !s.data ||
            (s.type != CC_SHT_RELA && s.type != CC_SHT_REL))
            continue;
        size_t ent = s.type == CC_SHT_RELA ? 24 : 16;
        size_t n = (size_t)(s.size / ent);
        if (n > SIZE_MAX - b->nrelocs ||
            CC_ARRAY_RESERVE(b->relocs, b->cap_relocs, b->nrelocs + n) != 0)
            return -1;
        for (size_t k = 0; k < n; k++) {
            const unsigned char *e = s.data + k * ent;
            reloc *d = &b->relocs[b->nrelocs++];
            d->offset = cc_le64(e);
            d->sym = (uint32_t)(cc_le64(e + 8) >> 32);
            d->addend = s.type == CC_SHT_RELA ? (int64_t)cc_le64(e + 16) : 0;
        }
    }
    if (b->nrelocs)
        qsort(b->relocs, b->nrelocs, sizeof *b->relocs, cmp_reloc);
    return 0;
}

static const reloc *find_reloc(const builder *b, uint64_t off)
{
    size_t lo = 0, hi = b->nrelocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->relocs[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->nrelocs && b->relocs[lo].offset == off ? &b->relocs[lo] : NULL;
}

/* The function a section symbol stands for: the entry (else any function) in that section. */
static const char *function_in_section(const builder *b, uint16_t shndx)
{
    const char *any = NULL;
    uint32_t n = cc_elf_symbol_count(b->elf, &b->symtab);
    for (uint32_t i = 0; i < n; i++) {
        cc_elf_symbol s;
        if (cc_elf_get_symbol(b->elf, &b->symtab, i, &s) != 0 || (s.info & 0xf) != STT_FUNC ||
            s.shndx != shndx)
            continue;
        if (s.other & 0x10)
            return s.name;
        if (!any)
            any = s.name;
    }
    return any;
}

/* Which kernel the sequence that starts with this row belongs to, and the address bias. */
static void attribute_sequence(builder *b, const cc_dwarf_row *r)
{
    b->kernel = b->only_function;
    b->bias = 0;
    const reloc *rel = r->set_address_at != UINT64_MAX ? find_reloc(b, r->set_address_at) : NULL;
    cc_elf_symbol s;
    if (!rel || !b->have_symtab || cc_elf_get_symbol(b->elf, &b->symtab, rel->sym, &s) != 0)
        return;
    b->bias = rel->addend;
    if ((s.info & 0xf) == STT_FUNC)
        b->kernel = s.name;
    else if ((s.info & 0xf) == STT_SECTION)
        b->kernel = function_in_section(b, s.shndx);
}

static int is_toolkit(builder *b, const char *dir, const char *file)
{
    if (!b->tk_valid || dir != b->tk_dir || file != b->tk_file) {
        b->tk_dir = dir;
        b->tk_file = file;
        b->tk = cc_toolkit_header(dir, file);
        b->tk_valid = 1;
    }
    return b->tk;
}

/* Record row r as the next frame of its sequence. Its call site must be an earlier frame (so
 * chains strictly descend and end); anything else reads as not inlined. The frame keeps its
 * depth and its innermost non-toolkit frame, both taken from its call site's frame. */
static int add_frame(builder *b, const cc_dwarf_row *r)
{
    if (r->row_index == 1)
        b->nframes = 0;
    size_t at = r->inlined_at >= 1 && r->inlined_at <= b->nframes ? (size_t)r->inlined_at : 0;
    frame *f = CC_ARRAY_PUSH(b->frames, b->nframes, b->cap_frames);
    if (!f)
        return -1;
    const frame *call = at ? &b->frames[at - 1] : NULL;
    f->file = r->file;
    f->dir = r->dir;
    f->line = r->line;
    f->depth = call && call->depth < UINT32_MAX ? call->depth + 1 : 0;
    if (!is_toolkit(b, r->dir, r->file))
        f->user = b->nframes;
    else
        f->user = call ? call->user : 0;
    return 0;
}

/* The source a row reports: frame i's innermost user frame, else frame i itself. */
static void set_source(const builder *b, size_t i, cc_line_row *d)
{
    const frame *f = &b->frames[i - 1];
    const frame *u = f->user ? &b->frames[f->user - 1] : f;
    d->file = u->file;
    d->dir = u->dir;
    d->line = u->line;
    d->inline_depth = f->depth;
    d->inlined_file = u != f ? f->file : NULL;
    d->inlined_dir = u != f ? f->dir : NULL;
    d->inlined_line = u != f ? f->line : 0;
}

static int push_row(builder *b, const cc_dwarf_row *from, uint64_t end)
{
    cc_line_table *t = b->t;
    uint64_t start_pc = from->address + (uint64_t)b->bias, end_pc = end + (uint64_t)b->bias;
    if (start_pc >= end_pc)
        return 0; /* a corrupt relocation bias wrapped the range around: it covers no pc */
    cc_line_row *d = CC_ARRAY_PUSH(t->rows, t->n, t->cap);
    if (!d)
        return -1;
    d->kernel = b->kernel;
    d->start = start_pc;
    d->end = end_pc;
    set_source(b, b->prev_frame, d);
    if (!d->file && b->kind == CC_LINES_PTX)
        d->file = "<ptx>";
    return 0;
}

static int on_row(const cc_dwarf_row *r, void *user)
{
    builder *b = user;
    if (!b->have_prev || r->sequence != b->seq) {
        b->seq = r->sequence;
        b->have_prev = 0;
        attribute_sequence(b, r);
    }
    if (b->have_prev && r->address > b->prev.address &&
        push_row(b, &b->prev, r->address) != 0) {
        b->oom = 1;
        return 1;
    }
    if (add_frame(b, r) != 0) {
        b->oom = 1;
        return 1;
    }
    b->have_prev = !r->end_sequence;
    b->prev = *r;
    b->prev_frame = b->nframes;
    return 0;
}

static int cmp_row(const void *a, const void *b)
{
    const cc_line_row *x = a, *y = b;
    if (x->kernel != y->kernel) {
        if (!x->kernel)
            return 1;
        if (!y->kernel)
            return -1;
        int c = strcmp(x->kernel, y->kernel);
        if (c)
            return c;
    }
    return x->start < y->start ? -1 : x->start > y->start;
}

cc_line_table *cc_line_table_open(const void *cubin, size_t size, cc_line_kind kind, char *err,
                                  size_t errlen)
{
    cc_elf elf;
    if (cc_elf_open(&elf, cubin, size, err, errlen) != 0)
        return NULL;
    const char *secname = kind == CC_LINES_PTX ? ".nv_debug_line_sass" : ".debug_line";
    cc_elf_section sec, ls, ds;
    if (cc_elf_section_by_name(&elf, secname, &sec) != 0 || !sec.data) {
        snprintf(err, errlen, "no line information (%s; build with -lineinfo)", secname);
        return NULL;
    }
    int have_ls = cc_elf_section_by_name(&elf, ".debug_line_str", &ls) == 0 && ls.data;
    int have_ds = cc_elf_section_by_name(&elf, ".debug_str", &ds) == 0 && ds.data;
    builder b;
    memset(&b, 0, sizeof b);
    b.elf = &elf;
    b.kind = kind;
    b.t = calloc(1, sizeof *b.t);
    if (!b.t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b.have_symtab = cc_elf_symtab(&elf, &b.symtab) == 0;
    cc_cubin_info ci;
    char sub[8];
    if (b.have_symtab && cc_cubin_inspect(cubin, size, &ci, sub, sizeof sub) == 0 &&
        ci.functions == 1) {
        uint32_t n = cc_elf_symbol_count(&elf, &b.symtab);
        for (uint32_t i = 0; i < n; i++) {
            cc_elf_symbol s;
            if (cc_elf_get_symbol(&elf, &b.symtab, i, &s) == 0 && (s.info & 0xf) == STT_FUNC)
                b.only_function = s.name;
        }
    }
    if (read_relocs(&b, sec.index) != 0) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (cc_dwarf_line_run(sec.data, (size_t)sec.size, have_ls ? ls.data : NULL,
                          have_ls ? (size_t)ls.size : 0, have_ds ? ds.data : NULL,
                          have_ds ? (size_t)ds.size : 0, on_row, &b, err, errlen) != 0)
        goto fail;
    if (b.oom) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (b.t->n)
        qsort(b.t->rows, b.t->n, sizeof *b.t->rows, cmp_row);
    free(b.relocs);
    free(b.frames);
    return b.t;
fail:
    free(b.relocs);
    free(b.frames);
    cc_line_table_free(b.t);
    return NULL;
}

size_t cc_line_table_count(const cc_line_table *t)
{
    return t ? t->n : 0;
}

const cc_line_row *cc_line_table_row(const cc_line_table *t, size_t i)
{
    return t && i < t->n ? &t->rows[i] : NULL;
}

int cc_line_table_lookup(const cc_line_table *t, const char *kernel, uint64_t pc_offset,
                         const cc_line_row **row)
{
    if (!t || !kernel)
        return 0;
    /* First row not below (kernel, pc_offset + 1); the candidate is the one before it. */
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const cc_line_row *r = &t->rows[mid];
        int c = r->kernel ? strcmp(r->kernel, kernel) : 1;
        if (c < 0 || (c == 0 && r->start <= pc_offset))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    const cc_line_row *r = &t->rows[lo - 1];
    if (!r->kernel || strcmp(r->kernel, kernel) != 0 || pc_offset >= r->end)
        return 0;
    if (row)
        *row = r;
    return 1;
}

void cc_line_table_free(cc_line_table *t)
{
    if (!t)
        return;
    free(t->rows);
    free(t);
}

int cc_sym_line_lookup(const void *cubin, size_t size, const char *kernel, uint64_t pc_offset,
                       const char **file, uint32_t *line)
{
    char err[160];
    cc_line_table *t = cc_line_table_open(cubin, size, CC_LINES_SOURCE, err, sizeof err);
    if (!t)
        return -1;
    const cc_line_row *r;
    int found = cc_line_table_lookup(t, kernel, pc_offset, &r);
    if (found) {
        if (file)
            *file = r->file;
        if (line)
            *line = r->line;
    }
    cc_line_table_free(t);
    return found;
}
