/* Unit tests of the binary-format readers on hand-built inputs: .nv.info records, fatbin
 * containers (layout as nvcc 13 writes it), DWARF 2 and 5 line programs (with nvcc's inlined-call
 * opcode, alone and through a device line table), the toolkit-header path test, PTX text, ELF
 * header checks, demangling and the file-kind guess. No toolkit needed. */
#include "check.h"
#include "symbols/binary.h"
#include "symbols/demangle.h"
#include "symbols/dwarf_line.h"
#include "symbols/elf.h"
#include "symbols/fatbin.h"
#include "symbols/lines.h"
#include "symbols/nvinfo.h"
#include "symbols/ptx.h"
#include "symbols/toolkit_path.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(unsigned char *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static void test_nvinfo(void)
{
    unsigned char buf[64];
    size_t n = 0;
    /* HVAL MAXREG_COUNT 64, BVAL NUM_BARRIERS 1, NVAL EXPLICIT_CLUSTER, SVAL MAX_THREADS 3 u32 */
    buf[n++] = 3; buf[n++] = 0x1b; put16(buf + n, 64); n += 2;
    buf[n++] = 2; buf[n++] = 0x4c; buf[n++] = 1; buf[n++] = 0;
    buf[n++] = 1; buf[n++] = 0x3e; buf[n++] = 0; buf[n++] = 0;
    buf[n++] = 4; buf[n++] = 0x05; put16(buf + n, 12); n += 2;
    put32(buf + n, 256); put32(buf + n + 4, 1); put32(buf + n + 8, 1); n += 12;
    cc_nvinfo_iter it;
    cc_nvinfo_record r;
    char err[128];
    cc_nvinfo_begin(&it, buf, n);
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == 1);
    CHECK_EQ_U64(r.attr, CC_EIATTR_MAXREG_COUNT);
    CHECK_EQ_U64(r.value, 64);
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == 1);
    CHECK_EQ_U64(r.attr, CC_EIATTR_NUM_BARRIERS);
    CHECK_EQ_U64(r.value, 1);
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == 1);
    CHECK_EQ_U64(r.format, CC_EIFMT_NVAL);
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == 1);
    CHECK_EQ_U64(cc_nvinfo_u32(&r, 0), 256);
    CHECK_EQ_U64(cc_nvinfo_u32(&r, 2), 1);
    CHECK_EQ_U64(cc_nvinfo_u32(&r, 3), 0); /* out of range reads as 0 */
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == 0);
    CHECK_STR(cc_nvinfo_attr_name(0x2f), "EIATTR_REGCOUNT");
    /* A record claiming more bytes than remain is an error, not a read past the end. */
    cc_nvinfo_begin(&it, buf + 12, 10);
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == -1);
    CHECK(strstr(err, "claims") != NULL);
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == -1);
    unsigned char badfmt[4] = {9, 1, 0, 0};
    cc_nvinfo_begin(&it, badfmt, 4);
    CHECK(cc_nvinfo_next(&it, &r, err, sizeof err) == -1);
}

typedef struct seen {
    int n;
    cc_fatbin_entry e[4];
} seen;

static int collect(const cc_fatbin_entry *e, void *user)
{
    seen *s = user;
    if (s->n < 4)
        s->e[s->n] = *e;
    s->n++;
    return 0;
}

/* One container, two entries: sm_90a SASS (uncompressed) and compute_100f PTX with options. */
static size_t build_fatbin(unsigned char *b)
{
    memset(b, 0, 512);
    size_t e1 = 16, p1 = 8, e2 = e1 + 64 + p1, p2 = 16;
    put32(b, CC_FATBIN_MAGIC);
    put16(b + 4, 1);
    put16(b + 6, 16);
    put64(b + 8, 64 + p1 + 80 + p2);
    unsigned char *h = b + e1;
    put16(h, 2); put16(h + 2, 0x101); put32(h + 4, 64); put64(h + 8, p1);
    put16(h + 24, 8); put16(h + 26, 1); put32(h + 28, 90);
    put64(h + 40, 0x11 | CC_FATBIN_FLAG_ARCH_SPECIFIC);
    memcpy(h + 64, "\177ELFxxx", 8);
    h = b + e2;
    put16(h, 1); put16(h + 2, 0x101); put32(h + 4, 80); put64(h + 8, p2);
    put32(h + 20, 64); /* options descriptor at header offset 64 */
    put16(h + 24, 0); put16(h + 26, 9); put32(h + 28, 100);
    put64(h + 40, 0x11 | CC_FATBIN_FLAG_FAMILY);
    put32(h + 64, 72); put32(h + 68, 4); memcpy(h + 72, "-v  ", 4);
    memcpy(h + 80, ".version 9.0\n", 13);
    return e2 + 80 + p2;
}

