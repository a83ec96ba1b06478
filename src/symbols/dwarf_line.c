/* DWARF line-number program reader (versions 2-5): unit headers, directory and file tables
 * (including DWARF 5 entry formats), and the line state machine with nvcc's inlined-call opcode
 * (DW_LNE 0x90). Every read goes through a cursor that refuses to pass its end. */
#include "symbols/dwarf_line.h"
#include "symbols/elf.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TABLE 65536u /* most directories or files accepted per unit */
#define DW_LNE_NV_INLINED_AT 0x90u /* nvcc: ULEB inlined_at row index, ULEB .debug_str offset */

typedef struct cursor {
    const unsigned char *p;
    size_t pos, end; /* pos and end are offsets into p */
    int bad;
} cursor;

static int need(cursor *c, size_t n)
{
    if (c->bad || n > c->end - c->pos) {
        c->bad = 1;
        return 0;
    }
    return 1;
}
static uint64_t rd_u(cursor *c, size_t n)
{
    if (!need(c, n))
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)c->p[c->pos + i] << (8 * i);
    c->pos += n;
    return v;
}
static uint64_t rd_uleb(cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    for (;;) {
        if (!need(c, 1))
            return 0;
        unsigned char b = c->p[c->pos++];
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            return v;
    }
}
static int64_t rd_sleb(cursor *c)
{
    int64_t v = 0;
    unsigned shift = 0;
    unsigned char b;
    do {
        if (!need(c, 1))
            return 0;
        b = c->p[c->pos++];
        if (shift < 64)
            v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        v |= (int64_t)(~0ull << shift);
    return v;
}
static const char *rd_str(cursor *c)
{
    if (c->bad || c->pos >= c->end) {
        c->bad = 1;
        return NULL;
    }
    const char *s = (const char *)c->p + c->pos;
    const char *z = memchr(s, 0, c->end - c->pos);
    if (!z) {
        c->bad = 1;
        return NULL;
    }
    c->pos += (size_t)(z - s) + 1;
    return s;
}
/* A string at off of a string section, or NULL. */
static const char *str_at(const unsigned char *sec, size_t size, uint64_t off)
{
    if (!sec || off >= size)
        return NULL;
    const char *s = (const char *)sec + off;
    return memchr(s, 0, size - off) ? s : NULL;
}

typedef struct file_ent {
    const char *name;
    uint64_t dir;
} file_ent;

typedef struct unit {
    uint16_t version;
    unsigned offset_size, addr_size;
    unsigned min_inst, line_range, opcode_base;
    int line_base, default_is_stmt;
    const unsigned char *std_lengths;
    const char **dirs;
    size_t ndirs, cap_dirs;
    file_ent *files;
    size_t nfiles, cap_files;
} unit;

typedef struct strsecs {
    const unsigned char *line_str, *str;
    size_t line_str_size, str_size;
} strsecs;

static int push_dir(unit *u, const char *d)
{
    if (u->ndirs >= MAX_TABLE)
        return -1;
    const char **slot = CC_ARRAY_PUSH(u->dirs, u->ndirs, u->cap_dirs);
    if (!slot)
        return -1;
    *slot = d;
    return 0;
}
static int push_file(unit *u, const char *name, uint64_t dir)
{
    if (u->nfiles >= MAX_TABLE)
        return -1;
    file_ent *f = CC_ARRAY_PUSH(u->files, u->nfiles, u->cap_files);
    if (!f)
        return -1;
    f->name = name;
    f->dir = dir;
    return 0;
}

/* Read one attribute value of a DWARF 5 entry format: a string (*s) or a number (*v). */
static int read_form(cursor *c, uint64_t form, const unit *u, const strsecs *ss, const char **s,
                     uint64_t *v)
{
    *s = NULL;
    *v = 0;
    switch (form) {
    case 0x08: *s = rd_str(c); break;                                      /* string */
    case 0x1f: *s = str_at(ss->line_str, ss->line_str_size, rd_u(c, u->offset_size)); break;
    case 0x0e: *s = str_at(ss->str, ss->str_size, rd_u(c, u->offset_size)); break; /* strp */
    case 0x0b: *v = rd_u(c, 1); break;                                     /* data1 */
    case 0x05: *v = rd_u(c, 2); break;                                     /* data2 */
    case 0x06: *v = rd_u(c, 4); break;                                     /* data4 */
    case 0x07: *v = rd_u(c, 8); break;                                     /* data8 */
    case 0x0f: *v = rd_uleb(c); break;                                     /* udata */
    case 0x1e: if (need(c, 16)) c->pos += 16; break;                       /* data16 */
    case 0x09: {                                                           /* block */
        uint64_t n = rd_uleb(c);
        if (n > c->end - c->pos) { c->bad = 1; return -1; }
        c->pos += (size_t)n;
        break;
    }
    default: return -1;
    }
    return c->bad ? -1 : 0;
}

/* DWARF 5 directory or file table. */
static int read_v5_table(cursor *c, unit *u, const strsecs *ss, int files)
{
    unsigned nfmt = (unsigned)rd_u(c, 1);
    uint64_t fmt[2 * 16];
    if (nfmt > 16)
        return -1;
    for (unsigned i = 0; i < nfmt; i++) {
        fmt[2 * i] = rd_uleb(c);
        fmt[2 * i + 1] = rd_uleb(c);
    }
    uint64_t count = rd_uleb(c);
    if (c->bad || count > MAX_TABLE)
        return -1;
    for (uint64_t k = 0; k < count; k++) {
        const char *path = NULL;
        uint64_t dir = 0;
        for (unsigned i = 0; i < nfmt; i++) {
            const char *s;
            uint64_t v;
            if (read_form(c, fmt[2 * i + 1], u, ss, &s, &v) != 0)
                return -1;
            if (fmt[2 * i] == 1) /* DW_LNCT_path */
                path = s;
            else if (fmt[2 * i] == 2) /* DW_LNCT_directory_index */
                dir = v;
        }
        if ((files ? push_file(u, path, dir) : push_dir(u, path)) != 0)
            return -1;
    }
    return 0;
}

static int read_header(cursor *c, unit *u, const strsecs *ss, size_t *prog_start, char *err,
                       size_t errlen)
{
    size_t hstart = c->pos;
    u->version = (uint16_t)rd_u(c, 2);
    if (!c->bad && (u->version < 2 || u->version > 5)) {
        snprintf(err, errlen, "offset %zu: unsupported DWARF line version %u", hstart,
                 u->version);
        return -1;
    }
    if (u->version >= 5) {
        u->addr_size = (unsigned)rd_u(c, 1);
        rd_u(c, 1); /* segment selector size */
    }
    uint64_t hlen = rd_u(c, u->offset_size);
    if (c->bad || hlen > c->end - c->pos) {
        snprintf(err, errlen, "offset %zu: header length runs past the unit", hstart);
        return -1;
    }
    *prog_start = c->pos + (size_t)hlen;
    cursor h = *c;
    h.end = *prog_start;
    u->min_inst = (unsigned)rd_u(&h, 1);
    if (u->version >= 4)
        rd_u(&h, 1); /* maximum operations per instruction (VLIW only) */
    u->default_is_stmt = (int)rd_u(&h, 1);
    u->line_base = (int)(signed char)rd_u(&h, 1);
    u->line_range = (unsigned)rd_u(&h, 1);
    u->opcode_base = (unsigned)rd_u(&h, 1);
    if (h.bad || u->line_range == 0 || u->opcode_base == 0 ||
        !need(&h, u->opcode_base - 1)) {
        snprintf(err, errlen, "offset %zu: malformed line program header", hstart);
        return -1;
    }
    u->std_lengths = h.p + h.pos;
    h.pos += u->opcode_base - 1;
    int bad = 0;
    if (u->version >= 5) {
        bad = read_v5_table(&h, u, ss, 0) != 0 || read_v5_table(&h, u, ss, 1) != 0;
    } else {
        const char *s;
        while (!bad && (s = rd_str(&h)) && *s)
            bad = push_dir(u, s) != 0;
        while (!bad && (s = rd_str(&h)) && *s) {
            uint64_t dir = rd_uleb(&h);
            rd_uleb(&h);
            rd_uleb(&h);
            bad = push_file(u, s, dir) != 0;
        }
        bad = bad || h.bad;
    }
    if (bad) {
        snprintf(err, errlen, "offset %zu: malformed directory/file table", hstart);
        return -1;
    }
    return 0;
}

/* File index -> entry (DWARF 5 counts from 0, earlier versions from 1). */
static void resolve_file(const unit *u, uint64_t idx, cc_dwarf_row *r)
{
    r->file = NULL;
    r->dir = NULL;
    uint64_t i = u->version >= 5 ? idx : idx - 1;
    if (u->version < 5 && idx == 0)
        return;
    if (i >= u->nfiles)
        return;
    r->file = u->files[i].name;
    uint64_t d = u->version >= 5 ? u->files[i].dir : u->files[i].dir - 1;
    if (u->version < 5 && u->files[i].dir == 0)
        return; /* the compilation directory */
    if (d < u->ndirs)
        r->dir = u->dirs[d];
}

typedef struct lstate {
    uint64_t address, file;
    uint64_t line; /* wraps on hostile input; clamped when emitted */
    uint64_t column;
    uint64_t rows;        /* rows emitted so far in this sequence */
    uint64_t inlined_at;  /* from the last DW_LNE 0x90, 0 = not inlined */
    uint64_t inlined_name; /* its .debug_str offset */
} lstate;

static void reset(lstate *s)
{
    s->address = 0;
    s->file = 1;
    s->line = 1;
    s->column = 0;
    s->rows = 0;
    s->inlined_at = 0;
    s->inlined_name = 0;
}

/* DW_LNE 0x90: both operands must lie within the opcode's [c->pos, next); an opcode too short
 * for them ends the inlining instead (the rows after it read as not inlined). */
static void read_inlined_at(const cursor *c, size_t next, lstate *st)
{
    cursor op = *c;
    op.end = next;
    uint64_t at = rd_uleb(&op), name = rd_uleb(&op);
    st->inlined_at = op.bad ? 0 : at;
    st->inlined_name = op.bad ? 0 : name;
}

/* Fill the emitted row from the state; the row counter advances here. */
static void make_row(lstate *st, const unit *u, const strsecs *ss, cc_dwarf_row *r)
{
    r->address = st->address;
    r->line = st->line > UINT32_MAX ? 0 : (uint32_t)st->line;
    r->column = (uint32_t)st->column;
    r->file_index = (uint32_t)st->file;
    resolve_file(u, st->file, r);
    r->row_index = ++st->rows;
    r->inlined_at = st->inlined_at < r->row_index ? st->inlined_at : 0;
    r->inlined_func =
        r->inlined_at ? str_at(ss->str, ss->str_size, st->inlined_name) : NULL;
}

/* Run one unit's program over [c->pos, c->end). 1 = stopped by the callback. */
static int run_program(cursor *c, unit *u, const strsecs *ss, uint64_t *seq, cc_dwarf_row_cb cb,
                       void *user, char *err, size_t errlen)
{
    lstate st;
    uint64_t set_at = UINT64_MAX;
    reset(&st);
    if (u->version >= 5)
        st.file = 1;
    while (c->pos < c->end && !c->bad) {
        size_t op_at = c->pos;
        unsigned op = (unsigned)rd_u(c, 1);
        int emit = 0, end_seq = 0;
        if (op >= u->opcode_base) {
            unsigned adj = op - u->opcode_base;
            st.address += (uint64_t)(adj / u->line_range) * u->min_inst;
            st.line += (uint64_t)(int64_t)(u->line_base + (int)(adj % u->line_range));
            emit = 1;
        } else if (op == 0) {
            uint64_t len = rd_uleb(c);
            if (c->bad || len == 0 || len > c->end - c->pos) {
                snprintf(err, errlen, "offset %zu: bad extended opcode length", op_at);
                return -1;
            }
            size_t next = c->pos + (size_t)len;
            unsigned sub = (unsigned)rd_u(c, 1);
            if (sub == 1) {
                emit = end_seq = 1;
            } else if (sub == 2) {
                size_t n = (size_t)len - 1;
                set_at = c->pos;
                st.address = n <= 8 ? rd_u(c, n) : 0;
            } else if (sub == DW_LNE_NV_INLINED_AT) {
                read_inlined_at(c, next, &st);
            }
            /* 3 define_file, 4 set_discriminator and other vendor opcodes are skipped. */
            c->pos = next;
        } else {
            switch (op) {
            case 1: emit = 1; break;
            case 2: st.address += rd_uleb(c) * u->min_inst; break;
            case 3: st.line += (uint64_t)rd_sleb(c); break;
            case 4: st.file = rd_uleb(c); break;
            case 5: st.column = rd_uleb(c); break;
            case 6: case 7: case 10: case 11: break;
            case 8: st.address += (uint64_t)((255 - u->opcode_base) / u->line_range) * u->min_inst;
                break;
            case 9: st.address += rd_u(c, 2); break;
            default:
                for (unsigned i = 0; i < u->std_lengths[op - 1]; i++)
                    rd_uleb(c);
                break;
            }
        }
        if (c->bad)
            break;
        if (emit) {
            cc_dwarf_row r;
            make_row(&st, u, ss, &r);
            r.end_sequence = end_seq;
            r.sequence = *seq;
            r.set_address_at = set_at;
            if (cb && cb(&r, user))
                return 1;
            if (end_seq) {
                reset(&st);
                set_at = UINT64_MAX;
                (*seq)++;
            }
        }
    }
    if (c->bad) {
        snprintf(err, errlen, "offset %zu: line program runs past its unit", c->pos);
        return -1;
    }
    return 0;
}

int cc_dwarf_line_run(const unsigned char *sec, size_t size, const unsigned char *line_str,
                      size_t line_str_size, const unsigned char *str, size_t str_size,
                      cc_dwarf_row_cb cb, void *user, char *err, size_t errlen)
{
    strsecs ss = {line_str, str, line_str_size, str_size};
    cursor c = {sec, 0, sec ? size : 0, 0};
    uint64_t seq = 0;
    while (c.pos < c.end) {
        size_t ustart = c.pos;
        unit u;
        memset(&u, 0, sizeof u);
        u.offset_size = 4;
        uint64_t len = rd_u(&c, 4);
        if (len == 0xffffffffull) {
            u.offset_size = 8;
            len = rd_u(&c, 8);
        }
        if (c.bad || len > c.end - c.pos) {
            snprintf(err, errlen, "offset %zu: unit length %llu runs past the section (%zu bytes)",
                     ustart, (unsigned long long)len, size);
            return -1;
        }
        cursor uc = c;
        uc.end = c.pos + (size_t)len;
        c.pos = uc.end;
        size_t prog;
        int rc = read_header(&uc, &u, &ss, &prog, err, errlen);
        if (rc == 0) {
            uc.pos = prog;
            rc = run_program(&uc, &u, &ss, &seq, cb, user, err, errlen);
        }
        free(u.dirs);
        free(u.files);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
    }
    return 0;
}
