/* The human-readable text writer, in the style users know from compute-sanitizer:
 *
 *   ========= Invalid __global__ write of size 4 bytes [invalid-global-write]
 *   =========     at add(float const*, float*, int)+0x1f0 in vecadd.cu:12
 *   =========     by thread (256,0,0) in block (3,0,0)
 *   =========     Address 0x7f0000000410 is 16 bytes after the nearest allocation ...
 *   =========     In test: tests/test_vecadd.py::test_add      (under a test runner)
 *   =========     Host frame: main (vecadd.cu:40)
 *   =========     Allocation: 1024 bytes at 0x7f0000000000
 *   =========         Host frame: main (vecadd.cu:31)
 *   =========     (seen 12 times; threads (256,0,0) in block (3,0,0), (257,0,0) in block (3,0,0), ...)
 *   =========
 *
 * Strings that come from the program, a recording or a collected report (messages, kernel and
 * file names, host frames, roles, kinds) are printed escaped (core/text_escape.h): a kernel name
 * holding an escape sequence shows as "\x1b[2J", it never reaches the terminal as one.
 */
#include "core/report.h"
#include "core/report_internal.h"
#include "core/report_text_style.h"
#include "core/finding_util.h"
#include "core/text_escape.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void cc_text_style_default(cc_text_style *s) {
    memset(s, 0, sizeof *s);
    s->max_host_frames = CC_TEXT_DEFAULT_HOST_FRAMES;
    s->demangle = CC_DEMANGLE_FULL;
}

static const char *space_text(uint32_t space) {
    switch (space) {
    case CC_SPACE_GLOBAL: return "__global__ ";
    case CC_SPACE_SHARED: return "__shared__ ";
    case CC_SPACE_LOCAL: return "__local__ ";
    case CC_SPACE_GENERIC: return "generic ";
    case CC_SPACE_HOST: return "host ";
    default: return "";
    }
}

static const char *access_text(uint32_t access) {
    switch (access) {
    case CC_ACCESS_READ: return "read";
    case CC_ACCESS_WRITE: return "write";
    case CC_ACCESS_ATOMIC: return "atomic";
    default: return "access";
    }
}

int cc_finding_title(const cc_finding *f, char *buf, size_t len) {
    const cc_device_loc *d = &f->device;
    if (f->has_device && (d->valid & CC_DLOC_ADDRESS) && d->access != CC_ACCESS_NONE && f->kind &&
        strncmp(f->kind, "invalid-", 8) == 0) {
        snprintf(buf, len, "Invalid %s%s of size %" PRIu32 " byte%s", space_text(d->space),
                 access_text(d->access), d->size, d->size == 1 ? "" : "s");
        return 1;
    }
    snprintf(buf, len, "%s", f->message ? f->message : f->kind ? f->kind : "finding");
    return 0;
}

static void where_put(char *out, size_t outlen, size_t *at, const char *s) {
    if (*at + 1 >= outlen) return;
    snprintf(out + *at, outlen - *at, "%s", s);
    *at += strlen(out + *at);
}

/* Escaped strings are escaped piece by piece; a name cut short stops before an escape or a
 * character that does not fit (core/text_escape.h). */
size_t cc_device_where(const cc_device_loc *d, char *out, size_t outlen) {
    const char *kernel = NULL, *file = NULL;
    char pc[48] = "", line[24] = "";
    if (d->valid & CC_DLOC_KERNEL) kernel = d->kernel ? d->kernel : "<unknown kernel>";
    if (d->valid & CC_DLOC_PC) snprintf(pc, sizeof pc, "%s+0x%" PRIx64, kernel ? "" : "pc ", d->pc);
    if ((d->valid & CC_DLOC_LINE) && d->file) {
        file = d->file;
        snprintf(line, sizeof line, ":%" PRIu32, d->line);
    }
    const char *in = file && (kernel || pc[0]) ? " in " : "";
    size_t kn = kernel ? cc_text_escape(NULL, 0, kernel) : 0;
    size_t rest = strlen(pc) + strlen(in) + (file ? cc_text_escape(NULL, 0, file) : 0) + strlen(line);
    if (!out || outlen == 0) return kn + rest;
    size_t room = outlen - 1, at = 0;
    out[0] = '\0';
    if (kernel && kn + rest <= room) {
        at = cc_text_escape(out, outlen, kernel);
    } else if (kernel && room > rest + 3) { /* the name gives way: the pc and line stay */
        cc_text_escape(out, room - rest - 3 + 1, kernel);
        at = strlen(out);
        where_put(out, outlen, &at, "...");
    }
    where_put(out, outlen, &at, pc);
    where_put(out, outlen, &at, in);
    if (file && at + 1 < outlen) {
        cc_text_escape(out + at, outlen - at, file);
        at += strlen(out + at);
    }
    where_put(out, outlen, &at, line);
    return kn + rest;
}

/* The name to show for d's kernel in the chosen style: buf holds a shortened one. */
static const char *styled_kernel(const cc_device_loc *d, const cc_text_style *st, char *buf,
                                 size_t buflen) {
    if (!d->kernel || st->demangle == CC_DEMANGLE_FULL) return d->kernel;
    if (st->demangle == CC_DEMANGLE_NO) return d->kernel_mangled ? d->kernel_mangled : d->kernel;
    cc_kernel_name_simple(d->kernel, buf, buflen);
    return buf;
}