static void test_fatbin(void)
{
    unsigned char b[512];
    char err[160], arch[32];
    size_t n = build_fatbin(b);
    seen s = {0};
    CHECK(cc_fatbin_is_fatbin(b, n));
    CHECK(cc_fatbin_iter(b, n, collect, &s, err, sizeof err) == 1);
    CHECK(s.n == 2);
    CHECK_EQ_U64(s.e[0].kind, CC_FATBIN_KIND_ELF);
    cc_fatbin_arch_name(&s.e[0], arch, sizeof arch);
    CHECK_STR(arch, "sm_90a");
    CHECK_EQ_U64(s.e[0].compression, CC_COMPRESS_NONE);
    CHECK_EQ_U64(s.e[0].stored_size, 8);
    cc_fatbin_arch_name(&s.e[1], arch, sizeof arch);
    CHECK_STR(arch, "compute_100f");
    CHECK_EQ_U64(s.e[1].version_major, 9);
    CHECK(s.e[1].options && s.e[1].options_len == 2 && memcmp(s.e[1].options, "-v", 2) == 0);
    unsigned char *out;
    size_t outlen;
    CHECK(cc_fatbin_payload(&s.e[1], &out, &outlen, err, sizeof err) == 0);
    CHECK(outlen == 16 && memcmp(out, ".version 9.0", 12) == 0);
    free(out);

    /* Two containers with zero padding between them. */
    unsigned char two[1100];
    memset(two, 0, sizeof two);
    memcpy(two, b, n);
    memcpy(two + n + 8, b, n);
    s.n = 0;
    CHECK(cc_fatbin_iter(two, 2 * n + 8, collect, &s, err, sizeof err) == 2);
    CHECK(s.n == 4);

    /* Every truncation fails cleanly (never reads past the end). */
    for (size_t cut = 1; cut < n; cut++) {
        unsigned char *t = malloc(cut);
        memcpy(t, b, cut);
        s.n = 0;
        int rc = cc_fatbin_iter(t, cut, collect, &s, err, sizeof err);
        CHECK(rc == -1 || cut == 0);
        free(t);
    }
    /* A compressed flag with a compressed size larger than the payload is rejected. */
    put64(b + 16 + 40, 0x11 | CC_FATBIN_FLAG_ZSTD);
    put32(b + 16 + 16, 1000);
    s.n = 0;
    CHECK(cc_fatbin_iter(b, n, collect, &s, err, sizeof err) == -1);
    CHECK(strstr(err, "compressed size") != NULL);
    /* Corrupt zstd data: a clean error (or "built without"), never a crash. */
    put32(b + 16 + 16, 8);
    put64(b + 16 + 56, 100);
    s.n = 0;
    CHECK(cc_fatbin_iter(b, n, collect, &s, err, sizeof err) == 1);
    CHECK(cc_fatbin_payload(&s.e[0], &out, &outlen, err, sizeof err) == -1);
    CHECK(out == NULL);
}

typedef struct rows {
    int n;
    cc_dwarf_row r[16];
} rows;

static int collect_row(const cc_dwarf_row *r, void *user)
{
    rows *s = user;
    if (s->n < 16)
        s->r[s->n] = *r;
    s->n++;
    return 0;
}

/* Standard opcode lengths for opcode_base 13. */
static const unsigned char std_len[12] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};

/* Program: set_address 0x100; advance_line 9 (line 10); copy; special (+16 addr, +1 line);
 * advance_pc 32; end_sequence. */
static size_t program(unsigned char *p, uint64_t *set_at_rel)
{
    size_t n = 0;
    p[n++] = 0; p[n++] = 9; p[n++] = 2;
    *set_at_rel = n;
    put64(p + n, 0x100); n += 8;
    p[n++] = 3; p[n++] = 9;
    p[n++] = 1;
    /* special: line_base -5, line_range 14, opcode_base 13: adj = (1 - -5) + 14 * 16 = 230 */
    p[n++] = (unsigned char)(13 + 6 + 14 * 16 > 255 ? 0 : 13 + 6 + 14 * 16);
    p[n++] = 2; p[n++] = 32;
    p[n++] = 0; p[n++] = 1; p[n++] = 1;
    return n;
}

