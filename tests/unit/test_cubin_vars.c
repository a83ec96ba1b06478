/* The module-variable reader (symbols/modvars.h) on a cubin built here byte by byte: which
 * symbols are variables (objects of whole-program and relocatable cubins in .nv.global,
 * .nv.global.init and constant banks, __managed__ flagged) and which are not (no size, past their
 * section's end or wrapping, undefined, absolute, functions, a kernel's parameter bank, shared
 * memory, no name, a section index out of range), a relocatable .nv.global whose bytes are not in
 * the file, stopping early, and inputs that are no cubin. Also the display names. */
#include "check.h"
#include "symbols/modvars.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NSEC 10

typedef struct builder {
    unsigned char buf[4096];
    size_t len;
    char shstr[256];
    size_t shstr_len;
    char str[512];
    size_t str_len;
} builder;

static void put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(unsigned char *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static uint32_t add_str(char *tab, size_t *len, const char *s)
{
    uint32_t off = (uint32_t)*len;
    memcpy(tab + *len, s, strlen(s) + 1);
    *len += strlen(s) + 1;
    return off;
}

typedef struct sym_spec {
    const char *name; /* NULL: a name offset outside the string table */
    unsigned char type, other;
    uint16_t shndx;
    uint64_t value, size;
} sym_spec;

static const sym_spec syms[] = {
    {"ok_global", 1, 0, 4, 0, 4},
    {"managed", 1, 0x4, 4, 4, 4},
    {"past_end", 1, 0, 4, 12, 8},
    {"wraps", 1, 0, 4, UINT64_MAX - 1, 4},
    {"no_size", 1, 0, 4, 8, 0},
    {"undefined", 1, 0, 0, 0, 4},
    {"absolute", 1, 0, 0xfff1, 0, 4},
    {"_Z1kv", 2, 0x10, 4, 0, 4},
    {"param_bank", 1, 0, 6, 0, 4},
    {"shared_var", 1, 0, 7, 0, 4},
    {"cst", 1, 0, 5, 0, 8},
    {"inited", 13, 0x20, 8, 0, 8},
    {"", 1, 0, 4, 0, 4},
    {"big_rdc", 13, 0x20, 9, 0x800000, 0x100},
    {"bad_index", 1, 0, 200, 0, 4},
    {NULL, 1, 0, 4, 0, 4},
};
#define NSYMS (sizeof syms / sizeof syms[0])

/* A cubin: .shstrtab, .strtab, .symtab, .nv.global (16 bytes), .nv.constant3 (8),
 * .nv.constant0._Z1kv (8), .nv.shared._Z1kv (64), .nv.global.init (8) and a relocatable-style
 * .nv.global (type SHT_LOPROC+7, 16 MiB, its offset past the end of the file). */
static size_t build(builder *b, uint16_t machine)
{
    static const struct { const char *name; uint32_t type; uint64_t size; } secs[NSEC] = {
        {"", 0, 0}, {".shstrtab", 3, 0}, {".strtab", 3, 0}, {".symtab", 2, 0},
        {".nv.global", 8, 16}, {".nv.constant3", 1, 8}, {".nv.constant0._Z1kv", 1, 8},
        {".nv.shared._Z1kv", 8, 64}, {".nv.global.init", 1, 8}, {".nv.global", 0x70000007u, 1u << 24},
    };
    memset(b, 0, sizeof *b);
    uint32_t names[NSEC];
    for (int i = 0; i < NSEC; i++)
        names[i] = add_str(b->shstr, &b->shstr_len, secs[i].name);
    add_str(b->str, &b->str_len, "");
    unsigned char symtab[24 * (NSYMS + 1)];
    memset(symtab, 0, sizeof symtab);
    for (size_t i = 0; i < NSYMS; i++) {
        unsigned char *s = symtab + 24 * (i + 1);
        put32(s, syms[i].name ? add_str(b->str, &b->str_len, syms[i].name) : 100000u);
        s[4] = syms[i].type;
        s[5] = syms[i].other;
        put16(s + 6, syms[i].shndx);
        put64(s + 8, syms[i].value);
        put64(s + 16, syms[i].size);
    }
    unsigned char *h = b->buf;
    memcpy(h, "\177ELF", 4);
    h[4] = 2; h[5] = 1; h[6] = 1;
    put16(h + 16, 2);
    put16(h + 18, machine);
    size_t off = 64;
    uint64_t offs[NSEC] = {0}, sizes[NSEC] = {0};
    const void *contents[NSEC] = {0};
    contents[1] = b->shstr; sizes[1] = b->shstr_len;
    contents[2] = b->str; sizes[2] = b->str_len;
    contents[3] = symtab; sizes[3] = sizeof symtab;
    static const unsigned char zeros[8];
    contents[5] = contents[6] = contents[8] = zeros;
    for (int i = 1; i < NSEC; i++) {
        if (!contents[i]) {
            sizes[i] = secs[i].size;
            offs[i] = i == 9 ? 1u << 20 : off;
            continue;
        }
        if (secs[i].size)
            sizes[i] = secs[i].size;
        offs[i] = off;
        memcpy(b->buf + off, contents[i], sizes[i]);
        off += (sizes[i] + 7) / 8 * 8;
    }
    put64(h + 40, off);
    put16(h + 52, 64);
    put16(h + 58, 64);
    put16(h + 60, NSEC);
    put16(h + 62, 1);
    for (int i = 0; i < NSEC; i++) {
        unsigned char *s = b->buf + off + 64 * (size_t)i;
        put32(s, names[i]);
        put32(s + 4, secs[i].type);
        put64(s + 24, offs[i]);
        put64(s + 32, sizes[i]);
        if (i == 3) {
            put32(s + 40, 2);
            put64(s + 56, 24);
        }
    }
    b->len = off + 64 * NSEC;
    return b->len;
}

typedef struct got {
    char names[8][32];
    uint64_t offset[8], size[8];
    uint32_t flags[8];
    int n, stop_after;
} got;

static int collect(const cc_cubin_var *v, void *user)
{
    got *g = user;
    if (g->n < 8) {
        snprintf(g->names[g->n], sizeof g->names[0], "%s", v->name);
        g->offset[g->n] = v->offset;
        g->size[g->n] = v->size;
        g->flags[g->n] = v->flags;
    }
    g->n++;
    return g->stop_after && g->n >= g->stop_after;
}

static void check_synthetic(void)
{
    static builder b;
    char err[256];
    got g;
    memset(&g, 0, sizeof g);
    size_t len = build(&b, 190);
    CHECK_EQ_U64(cc_cubin_vars(b.buf, len, collect, &g, err, sizeof err), 5);
    CHECK_EQ_U64(g.n, 5);
    CHECK_STR(g.names[0], "ok_global");
    CHECK_EQ_U64(g.flags[0], 0);
    CHECK_EQ_U64(g.size[0], 4);
    CHECK_STR(g.names[1], "managed");
    CHECK_EQ_U64(g.flags[1], CC_CUBIN_VAR_MANAGED);
    CHECK_EQ_U64(g.offset[1], 4);
    CHECK_STR(g.names[2], "cst");
    CHECK_EQ_U64(g.flags[2], CC_CUBIN_VAR_CONSTANT);
    CHECK_STR(g.names[3], "inited");
    CHECK_EQ_U64(g.flags[3], 0);
    CHECK_STR(g.names[4], "big_rdc");
    CHECK_EQ_U64(g.offset[4], 0x800000);
    CHECK_EQ_U64(g.size[4], 0x100);

    /* A callback that stops: the count is what was delivered. */
    memset(&g, 0, sizeof g);
    g.stop_after = 2;
    CHECK_EQ_U64(cc_cubin_vars(b.buf, len, collect, &g, err, sizeof err), 2);
    /* No callback: counted only. */
    CHECK_EQ_U64(cc_cubin_vars(b.buf, len, NULL, NULL, err, sizeof err), 5);

    /* Not a cubin: a host ELF, junk, nothing. */
    len = build(&b, 62);
    err[0] = 0;
    CHECK(cc_cubin_vars(b.buf, len, collect, &g, err, sizeof err) == -1);
    CHECK(strstr(err, "not a cubin") != NULL);
    CHECK(cc_cubin_vars("junk", 4, collect, &g, err, sizeof err) == -1);
    CHECK(cc_cubin_vars(NULL, 0, collect, &g, err, sizeof err) == -1);

    /* Every truncation is an error or a shorter list, never a read outside the buffer (the
     * section table sits at the end: any cut loses it). */
    len = build(&b, 190);
    for (size_t cut = 0; cut < len; cut++) {
        unsigned char *copy = malloc(cut ? cut : 1);
        memcpy(copy, b.buf, cut);
        CHECK(cc_cubin_vars(copy, cut, NULL, NULL, err, sizeof err) == -1);
        free(copy);
    }
}

static void check_display(void)
{
    char out[128];
    CHECK_STR(cc_cubin_var_display_name("flag", out, sizeof out), "flag");
    CHECK_STR(cc_cubin_var_display_name("_ZN2ns6deeper3bufE", out, sizeof out), "ns::deeper::buf");
    CHECK_STR(cc_cubin_var_display_name("_ZZ14fn_static_useriE13local_counter", out, sizeof out),
              "fn_static_user(int)::local_counter");
    CHECK_STR(cc_cubin_var_display_name("__nv_static_26__edbe9414_7_vars_cu_inited_hidden", out,
                                        sizeof out), "hidden");
    CHECK_STR(cc_cubin_var_display_name(
                  "__nv_static_29__964f43b4_8_vars2_cu_fad7d28e__ZN38_INTERNAL_964f43b4_8_vars2_cu"
                  "_fad7d28e40_GLOBAL__N__964f43b4_8_vars2_cu_fad7d28e8anon_varE", out, sizeof out),
              "(anonymous namespace)::anon_var");
    /* Malformed prefixes stay as they are. */
    CHECK_STR(cc_cubin_var_display_name("__nv_static_", out, sizeof out), "__nv_static_");
    CHECK_STR(cc_cubin_var_display_name("__nv_static_9_abc_x", out, sizeof out),
              "__nv_static_9_abc_x");
    CHECK_STR(cc_cubin_var_display_name("__nv_static_3_abc_", out, sizeof out),
              "__nv_static_3_abc_");
    CHECK_STR(cc_cubin_var_display_name("__nv_static_3_abcd", out, sizeof out),
              "__nv_static_3_abcd");
    CHECK_STR(cc_cubin_var_display_name("__nv_static_99999999999_a_b", out, sizeof out),
              "__nv_static_99999999999_a_b");
    CHECK_STR(cc_cubin_var_display_name("_INTERNAL_x", out, sizeof out), "_INTERNAL_x");
    CHECK_STR(cc_cubin_var_display_name(NULL, out, sizeof out), "");
    /* Truncated to the buffer. */
    CHECK_STR(cc_cubin_var_display_name("_ZN2ns6deeper3bufE", out, 6), "ns::d");
}

int main(void)
{
    check_synthetic();
    check_display();
    TEST_MAIN_END();
}
