/* Builds synthetic GPU core dumps (ELF files with .cudbg.* tables, laid out as described in
 * src/symbols/cudacore_dump.h) for the core dump reader's unit test and fuzz seeds. Rows are
 * written field by field at the documented offsets, independent of the reader's code. */
#ifndef CUCHECK_TEST_CUDACORE_SYNTH_H
#define CUCHECK_TEST_CUDACORE_SYNTH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SY_MAX_SECTIONS 32

/* 1: write the section count the way dumps of > 65535 sections do (e_shnum 0, the count in
 * section 0's sh_size). */
static int sy_extended;

typedef struct sy_section {
    const char *name;
    uint32_t type, link, info;
    uint64_t entsize, addr;
    unsigned char *data;
    size_t size;
} sy_section;

typedef struct sy_elf {
    sy_section s[SY_MAX_SECTIONS]; /* s[0] is the null section */
    uint32_t n;
} sy_elf;

static void sy_put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void sy_put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void sy_init(sy_elf *e)
{
    memset(e, 0, sizeof *e);
    e->n = 1;
}

/* Adds a section of rows rows of entsize zeroed bytes; returns its index. */
static uint32_t sy_add(sy_elf *e, const char *name, uint32_t type, uint32_t link, uint32_t info,
                       uint64_t entsize, size_t rows)
{
    sy_section *s = &e->s[e->n];
    s->name = name;
    s->type = type;
    s->link = link;
    s->info = info;
    s->entsize = entsize;
    s->size = (size_t)entsize * rows;
    s->data = calloc(1, s->size ? s->size : 1);
    return e->n++;
}

static unsigned char *sy_row(sy_elf *e, uint32_t sec, size_t row)
{
    return e->s[sec].data + row * e->s[sec].entsize;
}

/* Serializes: header, section contents, .shstrtab, section headers. Caller frees. */
static unsigned char *sy_write(sy_elf *e, uint16_t machine, unsigned char osabi, size_t *size)
{
    size_t strsz = 1 + strlen(".shstrtab") + 1, off = 64;
    for (uint32_t i = 1; i < e->n; i++) strsz += strlen(e->s[i].name) + 1;
    for (uint32_t i = 1; i < e->n; i++) off += e->s[i].size;
    size_t stroff = off, shoff = (stroff + strsz + 7) & ~(size_t)7;
    uint32_t shnum = e->n + 1;
    *size = shoff + 64 * (size_t)shnum;
    unsigned char *b = calloc(1, *size);
    memcpy(b, "\177ELF", 4);
    b[4] = 2; b[5] = 1; b[6] = 1; b[7] = osabi;
    b[16] = 4; /* ET_CORE */
    b[18] = (unsigned char)machine; b[19] = (unsigned char)(machine >> 8);
    sy_put32(b + 20, 1);
    sy_put64(b + 40, shoff);
    b[52] = 64; b[58] = 64;
    if (sy_extended)
        sy_put64(b + shoff + 32, shnum);
    else {
        b[60] = (unsigned char)shnum; b[61] = (unsigned char)(shnum >> 8);
    }
    b[62] = (unsigned char)e->n; b[63] = (unsigned char)(e->n >> 8);
    size_t at = 64, name_at = 1;
    char *strtab = (char *)b + stroff;
    for (uint32_t i = 1; i <= e->n; i++) {
        unsigned char *h = b + shoff + 64 * (size_t)i;
        const char *name = i < e->n ? e->s[i].name : ".shstrtab";
        strcpy(strtab + name_at, name);
        sy_put32(h, (uint32_t)name_at);
        name_at += strlen(name) + 1;
        if (i == e->n) {
            sy_put32(h + 4, 3);
            sy_put64(h + 24, stroff);
            sy_put64(h + 32, strsz);
            break;
        }
        const sy_section *s = &e->s[i];
        memcpy(b + at, s->data, s->size);
        sy_put32(h + 4, s->type);
        sy_put64(h + 16, s->addr);
        sy_put64(h + 24, at);
        sy_put64(h + 32, s->size);
        sy_put32(h + 40, s->link);
        sy_put32(h + 44, s->info);
        sy_put64(h + 56, s->entsize);
        at += s->size;
    }
    return b;
}

static void sy_free(sy_elf *e)
{
    for (uint32_t i = 1; i < e->n; i++) free(e->s[i].data);
}

#define SY_LOUSER 0x80000000u

/* A relocated cubin image with one function symbol `name` at absolute address entry. */
static unsigned char *sy_image(const char *name, uint64_t entry, uint64_t fsize, size_t *size)
{
    sy_elf e;
    sy_init(&e);
    uint32_t text = sy_add(&e, ".text.k", 1, 0, 0, 1, (size_t)fsize);
    e.s[text].addr = entry;
    uint32_t str = sy_add(&e, ".strtab", 3, 0, 0, 1, strlen(name) + 2);
    strcpy((char *)e.s[str].data + 1, name);
    uint32_t sym = sy_add(&e, ".symtab", 2, str, 1, 24, 2);
    unsigned char *r = sy_row(&e, sym, 1);
    sy_put32(r, 1);
    r[4] = 0x12; /* global function */
    r[6] = (unsigned char)text;
    sy_put64(r + 8, entry);
    sy_put64(r + 16, fsize);
    unsigned char *b = sy_write(&e, 190, 0x33, size);
    sy_free(&e);
    return b;
}