static void test_dwarf_v2(void)
{
    unsigned char s[256];
    size_t n = 0;
    memset(s, 0, sizeof s);
    n = 4; /* unit_length later */
    put16(s + n, 2); n += 2;
    size_t hl_at = n; n += 4;
    size_t hstart = n;
    s[n++] = 1; s[n++] = 1; s[n++] = (unsigned char)-5; s[n++] = 14; s[n++] = 13;
    memcpy(s + n, std_len, 12); n += 12;
    memcpy(s + n, "/src", 5); n += 5; s[n++] = 0;            /* dirs */
    memcpy(s + n, "k.cu", 5); n += 5; s[n++] = 1; s[n++] = 0; s[n++] = 0; /* file 1 */
    s[n++] = 0;
    put32(s + hl_at, (uint32_t)(n - hstart));
    uint64_t rel;
    size_t prog = n;
    n += program(s + n, &rel);
    put32(s, (uint32_t)(n - 4));
    rows r = {0};
    char err[160];
    CHECK(cc_dwarf_line_run(s, n, NULL, 0, NULL, 0, collect_row, &r, err, sizeof err) == 0);
    CHECK(r.n == 3);
    CHECK_EQ_U64(r.r[0].address, 0x100);
    CHECK_EQ_U64(r.r[0].line, 10);
    CHECK_STR(r.r[0].file, "k.cu");
    CHECK_STR(r.r[0].dir, "/src");
    CHECK_EQ_U64(r.r[0].set_address_at, prog + rel);
    CHECK_EQ_U64(r.r[1].address, 0x110);
    CHECK_EQ_U64(r.r[1].line, 11);
    CHECK(r.r[2].end_sequence);
    CHECK_EQ_U64(r.r[2].address, 0x130);
    /* Truncated at every length: an error or fewer rows, never a crash. */
    for (size_t cut = 0; cut < n; cut++) {
        rows t = {0};
        unsigned char *c = malloc(cut ? cut : 1);
        memcpy(c, s, cut);
        int rc = cc_dwarf_line_run(c, cut, NULL, 0, NULL, 0, collect_row, &t, err, sizeof err);
        CHECK(rc == -1 || cut == 0);
        free(c);
    }
}

static void test_dwarf_v5(void)
{
    unsigned char s[256], lstr[32];
    size_t n = 4;
    memset(s, 0, sizeof s);
    memcpy(lstr, "\0/work\0main.cu\0", 15);
    put16(s + n, 5); n += 2;
    s[n++] = 8; s[n++] = 0; /* address size, segment selector size */
    size_t hl_at = n; n += 4;
    size_t hstart = n;
    s[n++] = 1; s[n++] = 1; s[n++] = 1; s[n++] = (unsigned char)-5; s[n++] = 14; s[n++] = 13;
    memcpy(s + n, std_len, 12); n += 12;
    s[n++] = 1; s[n++] = 1; s[n++] = 0x1f;         /* dir format: path, line_strp */
    s[n++] = 1; put32(s + n, 1); n += 4;           /* one dir: "/work" */
    s[n++] = 2; s[n++] = 1; s[n++] = 0x1f; s[n++] = 2; s[n++] = 0x0b; /* path strp, dir data1 */
    s[n++] = 1; put32(s + n, 7); n += 4; s[n++] = 0; /* file 0: main.cu in dir 0 */
    put32(s + hl_at, (uint32_t)(n - hstart));
    uint64_t rel;
    n += program(s + n, &rel);
    put32(s, (uint32_t)(n - 4));
    rows r = {0};
    char err[160];
    /* The v5 state machine starts at file 1, which this table lacks; set file 0 first. */
    CHECK(cc_dwarf_line_run(s, n, lstr, 15, NULL, 0, collect_row, &r, err, sizeof err) == 0);
    CHECK(r.n == 3);
    CHECK_EQ_U64(r.r[0].line, 10);
    CHECK(r.r[0].file == NULL); /* file 1 is outside a one-entry v5 table */
    /* Without .debug_line_str the strings are unknown but nothing breaks. */
    r.n = 0;
    CHECK(cc_dwarf_line_run(s, n, NULL, 0, NULL, 0, collect_row, &r, err, sizeof err) == 0);
    /* Unsupported version is reported. */
    put16(s + 4, 7);
    CHECK(cc_dwarf_line_run(s, n, lstr, 15, NULL, 0, collect_row, &r, err, sizeof err) == -1);
    CHECK(strstr(err, "version") != NULL);
}

/* A line program under construction (opcode_base 13, line_base -5, line_range 14). */
typedef struct lprog {
    unsigned char b[1024];
    size_t n;
} lprog;

static void lp_byte(lprog *p, unsigned v) { p->b[p->n++] = (unsigned char)v; }
static void lp_uleb(lprog *p, uint64_t v)
{
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        lp_byte(p, c | (v ? 0x80 : 0));
    } while (v);
}
static void lp_sleb(lprog *p, int64_t v)
{
    for (;;) {
        unsigned char c = (unsigned char)(v & 0x7f);
        v >>= 7;
        if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
            lp_byte(p, c);
            return;
        }
        lp_byte(p, c | 0x80);
    }
}
static void lp_set_address(lprog *p, uint64_t a)
{
    lp_byte(p, 0); lp_byte(p, 9); lp_byte(p, 2);
    put64(p->b + p->n, a); p->n += 8;
}
static void lp_line(lprog *p, int64_t d) { lp_byte(p, 3); lp_sleb(p, d); }
static void lp_pc(lprog *p, uint64_t d) { lp_byte(p, 2); lp_uleb(p, d); }
static void lp_file(lprog *p, uint64_t f) { lp_byte(p, 4); lp_uleb(p, f); }
static void lp_copy(lprog *p) { lp_byte(p, 1); }
static void lp_end(lprog *p) { lp_byte(p, 0); lp_byte(p, 1); lp_byte(p, 1); }
/* nvcc's DW_LNE 0x90 [inlined_at, name offset]. */
static void lp_inlined(lprog *p, uint64_t at, uint64_t name)
{
    lprog ops = {.n = 0};
    lp_uleb(&ops, at);
    lp_uleb(&ops, name);
    lp_byte(p, 0); lp_byte(p, 1 + ops.n); lp_byte(p, 0x90);
    memcpy(p->b + p->n, ops.b, ops.n); p->n += ops.n;
}

