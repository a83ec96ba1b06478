/* Unit tests of the binary-format readers on hand-built inputs: .nv.info records, fatbin
 * containers (layout as nvcc 13 writes it), DWARF 2 and 5 line programs, PTX text, ELF header
 * checks, demangling and the file-kind guess. No toolkit needed. */
#include "check.h"
#include "symbols/binary.h"
#include "symbols/demangle.h"
#include "symbols/dwarf_line.h"
#include "symbols/elf.h"
#include "symbols/fatbin.h"
#include "symbols/nvinfo.h"
#include "symbols/ptx.h"

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
    test_ptx();
    test_elf_and_kinds();
    test_demangle();
    TEST_MAIN_END();
}
