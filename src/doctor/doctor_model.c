/* Small pieces of doctor's model shared by the probes and the printers: names of library
 * kinds, origins and verdict levels, adding verdicts and binaries. */
#include "doctor/doctor.h"
#include "doctor/probe.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cc_doc_lib_name(int kind)
{
    static const char *const names[CC_LIB_KIND_COUNT] = {
        "CUDA runtime", "cuBLAS", "cuBLASLt", "cuDNN", "NCCL", "CUPTI", "NVRTC", "nvJitLink",
        "Compute Sanitizer API"};
    return kind >= 0 && kind < CC_LIB_KIND_COUNT ? names[kind] : "?";
}

const char *cc_doc_origin_name(int origin)
{
    static const char *const names[CC_ORIGIN_COUNT] = {
        "LD_LIBRARY_PATH", "ldconfig", "toolkit", "python", "program", "argument"};
    return origin >= 0 && origin < CC_ORIGIN_COUNT ? names[origin] : "?";
}

const char *cc_doc_level_name(int level)
{
    switch (level) {
    case CC_DOC_OK: return "OK";
    case CC_DOC_WARN: return "WARN";
    case CC_DOC_FAIL: return "FAIL";
    default: return "INFO";
    }
}

void cc_doc_add_verdict(cc_doc_report *r, int level, const char *topic, const char *subject,
                        const char *fix, const char *fmt, ...)
{
    if (r->nverdicts >= CC_DOC_MAX_VERDICTS)
        return;
    cc_doc_verdict *v = &r->verdicts[r->nverdicts++];
    memset(v, 0, sizeof *v);
    v->level = level;
    snprintf(v->topic, sizeof v->topic, "%s", topic ? topic : "");
    snprintf(v->subject, sizeof v->subject, "%s", subject ? subject : "");
    snprintf(v->fix, sizeof v->fix, "%s", fix ? fix : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->text, sizeof v->text, fmt, ap);
    va_end(ap);
}

int cc_doc_add_binary(cc_doc_report *r, const char *path, const char *label, int origin,
                      int keep_empty)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        if (!keep_empty)
            return -1;
        snprintf(real, sizeof real, "%s", path);
    }
    for (int i = 0; i < r->nbins; i++)
        if (strcmp(r->bins[i].path, real) == 0)
            return i;
    if (r->nbins >= CC_DOC_MAX_BINS)
        return -1;
    cc_doc_binary *b = &r->bins[r->nbins];
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "%s", real);
    snprintf(b->label, sizeof b->label, "%s", label);
    b->origin = origin;
    cc_doc_scan_archs(real, &b->archs);
    if (!b->archs.has_device_code && !keep_empty)
        return -1;
    return r->nbins++;
}

int cc_doctor_failed(const cc_doc_report *r)
{
    for (int i = 0; i < r->nverdicts; i++)
        if (r->verdicts[i].level == CC_DOC_FAIL)
            return 1;
    return 0;
}