/* A DWARF 2 unit around prog: dirs (NULL-terminated), files "name" with a dir index each. */
static size_t v2_unit(unsigned char *s, const char *const *dirs, const char *const *files,
                      const unsigned *file_dirs, const lprog *prog)
{
    size_t n = 4;
    put16(s + n, 2); n += 2;
    size_t hl_at = n; n += 4;
    size_t hstart = n;
    s[n++] = 1; s[n++] = 1; s[n++] = (unsigned char)-5; s[n++] = 14; s[n++] = 13;
    memcpy(s + n, std_len, 12); n += 12;
    for (size_t i = 0; dirs[i]; i++) {
        memcpy(s + n, dirs[i], strlen(dirs[i]) + 1); n += strlen(dirs[i]) + 1;
    }
    s[n++] = 0;
    for (size_t i = 0; files[i]; i++) {
        memcpy(s + n, files[i], strlen(files[i]) + 1); n += strlen(files[i]) + 1;
        s[n++] = (unsigned char)file_dirs[i]; s[n++] = 0; s[n++] = 0;
    }
    s[n++] = 0;
    put32(s + hl_at, (uint32_t)(n - hstart));
    memcpy(s + n, prog->b, prog->n); n += prog->n;
    put32(s, (uint32_t)(n - 4));
    return n;
}

typedef struct inl_rows {
    int n, broken; /* broken: a row index out of order or an inlined_at not before its row */
    uint64_t next_index;
    cc_dwarf_row r[32];
} inl_rows;

static int collect_inl(const cc_dwarf_row *r, void *user)
{
    inl_rows *s = user;
    if (r->row_index != s->next_index + 1 || r->inlined_at >= r->row_index)
        s->broken = 1;
    s->next_index = r->end_sequence ? 0 : r->row_index;
    if (s->n < 32)
        s->r[s->n] = *r;
    s->n++;
    return 0;
}

/* .debug_str for the inlined names: offset 0 "helper7", offset 10 "helper3". */
static const char inl_str[] = "helper7\0x\0helper3";

/* The example of the brief: rows 1 (0x0, l10), 2 (0x10, l12), 3 (0x20, l13); l7 inlined at
 * row 3; l3 inlined at row 4; back to l13; then a second sequence whose indices restart, and the
 * corrupt forms (forward, self, huge, truncated, empty). */
static void inl_program(lprog *p)
{
    p->n = 0;
    lp_set_address(p, 0);
    lp_line(p, 9); lp_copy(p);                         /* 1: 0x00 l10 */
    lp_byte(p, 13 + 7 + 14 * 16);                      /* 2: 0x10 l12 (special: +16, +2) */
    lp_byte(p, 13 + 6 + 14 * 16);                      /* 3: 0x20 l13 */
    lp_inlined(p, 3, 0); lp_line(p, -6); lp_copy(p);   /* 4: 0x20 l7 at 3, helper7 */
    lp_inlined(p, 4, 10); lp_line(p, -4); lp_copy(p);  /* 5: 0x20 l3 at 4, helper3 */
    lp_inlined(p, 0, 0); lp_line(p, 10); lp_pc(p, 0x20); lp_copy(p); /* 6: 0x40 l13 */
    lp_inlined(p, 2, 999); lp_pc(p, 0x10); lp_end(p);  /* 7: 0x50 end, at 2, name unknown */
    lp_set_address(p, 0);
    lp_copy(p);                                        /* 1: 0x00 l1, state was reset */
    lp_inlined(p, 1, 10); lp_line(p, 1); lp_copy(p);   /* 2: l2 at 1 (this sequence's row 1) */
    lp_inlined(p, 5, 0); lp_copy(p);                   /* 3: forward -> 0 */
    lp_inlined(p, 4, 0); lp_copy(p);                   /* 4: itself -> 0 */
    lp_inlined(p, UINT64_MAX, 0); lp_copy(p);          /* 5: huge -> 0 */
    lp_inlined(p, 2, 0);
    lp_byte(p, 0); lp_byte(p, 2); lp_byte(p, 0x90); lp_byte(p, 0x83); /* operand runs out */
    lp_copy(p);                                        /* 6: -> 0 */
    lp_inlined(p, 2, 0);
    lp_byte(p, 0); lp_byte(p, 1); lp_byte(p, 0x90);    /* no operands at all */
    lp_copy(p);                                        /* 7: -> 0 */
    lp_inlined(p, 6, 0); lp_copy(p);                   /* 8: at 6 */
    lp_pc(p, 0x10); lp_end(p);                         /* 9 */
}

