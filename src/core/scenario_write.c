/* Writing events as lines of the text scenario form (what `cucheck dump` prints). Fields that
 * are zero, empty or absent are left out (the parser reads an omitted field as zero); handles
 * are written as decimal numbers, addresses and flags as 0x-hex, enums by name, strings bare
 * when they hold only plain printable characters and quoted with escapes otherwise, so that
 * the parser reads every line back to an identical event. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "core/evtio.h"
#include "core/evtio_internal.h"

static int bare_ok(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '#') return 0;
    }
    return 1;
}

static void write_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fprintf(out, "\\x%02x", c);
            else
                fputc(c, out);
        }
    }
}

static void write_string(FILE *out, const char *s)
{
    if (bare_ok(s)) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    write_escaped(out, s);
    fputc('"', out);
}

/* A frame's text that itself starts like a pc prefix ("0x1f@...") needs an explicit 0x0@. */
static int looks_like_pc_prefix(const char *s)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return 0;
    const char *p = s + 2;
    while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
        p++;
    return p > s + 2 && *p == '@';
}

static void write_field(FILE *out, const cc_event *ev, const cc_evt_field *f)
{
    const char *at = (const char *)ev + f->off;
    uint32_t u;
    uint64_t v;
    switch (f->type) {
    case CC_FT_U32: case CC_FT_I32: case CC_FT_HEX32: case CC_FT_ENUM:
        memcpy(&u, at, 4);
        if (!u) return;
        fprintf(out, " %s=", f->key);
        if (f->type == CC_FT_U32) {
            fprintf(out, "%" PRIu32, u);
        } else if (f->type == CC_FT_I32) {
            int32_t i;
            memcpy(&i, at, 4);
            fprintf(out, "%" PRId32, i);
        } else if (f->type == CC_FT_HEX32) {
            fprintf(out, "0x%" PRIx32, u);
        } else {
            const char *name = f->name(u);
            if (name)
                fputs(name, out);
            else
                fprintf(out, "%" PRIu32, u);
        }
        return;
    case CC_FT_U64: case CC_FT_HANDLE: case CC_FT_STREAM: case CC_FT_ADDR:
        memcpy(&v, at, 8);
        if (!v) return;
        if (f->type == CC_FT_ADDR)
            fprintf(out, " %s=0x%" PRIx64, f->key, v);
        else
            fprintf(out, " %s=%" PRIu64, f->key, v);
        return;
    case CC_FT_STR: {
        const char *s;
        memcpy(&s, at, sizeof s);
        if (!s || !*s) return;
        fprintf(out, " %s=", f->key);
        write_string(out, s);
        return;
    }
    case CC_FT_DIM3: {
        uint32_t d[3];
        memcpy(d, at, sizeof d);
        if (d[0] || d[1] || d[2])
            fprintf(out, " %s=%" PRIu32 ",%" PRIu32 ",%" PRIu32, f->key, d[0], d[1], d[2]);
        return;
    }
    case CC_FT_DEPS: {
        const uint64_t *deps;
        memcpy(&deps, at, sizeof deps);
        memcpy(&u, (const char *)ev + f->off2, 4);
        if (!deps || !u) return;
        fprintf(out, " %s=", f->key);
        for (uint32_t k = 0; k < u; k++) fprintf(out, "%s%" PRIu64, k ? "," : "", deps[k]);
        return;
    }
    case CC_FT_FRAMES: {
        const cc_stack_frame *fr;
        memcpy(&fr, at, sizeof fr);
        memcpy(&u, (const char *)ev + f->off2, 4);
        if (!fr) return;
        for (uint32_t k = 0; k < u; k++) {
            const char *text = fr[k].text ? fr[k].text : "";
            fputs(" frame=\"", out);
            if (fr[k].pc || looks_like_pc_prefix(text))
                fprintf(out, "0x%" PRIx64 "@", fr[k].pc);
            write_escaped(out, text);
            fputc('"', out);
        }
        return;
    }
    }
}

void cc_scenario_write_event(FILE *out, const cc_event *ev)
{
    size_t nf;
    const cc_evt_field *f = cc_evt_fields(ev->h.kind, &nf);
    if (!f) {
        fprintf(out, "# event of unknown kind %" PRIu32 "\n", ev->h.kind);
        return;
    }
    fprintf(out, "%s t=%" PRIu64, cc_event_kind_name(ev->h.kind), ev->h.timestamp);
    if (ev->h.tid) fprintf(out, " tid=%" PRIu32, ev->h.tid);
    for (size_t i = 0; i < nf; i++) write_field(out, ev, &f[i]);
    fputc('\n', out);
}
