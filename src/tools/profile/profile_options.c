/* profile's options (profile_options.h): table and the one reader that checks every value. */
#include "tools/profile/profile_options.h"

#include <string.h>

#include "core/option_values.h"

const cc_option_spec cc_profile_option_specs[] = {
    {"trace", 1, "FILE", "write the timeline as Chrome/Perfetto trace JSON to FILE (%p = pid, "
                         "%q{VAR} = environment variable, e.g. trace.%q{RANK}.json, %r = "
                         "rank<R>.); several processes of a plain FILE are merged into it"},
    {"summary", 1, "FORMAT", "summary format: text (default), csv, json, or none"},
    {"summary-file", 1, "FILE", "write the summary to FILE (%p, %q{VAR}) instead of stderr"},
    {"gzip", 0, NULL, "gzip the trace (FILE.gz; needs zlib, libz.so.1, at run time)"},
    {"merge-trace", 1, "FILE", "with a --trace pattern of one file per process (%p, %q{VAR}, "
                               "%r), also merge the run's traces into FILE at the end"},
    {NULL, 0, NULL, NULL},
};

int cc_profile_options_read(cc_profile_options *out, cc_option_get get, void *ctx, char *err,
                            size_t errlen)
{
    static const char *const formats[] = {"text", "csv", "json", "none", NULL};
    static const cc_prof_format format_values[] = {CC_PROF_SUMMARY_TEXT, CC_PROF_SUMMARY_CSV,
                                                   CC_PROF_SUMMARY_JSON, CC_PROF_SUMMARY_TEXT};
    memset(out, 0, sizeof *out);
    out->format = CC_PROF_SUMMARY_TEXT;
    const char *v = get(ctx, "summary");
    if (v != NULL) {
        int i = 0;
        if (cc_optval_choice("summary", v, formats, &i, err, errlen) != 0) {
            return -1;
        }
        out->format = format_values[i];
        out->summary_none = strcmp(formats[i], "none") == 0;
    }
    out->trace = get(ctx, "trace");
    if (out->trace != NULL && cc_optval_output_pattern("trace", out->trace, err, errlen) != 0) {
        return -1;
    }
    out->summary_file = get(ctx, "summary-file");
    if (out->summary_file != NULL &&
        cc_optval_output_pattern("summary-file", out->summary_file, err, errlen) != 0) {
        return -1;
    }
    out->gzip = get(ctx, "gzip") != NULL;
    out->merge_trace = get(ctx, "merge-trace");
    if (out->merge_trace != NULL) {
        if (cc_optval_output_pattern("merge-trace", out->merge_trace, err, errlen) != 0) {
            return -1;
        }
        if (strchr(out->merge_trace, '%') != NULL) {
            return cc_optval_refuse("merge-trace", out->merge_trace,
                                    "a file name without %: the one merged trace", err, errlen);
        }
        if (out->trace == NULL || !cc_profile_trace_per_process(out->trace)) {
            return cc_optval_refuse("merge-trace", out->merge_trace,
                                    "a file beside --trace with %p, %q{VAR} or %r (a plain "
                                    "--trace FILE is merged into FILE already)", err, errlen);
        }
    }
    return 0;
}

int cc_profile_trace_per_process(const char *pattern)
{
    for (const char *p = pattern; p && *p; p++) {
        if (p[0] != '%') {
            continue;
        }
        if (p[1] == 'p' || p[1] == 'r' || (p[1] == 'q' && p[2] == '{')) {
            return 1;
        }
        if (p[1] == '%') {
            p++;
        }
    }
    return 0;
}

int cc_profile_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_profile_options o;
    return cc_profile_options_read(&o, get, ctx, err, errlen);
}