static void test_dwarf_inlined(void)
{
    static const char *const dirs[] = {"/src", NULL}, *const files[] = {"k.cu", NULL};
    static const unsigned fdirs[] = {1};
    unsigned char s[1200];
    lprog p;
    inl_program(&p);
    size_t n = v2_unit(s, dirs, files, fdirs, &p);
    inl_rows r = {0};
    char err[160];
    CHECK(cc_dwarf_line_run(s, n, NULL, 0, (const unsigned char *)inl_str, sizeof inl_str,
                            collect_inl, &r, err, sizeof err) == 0);
    CHECK(r.n == 16 && !r.broken);
    static const uint32_t lines[16] = {10, 12, 13, 7, 3, 13, 13, 1, 2, 2, 2, 2, 2, 2, 2, 2};
    static const uint64_t at[16] = {0, 0, 0, 3, 4, 0, 2, 0, 1, 0, 0, 0, 0, 0, 6, 6};
    for (int i = 0; i < 16 && i < r.n; i++) {
        CHECK_EQ_U64(r.r[i].line, lines[i]);
        CHECK_EQ_U64(r.r[i].inlined_at, at[i]);
        CHECK_EQ_U64(r.r[i].row_index, i < 7 ? i + 1 : i - 6);
    }
    CHECK_EQ_U64(r.r[4].address, 0x20);
    CHECK_STR(r.r[3].inlined_func, "helper7");
    CHECK_STR(r.r[4].inlined_func, "helper3");
    CHECK(r.r[5].inlined_func == NULL && r.r[6].inlined_func == NULL); /* reset; unknown */
    CHECK(r.r[6].end_sequence && r.r[7].sequence == 1);
    CHECK_STR(r.r[8].inlined_func, "helper3");
    /* Without .debug_str the chain is the same, the names unknown. */
    inl_rows q = {0};
    CHECK(cc_dwarf_line_run(s, n, NULL, 0, NULL, 0, collect_inl, &q, err, sizeof err) == 0);
    CHECK(q.n == 16 && !q.broken && q.r[4].inlined_at == 4 && q.r[4].inlined_func == NULL);
    /* Truncated at every length, as a file (the unit runs past it) and as a unit (its program
     * ends early): an error or fewer rows, never a crash or a row naming a later one. */
    for (size_t cut = 0; cut < n; cut++) {
        unsigned char *c = malloc(cut ? cut : 1);
        memcpy(c, s, cut);
        inl_rows t = {0};
        int rc = cc_dwarf_line_run(c, cut, NULL, 0, (const unsigned char *)inl_str,
                                   sizeof inl_str, collect_inl, &t, err, sizeof err);
        CHECK(rc == -1 || cut == 0);
        if (cut >= 4) {
            put32(c, (uint32_t)(cut - 4));
            memset(&t, 0, sizeof t);
            cc_dwarf_line_run(c, cut, NULL, 0, (const unsigned char *)inl_str, sizeof inl_str,
                              collect_inl, &t, err, sizeof err);
            CHECK(!t.broken && t.n <= 16);
        }
        free(c);
    }
}

/* A minimal cubin: the line unit as .debug_line, .debug_str, and one function "kern" so that
 * every sequence is attributed to it. */
static size_t mini_cubin(unsigned char *e, const unsigned char *line, size_t line_size)
{
    static const char shstr[] = "\0.shstrtab\0.debug_line\0.debug_str\0.symtab\0.strtab";
    static const char strtab[] = "\0kern";
    memset(e, 0, 64);
    memcpy(e, "\177ELF", 4);
    e[4] = 2; e[5] = 1; e[6] = 1;
    put16(e + 16, 2); put16(e + 18, 190);
    size_t n = 64;
    struct { uint32_t name, type, link; size_t off, size; } sh[6] = {{0, 0, 0, 0, 0}};
    const void *data[6] = {NULL, shstr, line, inl_str, NULL, strtab};
    size_t size[6] = {0, sizeof shstr, line_size, sizeof inl_str, 48, sizeof strtab};
    uint32_t names[6] = {0, 1, 11, 23, 34, 42}, types[6] = {0, 3, 1, 1, 2, 3};
    unsigned char sym[48];
    memset(sym, 0, sizeof sym);
    put32(sym + 24, 1); sym[28] = 0x12; sym[29] = 0x10; put16(sym + 30, 2);
    data[4] = sym;
    for (int i = 1; i < 6; i++) {
        sh[i].name = names[i]; sh[i].type = types[i]; sh[i].link = i == 4 ? 5 : 0;
        sh[i].off = n; sh[i].size = size[i];
        memcpy(e + n, data[i], size[i]); n += size[i];
    }
    n = (n + 7) & ~(size_t)7;
    put64(e + 40, n); put16(e + 58, 64); put16(e + 60, 6); put16(e + 62, 1);
    for (int i = 0; i < 6; i++) {
        unsigned char *h = e + n + 64 * (size_t)i;
        memset(h, 0, 64);
        put32(h, sh[i].name); put32(h + 4, sh[i].type);
        put64(h + 24, sh[i].off); put64(h + 32, sh[i].size); put32(h + 40, sh[i].link);
        if (i == 4)
            put64(h + 56, 24);
    }
    return n + 6 * 64;
}

