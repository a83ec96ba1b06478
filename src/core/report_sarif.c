/* The SARIF 2.1.0 writer: one log, one run, tool.driver "cucheck" with one rule per finding kind;
 * each finding becomes a result with its source location (file:line) and kernel (logical
 * location), related places as relatedLocations, host stacks as `stacks`, and the device
 * details (thread, block, address, count, samples) and the test that was running as result
 * properties. */
#include "core/report.h"
#include "core/report_internal.h"
#include "core/finding_util.h"
#include "core/json.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* informationUri is optional in SARIF; it is written only when the build names a home page
 * (-DCUCHECK_HOMEPAGE=...), never a guessed address. */
#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

static const char *level_of(uint32_t sev) {
    return sev == CC_SEV_ERROR ? "error" : sev == CC_SEV_WARNING ? "warning" : "note";
}

/* A SARIF uri for a path: absolute paths become file:// URIs; characters outside the
 * unreserved set and '/' are percent-encoded. */
static void write_uri(FILE *out, const char *path) {
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *buf = malloc(n * 3 + 8);
    if (!buf) {
        cc_json_write_str(out, path);
        return;
    }
    size_t k = 0;
    if (path[0] == '/') {
        memcpy(buf, "file://", 7);
        k = 7;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
            buf[k++] = (char)c;
        } else {
            buf[k++] = '%';
            buf[k++] = hex[c >> 4];
            buf[k++] = hex[c & 15];
        }
    }
    buf[k] = '\0';
    cc_json_write_str(out, buf);
    free(buf);
}

static int has_line(const cc_device_loc *d) {
    return (d->valid & CC_DLOC_LINE) && d->file && d->file[0];
}

static int has_kernel(const cc_device_loc *d) { return (d->valid & CC_DLOC_KERNEL) && d->kernel; }

/* The members of a location object (without braces) for a device location. */
static void write_location_body(FILE *out, const cc_device_loc *d, const char *message) {
    const char *sep = "";
    if (message) {
        fputs("\"message\":{\"text\":", out);
        cc_json_write_str(out, message);
        fputc('}', out);
        sep = ",";
    }
    if (d && has_line(d)) {
        fprintf(out, "%s\"physicalLocation\":{\"artifactLocation\":{\"uri\":", sep);
        write_uri(out, d->file);
        fputc('}', out);
        if (d->line > 0) fprintf(out, ",\"region\":{\"startLine\":%" PRIu32 "}", d->line);
        fputc('}', out);
        sep = ",";
    }
    if (d && has_kernel(d)) {
        fprintf(out, "%s\"logicalLocations\":[{\"fullyQualifiedName\":", sep);
        cc_json_write_str(out, d->kernel);
        if (d->kernel_mangled) { /* SARIF's name for the compiler's (mangled) form */
            fputs(",\"decoratedName\":", out);
            cc_json_write_str(out, d->kernel_mangled);
        }
        fputs(",\"kind\":\"function\"}]", out);
    }
}

static void write_stack(FILE *out, const char *label, const cc_stack_frame *fr, uint32_t n) {
    fputs("{\"message\":{\"text\":", out);
    cc_json_write_str(out, label);
    fputs("},\"frames\":[", out);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(out, "%s{\"location\":{\"message\":{\"text\":", i ? "," : "");
        if (fr[i].text) {
            cc_json_write_str(out, fr[i].text);
        } else {
            char pc[32];
            snprintf(pc, sizeof pc, "0x%" PRIx64, fr[i].pc);
            cc_json_write_str(out, pc);
        }
        fputc('}', out);
        if (fr[i].pc)
            fprintf(out, ",\"physicalLocation\":{\"address\":{\"absoluteAddress\":%" PRIu64 "}}",
                    fr[i].pc);
        fputs("}}", out);
    }
    fputs("]}", out);
}

static int is_sample(const cc_related *r) {
    return r->role && strcmp(r->role, CC_RELATED_SAMPLE) == 0 && r->has_device &&
           (r->device.valid & CC_DLOC_THREAD);
}

static void write_properties(FILE *out, const cc_finding *f, const char *more) {
    fputs("\"properties\":{\"tool\":", out);
    cc_json_write_str(out, f->tool ? f->tool : "");
    fprintf(out, ",\"count\":%" PRIu64, f->count ? f->count : 1);
    if (f->test) {
        fputs(",\"test\":", out);
        cc_json_write_str(out, f->test);
    }
    if (f->has_device) {
        fputs(",\"device\":", out);
        cc_write_device_json(out, &f->device);
    }
    const cc_device_loc *d = &f->device;
    if (f->has_device && (d->valid & CC_DLOC_THREAD)) {
        fputs(",\"block\":", out);
        cc_json_write_dim3(out, d->block);
        fputs(",\"thread\":", out);
        cc_json_write_dim3(out, d->thread);
    }
    if (f->has_device && (d->valid & CC_DLOC_ADDRESS)) {
        fputs(",\"address\":", out);
        cc_json_write_hex(out, d->address);
        fprintf(out, ",\"size\":%" PRIu32, d->size);
    }
    int any = 0;
    for (uint32_t i = 0; f->related && i < f->nrelated; i++) {
        const cc_related *r = &f->related[i];
        if (!is_sample(r)) continue;
        fputs(any ? ",{\"block\":" : ",\"samples\":[{\"block\":", out);
        cc_json_write_dim3(out, r->device.block);
        fputs(",\"thread\":", out);
        cc_json_write_dim3(out, r->device.thread);
        fputc('}', out);
        any = 1;
    }
    if (any) fputc(']', out);
    if (more) fputs(more, out);
    fputc('}', out);
}