static void write_device(FILE *out, const cc_device_loc *dev, const char *indent,
                         const cc_text_style *st) {
    char shortname[1024];
    cc_device_loc styled = *dev;
    styled.kernel = styled_kernel(dev, st, shortname, sizeof shortname);
    const cc_device_loc *d = &styled;
    char small[1024], *where = small;
    size_t need = cc_device_where(d, NULL, 0) + 1;
    if (need > sizeof small && (where = malloc(need)) == NULL) { /* the name is cut instead */
        where = small;
        need = sizeof small;
    }
    cc_device_where(d, where, need > sizeof small ? need : sizeof small);
    if (where[0]) fprintf(out, "%s%sat %s\n", CC_TEXT_PREFIX, indent, where);
    if (where != small) free(where);
    if (d->valid & CC_DLOC_THREAD)
        fprintf(out,
                "%s%sby thread (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") in block (%" PRIu32
                ",%" PRIu32 ",%" PRIu32 ")\n",
                CC_TEXT_PREFIX, indent, d->thread[0], d->thread[1], d->thread[2], d->block[0],
                d->block[1], d->block[2]);
}

static void write_frames(FILE *out, const cc_stack_frame *fr, uint32_t n, const char *indent,
                         const cc_text_style *st) {
    if (!fr || st->hide_host_frames) return;
    uint32_t most = st->max_host_frames ? st->max_host_frames : n;
    for (uint32_t i = 0; i < n && i < most; i++) {
        if (fr[i].text) {
            fprintf(out, "%s%sHost frame: ", CC_TEXT_PREFIX, indent);
            cc_text_fputs(fr[i].text, out);
            fputc('\n', out);
        } else fprintf(out, "%s%sHost frame: 0x%" PRIx64 "\n", CC_TEXT_PREFIX, indent, fr[i].pc);
    }
    if (n > most)
        fprintf(out, "%s%s... %" PRIu32 " more host frame%s\n", CC_TEXT_PREFIX, indent, n - most,
                n - most == 1 ? "" : "s");
}

static int is_sample(const cc_related *r) {
    return r->role && strcmp(r->role, CC_RELATED_SAMPLE) == 0 && r->has_device &&
           (r->device.valid & CC_DLOC_THREAD);
}

static void write_related(FILE *out, const cc_related *r, const cc_text_style *st) {
    const char *role = r->role && r->role[0] ? r->role : "related";
    fprintf(out, "%s     ", CC_TEXT_PREFIX);
    if (role[0] >= 'a' && role[0] <= 'z') {
        fputc(role[0] - 'a' + 'A', out);
        role++;
    }
    cc_text_fputs(role, out);
    fputc(':', out);
    if (r->message) {
        fputc(' ', out);
        cc_text_fputs(r->message, out);
    }
    fputc('\n', out);
    if (r->has_device) write_device(out, &r->device, "         ", st);
    write_frames(out, r->frames, r->nframes, "         ", st);
}

static void write_seen(FILE *out, const cc_finding *f) {
    uint64_t count = f->count ? f->count : 1;
    if (count <= 1) return;
    fprintf(out, "%s     (seen %" PRIu64 " times", CC_TEXT_PREFIX, count);
    uint32_t shown = 0;
    for (uint32_t i = 0; f->related && i < f->nrelated; i++) {
        const cc_related *r = &f->related[i];
        if (!is_sample(r)) continue;
        const uint32_t *t = r->device.thread, *b = r->device.block;
        fprintf(out, "%s(%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") in block (%" PRIu32 ",%" PRIu32
                     ",%" PRIu32 ")",
                shown ? ", " : "; threads ", t[0], t[1], t[2], b[0], b[1], b[2]);
        shown++;
    }
    fprintf(out, "%s)\n", shown && shown < count ? ", ..." : "");
}

void cc_write_finding_text(FILE *out, const cc_finding *f) {
    cc_write_finding_text_styled(out, f, NULL);
}

void cc_write_finding_text_styled(FILE *out, const cc_finding *f, const cc_text_style *style) {
    cc_write_finding_text_from(out, f, style, NULL);
}

void cc_write_finding_text_from(FILE *out, const cc_finding *f, const cc_text_style *style,
                                const char *from) {
    cc_text_style def;
    if (!style) {
        cc_text_style_default(&def);
        style = &def;
    }
    char title[1024];
    int from_access = cc_finding_title(f, title, sizeof title);
    const char *sev = f->severity == CC_SEV_WARNING ? "Warning: "
                      : f->severity == CC_SEV_INFO  ? "Note: "
                                                    : "";
    fprintf(out, "%s %s", CC_TEXT_PREFIX, sev);
    cc_text_fputs(title, out);
    if (f->kind && strcmp(title, f->kind) != 0) {
        fputs(" [", out);
        cc_text_fputs(f->kind, out);
        fputc(']', out);
    }
    if (from && from[0]) {
        fputs(" (", out);
        cc_text_fputs(from, out);
        fputc(')', out);
    }
    fputc('\n', out);
    if (f->has_device) write_device(out, &f->device, "     ", style);
    if (from_access) {
        if (f->message) {
            fprintf(out, "%s     ", CC_TEXT_PREFIX);
            cc_text_fputs(f->message, out);
            fputc('\n', out);
        } else fprintf(out, "%s     Address 0x%" PRIx64 "\n", CC_TEXT_PREFIX, f->device.address);
    }
    if (f->test) {
        fprintf(out, "%s     In test: ", CC_TEXT_PREFIX);
        cc_text_fputs(f->test, out);
        fputc('\n', out);
    }
    write_frames(out, f->frames, f->nframes, "     ", style);
    for (uint32_t i = 0; f->related && i < f->nrelated; i++)
        if (!is_sample(&f->related[i])) write_related(out, &f->related[i], style);
    write_seen(out, f);
    fprintf(out, "%s\n", CC_TEXT_PREFIX);
}