/* The device line table on a program like nvcc's: a __syncwarp() from a toolkit header, a user
 * helper calling one, a user helper alone, a cub-only chain, a corrupt call site, and a second
 * sequence whose row 1 is its own. */
static void lines_program(lprog *p)
{
    p->n = 0;
    lp_set_address(p, 0);
    lp_line(p, 9); lp_copy(p);                                       /* 1: 0x00 k.cu:10 */
    lp_pc(p, 0x10); lp_line(p, 2); lp_copy(p);                       /* 2: 0x10 k.cu:12 */
    lp_inlined(p, 2, 0); lp_file(p, 2); lp_line(p, 98); lp_copy(p);  /* 3: 0x10 sm_30:110 at 2 */
    lp_inlined(p, 0, 0); lp_file(p, 1); lp_line(p, -97);
    lp_pc(p, 0x10); lp_copy(p);                                      /* 4: 0x20 k.cu:13 */
    lp_inlined(p, 4, 0); lp_line(p, -8); lp_copy(p);                 /* 5: 0x20 k.cu:5 at 4 */
    lp_inlined(p, 5, 0); lp_file(p, 2); lp_line(p, 195); lp_copy(p); /* 6: 0x20 sm_30:200 at 5 */
    lp_inlined(p, 4, 0); lp_file(p, 1); lp_line(p, -194);
    lp_pc(p, 0x10); lp_copy(p);                                      /* 7: 0x30 k.cu:6 at 4 */
    lp_inlined(p, 0, 0); lp_file(p, 3); lp_line(p, 34);
    lp_pc(p, 0x10); lp_copy(p);                                      /* 8: 0x40 cub:40 */
    lp_inlined(p, 8, 0); lp_file(p, 2); lp_line(p, 260); lp_copy(p); /* 9: 0x40 sm_30:300 at 8 */
    lp_inlined(p, 50, 0); lp_line(p, -190);
    lp_pc(p, 0x10); lp_copy(p);                                      /* 10: 0x50 sm_30:110 */
    lp_inlined(p, 0, 0); lp_pc(p, 0x10); lp_end(p);
    lp_set_address(p, 0x1000);
    lp_line(p, 19); lp_copy(p);                                      /* 1: 0x1000 k.cu:20 */
    lp_inlined(p, 1, 0); lp_file(p, 2); lp_line(p, 90);
    lp_pc(p, 0x10); lp_copy(p);                                      /* 2: 0x1010 sm_30:110 at 1 */
    lp_pc(p, 0x10); lp_end(p);
}

static const cc_line_row *row_at(const cc_line_table *t, uint64_t pc)
{
    const cc_line_row *r = NULL;
    return cc_line_table_lookup(t, "kern", pc, &r) == 1 ? r : NULL;
}

static void check_row(const cc_line_table *t, uint64_t pc, const char *file, uint32_t line,
                      const char *inl_file, uint32_t inl_line, uint32_t depth)
{
    const cc_line_row *r = row_at(t, pc);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_STR(r->file, file);
    CHECK_EQ_U64(r->line, line);
    if (inl_file)
        CHECK_STR(r->inlined_file, inl_file);
    else
        CHECK(r->inlined_file == NULL && r->inlined_dir == NULL);
    CHECK_EQ_U64(r->inlined_line, inl_line);
    CHECK_EQ_U64(r->inline_depth, depth);
}