/* A dump of one device (devId 0) with 2 SMs; SM 1 runs block (bx,1,0) of grid grid_id with two
 * warps; warp 5 lane 3 (thread tx,0,0) has exception ex at pc; the grid table lists grid_id
 * (kernel at entry, module 0xabc) and another grid; the module's relocated image is included
 * when image != NULL. */
static unsigned char *sy_dump(uint64_t grid_id, uint32_t bx, uint32_t tx, uint32_t ex,
                              uint64_t entry, uint64_t pc, const unsigned char *image,
                              size_t image_size, size_t *size)
{
    sy_elf e;
    sy_init(&e);
    uint32_t dev = sy_add(&e, ".cudbg.devtbl", SY_LOUSER + 9, 0, 0, 80, 1);
    sy_put32(sy_row(&e, dev, 0) + 24, 0);
    uint32_t ctx = sy_add(&e, ".cudbg.ctxtbl", SY_LOUSER + 10, 0, 0, 40, 1);
    sy_put64(sy_row(&e, ctx, 0), 0x5000);
    uint32_t sm = sy_add(&e, ".cudbg.smtbl.dev0", SY_LOUSER + 11, dev, 0, 8, 2);
    sy_put32(sy_row(&e, sm, 0), 0);
    sy_put32(sy_row(&e, sm, 1), 1);
    uint32_t grid = sy_add(&e, ".cudbg.gridtbl.dev0", SY_LOUSER + 12, dev, 0, 104, 2);
    unsigned char *g = sy_row(&e, grid, 0);
    sy_put64(g, grid_id + 100); /* another grid first */
    g = sy_row(&e, grid, 1);
    sy_put64(g, grid_id);
    sy_put64(g + 8, 0x5000);
    sy_put64(g + 16, 0x777);
    sy_put64(g + 24, entry);
    sy_put64(g + 32, 0xabc);
    sy_put32(g + 72, 8); sy_put32(g + 76, 2); sy_put32(g + 80, 1);
    sy_put32(g + 84, 64); sy_put32(g + 88, 1); sy_put32(g + 92, 1);
    sy_put32(g + 100, 4321);
    uint32_t cta = sy_add(&e, ".cudbg.ctatbl.dev0.sm1", SY_LOUSER + 13, sm, 1, 24, 1);
    unsigned char *c = sy_row(&e, cta, 0);
    sy_put64(c, grid_id);
    sy_put32(c + 8, bx); sy_put32(c + 12, 1); sy_put32(c + 16, 0);
    uint32_t wp = sy_add(&e, ".cudbg.wptbl.dev0.sm1.cta0", SY_LOUSER + 14, cta, 0, 32, 2);
    unsigned char *w = sy_row(&e, wp, 0);
    sy_put32(w + 8, 4);
    sy_put32(w + 12, 0xffffffffu);
    w = sy_row(&e, wp, 1);
    sy_put64(w, pc);
    sy_put32(w + 8, 5);
    sy_put32(w + 12, 0xffffffffu);
    sy_put32(w + 20, 1);
    sy_put32(w + 24, 1);
    uint32_t ln0 = sy_add(&e, ".cudbg.lntbl.dev0.sm1.wp4", SY_LOUSER + 15, wp, 0, 48, 2);
    sy_put32(sy_row(&e, ln0, 1) + 16, 1);
    uint32_t ln = sy_add(&e, ".cudbg.lntbl.dev0.sm1.wp5", SY_LOUSER + 15, wp, 1, 48, 4);
    for (uint32_t i = 0; i < 4; i++) {
        unsigned char *l = sy_row(&e, ln, i);
        sy_put64(l, pc - 16);
        sy_put32(l + 16, i);
        sy_put32(l + 20, 160 + i);
        if (i == 3) {
            sy_put32(l + 20, tx);
            sy_put32(l + 32, ex);
        }
    }
    uint32_t mod = sy_add(&e, ".cudbg.modtbl", SY_LOUSER + 16, ctx, 0, 8, 2);
    sy_put64(sy_row(&e, mod, 0), 0x999);
    sy_put64(sy_row(&e, mod, 1), 0xabc);
    if (image) {
        uint32_t img = sy_add(&e, ".cudbg.relfimg.dev0.ctx0.mod1", SY_LOUSER + 7, mod, 1, 1,
                              image_size);
        memcpy(e.s[img].data, image, image_size);
    }
    unsigned char *b = sy_write(&e, 190, 0x33, size);
    sy_free(&e);
    return b;
}

#endif