static void write_result(FILE *out, const cc_finding *f, size_t rule_index, const char *more) {
    char title[1024];
    int from_access = cc_finding_title(f, title, sizeof title);
    fputs("{\"ruleId\":", out);
    cc_json_write_str(out, f->kind ? f->kind : "");
    fprintf(out, ",\"ruleIndex\":%zu,\"level\":\"%s\",\"message\":{\"text\":", rule_index,
            level_of(f->severity));
    if (from_access && f->message) {
        size_t n = strlen(title) + strlen(f->message) + 3;
        char *text = malloc(n);
        if (text) snprintf(text, n, "%s: %s", title, f->message);
        cc_json_write_str(out, text ? text : f->message);
        free(text);
    } else {
        cc_json_write_str(out, title);
    }
    fputc('}', out);
    if (f->has_device && (has_line(&f->device) || has_kernel(&f->device))) {
        fputs(",\"locations\":[{", out);
        write_location_body(out, &f->device, NULL);
        fputs("}]", out);
    }
    /* related places (samples are properties, not places) */
    uint32_t id = 0;
    for (uint32_t i = 0; f->related && i < f->nrelated; i++) {
        const cc_related *r = &f->related[i];
        if (is_sample(r)) continue;
        fputs(id ? ",{" : ",\"relatedLocations\":[{", out);
        fprintf(out, "\"id\":%" PRIu32 ",", id++);
        const char *role = r->role ? r->role : "related";
        size_t n = strlen(role) + (r->message ? strlen(r->message) : 0) + 3;
        char *text = malloc(n);
        if (text) snprintf(text, n, "%s%s%s", role, r->message ? ": " : "", r->message ? r->message : "");
        write_location_body(out, r->has_device ? &r->device : NULL, text ? text : role);
        free(text);
        fputc('}', out);
    }
    if (id) fputc(']', out);
    /* host stacks: the finding's own, then those of related places */
    int nstacks = 0;
    if (f->frames && f->nframes) {
        fputs(",\"stacks\":[", out);
        write_stack(out, "host stack", f->frames, f->nframes);
        nstacks++;
    }
    for (uint32_t i = 0; f->related && i < f->nrelated; i++) {
        const cc_related *r = &f->related[i];
        if (is_sample(r) || !r->frames || !r->nframes) continue;
        fputs(nstacks ? "," : ",\"stacks\":[", out);
        char label[128];
        snprintf(label, sizeof label, "host stack of %s", r->role ? r->role : "related");
        write_stack(out, label, r->frames, r->nframes);
        nstacks++;
    }
    if (nstacks) fputc(']', out);
    char *key = cc_finding_dedup_key(f);
    if (key) {
        fprintf(out, ",\"partialFingerprints\":{\"cucheckDedupKey/v1\":\"%016" PRIx64 "\"}",
                cc_hash_str(key));
        free(key);
    }
    fputc(',', out);
    write_properties(out, f, more);
    fputc('}', out);
}

/* Index of kind in kinds[0..n), or n. */
static size_t kind_index(const char *const *kinds, size_t n, const char *kind) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(kinds[i], kind) == 0) return i;
    return n;
}

static void humanize(const char *kind, char *buf, size_t len) {
    size_t k = 0;
    for (size_t i = 0; kind[i] && k + 1 < len; i++) {
        char c = kind[i] == '-' ? ' ' : kind[i];
        if (i == 0 && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        buf[k++] = c;
    }
    buf[k] = '\0';
}

void cc_write_sarif(FILE *out, const char *tool, const cc_finding *const *findings, size_t n) {
    cc_write_sarif_more(out, tool, findings, NULL, n);
}

void cc_write_sarif_more(FILE *out, const char *tool, const cc_finding *const *findings,
                         const char *const *more, size_t n) {
    /* rules: one per distinct kind, in order of first appearance */
    const char **kinds = n ? calloc(n, sizeof *kinds) : NULL;
    uint32_t *levels = n ? calloc(n, sizeof *levels) : NULL;
    size_t nk = 0;
    if (n && (!kinds || !levels)) n = 0; /* out of memory: an empty but valid log */
    for (size_t i = 0; i < n; i++) {
        const char *k = findings[i]->kind ? findings[i]->kind : "";
        if (kind_index(kinds, nk, k) == nk) {
            levels[nk] = findings[i]->severity;
            kinds[nk++] = k;
        }
    }
    fputs("{\"$schema\":\"" SARIF_SCHEMA "\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
          "{\"name\":\"cucheck\",\"version\":",
          out);
    cc_json_write_str(out, CUCHECK_VERSION);
#ifdef CUCHECK_HOMEPAGE
    fputs(",\"informationUri\":", out);
    cc_json_write_str(out, CUCHECK_HOMEPAGE);
#endif
    fputs(",\"rules\":[", out);
    for (size_t i = 0; i < nk; i++) {
        char human[256];
        humanize(kinds[i], human, sizeof human);
        fprintf(out, "%s\n{\"id\":", i ? "," : "");
        cc_json_write_str(out, kinds[i]);
        fputs(",\"shortDescription\":{\"text\":", out);
        cc_json_write_str(out, human);
        fprintf(out, "},\"defaultConfiguration\":{\"level\":\"%s\"}}", level_of(levels[i]));
    }
    fputs("]}},\"properties\":{\"tool\":", out);
    cc_json_write_str(out, tool ? tool : "");
    fputs("},\"results\":[", out);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",\n" : "\n", out);
        write_result(out, findings[i],
                     kind_index(kinds, nk, findings[i]->kind ? findings[i]->kind : ""),
                     more ? more[i] : NULL);
    }
    fputs("]}]}\n", out);
    free(kinds);
    free(levels);
}