static void test_lines_inlined(void)
{
    static const char *const dirs[] = {"/usr/local/cuda/bin/../targets/x86_64-linux/include",
                                       "/home/u/proj", NULL};
    static const char *const files[] = {"k.cu", "sm_30_intrinsics.hpp",
                                        "cub/block/block_load.cuh", NULL};
    static const unsigned fdirs[] = {2, 1, 1};
    unsigned char unit[1200], elf[2048];
    lprog p;
    lines_program(&p);
    size_t un = v2_unit(unit, dirs, files, fdirs, &p);
    size_t n = mini_cubin(elf, unit, un);
    char err[160];
    cc_line_table *t = cc_line_table_open(elf, n, CC_LINES_SOURCE, err, sizeof err);
    CHECK(t != NULL);
    if (!t) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CHECK_EQ_U64(cc_line_table_count(t), 8);
    check_row(t, 0x00, "k.cu", 10, NULL, 0, 0);
    check_row(t, 0x10, "k.cu", 12, "sm_30_intrinsics.hpp", 110, 1); /* the call site */
    check_row(t, 0x20, "k.cu", 5, "sm_30_intrinsics.hpp", 200, 2);  /* innermost user frame */
    check_row(t, 0x30, "k.cu", 6, NULL, 0, 1);                      /* a user helper's line */
    check_row(t, 0x40, "sm_30_intrinsics.hpp", 300, NULL, 0, 1);    /* toolkit all the way */
    check_row(t, 0x50, "sm_30_intrinsics.hpp", 110, NULL, 0, 0);    /* corrupt: not inlined */
    check_row(t, 0x1000, "k.cu", 20, NULL, 0, 0);
    check_row(t, 0x1010, "k.cu", 20, "sm_30_intrinsics.hpp", 110, 1);
    const cc_line_row *r = row_at(t, 0x10);
    CHECK(r && r->dir && strcmp(r->dir, "/home/u/proj") == 0 && r->inlined_dir &&
          strstr(r->inlined_dir, "/targets/") != NULL);
    cc_line_table_free(t);
    /* A line unit whose program ends anywhere: a table or an error, never a crash. */
    for (size_t cut = 4; cut < un; cut++) {
        unsigned char part[1200];
        memcpy(part, unit, cut);
        put32(part, (uint32_t)(cut - 4));
        n = mini_cubin(elf, part, cut);
        t = cc_line_table_open(elf, n, CC_LINES_SOURCE, err, sizeof err);
        for (size_t i = 0; i < cc_line_table_count(t); i++)
            CHECK(cc_line_table_row(t, i)->inline_depth <= 2);
        cc_line_table_free(t);
    }
}

static void test_toolkit_paths(void)
{
    static const char *const yes[] = {
        "/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp",
        "/usr/local/cuda-13.0/targets/sbsa-linux/include/crt/sm_90_rt.hpp",
        "/usr/local/cuda-13.0/include/cuda_fp16.hpp",
        "/usr/local/cuda/include/cooperative_groups.h",
        "/opt/cuda/include/cuda_bf16.hpp",
        "/opt/nvidia/hpc_sdk/Linux_x86_64/25.1/cuda/12.6/include/cuda_runtime.h",
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\include\\cuda.h",
        "/home/u/.venv/lib/python3.12/site-packages/nvidia/cu13/include/cuda_fp8.hpp",
        "/usr/lib/python3/site-packages/nvidia/cuda_runtime/include/vector_types.h",
        "/opt/conda/envs/x/targets/x86_64-linux/include/cuda_pipeline.h",
        "/usr/include/cub/block/block_reduce.cuh",
        "/home/u/cccl/lib/cmake/../../include/thrust/sort.h",
        "/opt/cccl/include/cuda/std/__atomic/api.h",
        "/x/include/cccl/cuda/std/cstdint",
        NULL};
    static const char *const no[] = {
        "/home/u/proj/include/util.cuh",
        "/home/u/cuda-kernels/src/a.cu",
        "/home/u/cuda-kernels/include/a.cuh",
        "/home/u/proj/cuda/src/x.cu",
        "/home/u/mycuda/include/x.h",
        "/home/u/nvidia/include/x.h",
        "/home/u/proj/include/cub",
        "/home/u/targets/include/x.h",
        "k.cu",
        "",
        NULL};
    for (size_t i = 0; yes[i]; i++)
        if (!cc_toolkit_header(NULL, yes[i])) {
            fprintf(stderr, "not a toolkit header: %s\n", yes[i]);
            CHECK(0);
        }
    for (size_t i = 0; no[i]; i++)
        if (cc_toolkit_header(NULL, no[i])) {
            fprintf(stderr, "a toolkit header: %s\n", no[i]);
            CHECK(0);
        }
    /* Directory and file are joined; an absolute file ignores the directory. */
    CHECK(cc_toolkit_header("/usr/local/cuda/bin/../targets/x86_64-linux/include",
                            "sm_30_intrinsics.hpp"));
    CHECK(cc_toolkit_header("/usr/local/cuda-13.0/include", "cub/warp/warp_reduce.cuh"));
    CHECK(cc_toolkit_header("/usr/local/cuda/include", NULL));
    CHECK(!cc_toolkit_header("/home/u/proj", "sy_syncwarp_mask.cu"));
    CHECK(!cc_toolkit_header("/usr/local/cuda/include", "/home/u/proj/k.cu"));
    CHECK(!cc_toolkit_header(NULL, NULL));
    CHECK(!cc_toolkit_header("/home/u/proj/include", "cub")); /* not a directory of CCCL */
}

