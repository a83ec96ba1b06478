/* The JSON Lines writer: one finding as one {"type":"finding",...} line with stable key names
 * (docs/reports.md). Addresses, pcs and stream handles are "0x..." strings so that no reader
 * loses precision; related entries with role "sample" are written as the "samples" array. A
 * kernel is named as shown ("kernel", demangled) and, when that differs, as the binary names it
 * ("kernel_mangled"). The test that was running, when known, is "test". */
#include "core/report.h"
#include "core/report_internal.h"
#include "core/finding_util.h"
#include "core/json.h"

#include <inttypes.h>
#include <string.h>

void cc_write_device_json(FILE *out, const cc_device_loc *d) {
    const char *sep = "";
    fputc('{', out);
    if (d->valid & CC_DLOC_KERNEL) {
        fputs("\"kernel\":", out);
        cc_json_write_str(out, d->kernel);
        if (d->kernel_mangled) {
            fputs(",\"kernel_mangled\":", out);
            cc_json_write_str(out, d->kernel_mangled);
        }
        fprintf(out, ",\"launch_id\":%" PRIu64 ",\"stream\":", d->launch_id);
        cc_json_write_hex(out, d->stream);
        sep = ",";
    }
    if (d->valid & CC_DLOC_PC) {
        fprintf(out, "%s\"pc\":", sep);
        cc_json_write_hex(out, d->pc);
        sep = ",";
    }
    if (d->valid & CC_DLOC_LINE) {
        fprintf(out, "%s\"file\":", sep);
        cc_json_write_str(out, d->file);
        fprintf(out, ",\"line\":%" PRIu32, d->line);
        sep = ",";
    }
    if (d->valid & CC_DLOC_THREAD) {
        fprintf(out, "%s\"block\":", sep);
        cc_json_write_dim3(out, d->block);
        fputs(",\"thread\":", out);
        cc_json_write_dim3(out, d->thread);
        sep = ",";
    }
    if (d->valid & CC_DLOC_ADDRESS) {
        fprintf(out, "%s\"address\":", sep);
        cc_json_write_hex(out, d->address);
        fprintf(out, ",\"size\":%" PRIu32 ",\"access\":", d->size);
        cc_json_write_str(out, cc_access_name(d->access));
        fputs(",\"space\":", out);
        cc_json_write_str(out, cc_mem_space_name(d->space));
    }
    fputc('}', out);
}

static void write_frames(FILE *out, const cc_stack_frame *fr, uint32_t n) {
    fputc('[', out);
    for (uint32_t i = 0; fr && i < n; i++) {
        fprintf(out, "%s{\"pc\":", i ? "," : "");
        cc_json_write_hex(out, fr[i].pc);
        if (fr[i].text) {
            fputs(",\"text\":", out);
            cc_json_write_str(out, fr[i].text);
        }
        fputc('}', out);
    }
    fputc(']', out);
}

static int is_sample(const cc_related *r) {
    return r->role && strcmp(r->role, CC_RELATED_SAMPLE) == 0 && r->has_device &&
           (r->device.valid & CC_DLOC_THREAD);
}

static void write_finding(FILE *out, const cc_finding *f, uint64_t id, const char *more);

void cc_write_finding_jsonl_id(FILE *out, const cc_finding *f, uint64_t id) {
    write_finding(out, f, id, NULL);
}

void cc_write_finding_jsonl_more(FILE *out, const cc_finding *f, const char *more) {
    write_finding(out, f, 0, more);
}

static void write_finding(FILE *out, const cc_finding *f, uint64_t id, const char *more) {
    fputs("{\"type\":\"finding\"", out);
    if (id) fprintf(out, ",\"id\":%" PRIu64, id);
    fputs(",\"tool\":", out);
    cc_json_write_str(out, f->tool ? f->tool : "");
    fputs(",\"kind\":", out);
    cc_json_write_str(out, f->kind ? f->kind : "");
    fputs(",\"severity\":", out);
    cc_json_write_str(out, cc_severity_name(f->severity));
    if (f->message) {
        fputs(",\"message\":", out);
        cc_json_write_str(out, f->message);
    }
    fprintf(out, ",\"count\":%" PRIu64, f->count ? f->count : 1);
    if (f->test) {
        fputs(",\"test\":", out);
        cc_json_write_str(out, f->test);
    }
    if (f->has_device) {
        fputs(",\"device\":", out);
        cc_write_device_json(out, &f->device);
    }
    if (f->frames && f->nframes) {
        fputs(",\"frames\":", out);
        write_frames(out, f->frames, f->nframes);
    }
    uint32_t nrel = f->related ? f->nrelated : 0, nsamples = 0, nother = 0;
    for (uint32_t i = 0; i < nrel; i++) {
        if (is_sample(&f->related[i])) nsamples++;
        else nother++;
    }
    if (nother) {
        fputs(",\"related\":[", out);
        const char *sep = "";
        for (uint32_t i = 0; i < nrel; i++) {
            const cc_related *r = &f->related[i];
            if (is_sample(r)) continue;
            fprintf(out, "%s{\"role\":", sep);
            cc_json_write_str(out, r->role ? r->role : "");
            if (r->message) {
                fputs(",\"message\":", out);
                cc_json_write_str(out, r->message);
            }
            if (r->has_device) {
                fputs(",\"device\":", out);
                cc_write_device_json(out, &r->device);
            }
            if (r->frames && r->nframes) {
                fputs(",\"frames\":", out);
                write_frames(out, r->frames, r->nframes);
            }
            fputc('}', out);
            sep = ",";
        }
        fputc(']', out);
    }
    if (nsamples) {
        fputs(",\"samples\":[", out);
        const char *sep = "";
        for (uint32_t i = 0; i < nrel; i++) {
            const cc_related *r = &f->related[i];
            if (!is_sample(r)) continue;
            fprintf(out, "%s{\"block\":", sep);
            cc_json_write_dim3(out, r->device.block);
            fputs(",\"thread\":", out);
            cc_json_write_dim3(out, r->device.thread);
            fputc('}', out);
            sep = ",";
        }
        fputc(']', out);
    }
    if (more) fputs(more, out);
    fputs("}\n", out);
}

void cc_write_finding_jsonl(FILE *out, const cc_finding *f) { cc_write_finding_jsonl_id(out, f, 0); }