static int ptx_cb(const cc_ptx_entry *e, void *user)
{
    cc_ptx_entry *out = user;
    if (e->name_len == 3 && memcmp(e->name, "lb2", 3) == 0)
        *out = *e;
    return 0;
}

static void test_ptx(void)
{
    const char *t = "//\n// Generated\n//\n\n.version 8.7\n.target sm_90a\n.address_size 64\n"
                    "/* .entry fake( */\n"
                    ".visible .entry lb1(\n .param .u64 lb1_param_0\n)\n.maxntid 128\n{\n ret;\n}\n"
                    ".visible .entry lb2(\n .param .u64 p\n)\n.maxntid 256, 1, 1\n"
                    ".minnctapersm 4\n.maxnreg 40\n{\n ret;\n}\n";
    cc_ptx_module m;
    cc_ptx_entry e;
    memset(&e, 0, sizeof e);
    CHECK(cc_ptx_is_ptx(t, strlen(t)));
    CHECK(cc_ptx_scan(t, strlen(t), &m, ptx_cb, &e) == 0);
    CHECK_EQ_U64(m.version_major, 8);
    CHECK_EQ_U64(m.version_minor, 7);
    CHECK_STR(m.target, "sm_90a");
    CHECK_EQ_U64(m.entries, 2);
    CHECK_EQ_U64(e.maxntid[0], 256);
    CHECK_EQ_U64(e.minnctapersm, 4);
    CHECK_EQ_U64(e.maxnreg, 40);
    CHECK(!cc_ptx_is_ptx("hello world", 11));
}

static void test_elf_and_kinds(void)
{
    unsigned char h[64];
    char err[160];
    cc_elf elf;
    memset(h, 0, sizeof h);
    memcpy(h, "\177ELF", 4);
    h[4] = 2; h[5] = 1;
    put16(h + 18, 190);
    CHECK(cc_elf_open(&elf, h, 40, err, sizeof err) == -1); /* truncated header */
    CHECK(cc_elf_open(&elf, h, 64, err, sizeof err) == 0);  /* no sections: valid, empty */
    CHECK_EQ_U64(elf.shnum, 0);
    put64(h + 40, 1000); put16(h + 58, 64); put16(h + 60, 3);
    CHECK(cc_elf_open(&elf, h, 64, err, sizeof err) == -1); /* section table outside the file */
    CHECK(strstr(err, "outside") != NULL);
    h[4] = 1;
    CHECK(cc_elf_open(&elf, h, 64, err, sizeof err) == -1); /* 32-bit */
    h[4] = 2;
    put64(h + 40, 0);
    CHECK(cc_file_kind_of(h, 64) == CC_FILE_CUBIN);
    put16(h + 18, 62);
    CHECK(cc_file_kind_of(h, 64) == CC_FILE_HOST_ELF);
    CHECK(cc_file_kind_of("!<arch>\n", 8) == CC_FILE_ARCHIVE);
    CHECK(cc_file_kind_of("plain text", 10) == CC_FILE_UNKNOWN);
    unsigned char fb[512];
    size_t n = build_fatbin(fb);
    CHECK(cc_file_kind_of(fb, n) == CC_FILE_FATBIN);
    cc_scan_stats st;
    CHECK(cc_binary_scan_mem(fb, n, "mem", NULL, NULL, &st, err, sizeof err) == 0);
    CHECK_EQ_U64(st.images, 2);
    CHECK_EQ_U64(st.fatbins, 1);
    /* A bad archive member header is an error. */
    const char *ar = "!<arch>\nk.o/            0           0     0     644     99999     `\n";
    CHECK(cc_binary_scan_mem(ar, strlen(ar), "ar", NULL, NULL, &st, err, sizeof err) == -1);
}

static void test_demangle(void)
{
    char out[256];
    CHECK(cc_demangle("_Z9lb_kernelPfPKfi", out, sizeof out) == 1);
    CHECK_STR(out, "lb_kernel(float*, float const*, int)");
    CHECK(cc_demangle("plain_store", out, sizeof out) == 0);
    CHECK_STR(out, "plain_store");
    CHECK(cc_demangle("_Zbogus", out, sizeof out) == 0);
    CHECK_STR(out, "_Zbogus");
    char small[8];
    cc_demangle("_Z9lb_kernelPfPKfi", small, sizeof small);
    CHECK_STR(small, "lb_kern");
}

int main(void)
{
    test_nvinfo();
    test_fatbin();
    test_dwarf_v2();
    test_dwarf_v5();
    test_dwarf_inlined();
    test_lines_inlined();
    test_toolkit_paths();
    test_ptx();
    test_elf_and_kinds();
    test_demangle();
    TEST_MAIN_END();
}
