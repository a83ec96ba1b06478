/* Merging the timelines of a profiled program's processes into the one trace the user named
 * (trace_parts.h). */
#include "cli/trace_parts.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/report.h"
#include "cli/diag.h"
#include "cli/reports.h"
#include "tools/profile/profile.h"
#include "tools/profile/profile_options.h"

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* The merged file's name as the agent would write FILE: ".gz" added under --gzip, dropped when
 * zlib cannot be loaded (then the trace is written plain, as the agent does). */
static int final_name(cc_trace_parts *t, const char *abs, int gzip_opt)
{
    int want_gz = gzip_opt || ends_with(abs, ".gz");
    t->final_gz = want_gz && cc_prof_zlib_available();
    int n = snprintf(t->final, sizeof t->final, "%s", abs);
    if (n < 0 || (size_t)n + 4 > sizeof t->final) {
        return -1;
    }
    if (!t->final_gz && ends_with(t->final, ".gz")) {
        t->final[strlen(t->final) - 3] = '\0';
    } else if (t->final_gz && !ends_with(t->final, ".gz")) {
        strcat(t->final, ".gz");
    }
    return 0;
}

static int prepare_parts(cc_trace_parts *t, cc_options *opts, const char *trace,
                         const char *run_id, int gzip_opt, char *err, size_t errlen)
{
    char abs[4096], plain[4096], pattern[4096];
    /* no expansion but %%: the name the processes would have written */
    if (cc_cli_absolute(trace, plain, sizeof plain) != 0 ||
        cc_expand_report_name(plain, 0, abs, sizeof abs) != 0 || final_name(t, abs, gzip_opt)) {
        snprintf(err, errlen, "profile: --trace '%s': path too long", trace);
        return -1;
    }
    int gz = ends_with(plain, ".gz");
    int n = snprintf(pattern, sizeof pattern, "%.*s.%s.%%r%%p.part%s",
                     (int)(strlen(plain) - (gz ? 3 : 0)), plain, run_id, gz ? ".gz" : "");
    char g[sizeof t->glob - 2];
    if (n < 0 || (size_t)n >= sizeof pattern || cc_cli_pattern_glob(pattern, g, sizeof g) != 0) {
        snprintf(err, errlen, "profile: --trace '%s': path too long", trace);
        return -1;
    }
    /* the agent may add ".gz" (--gzip) or drop it (no zlib) */
    if (gz) {
        g[strlen(g) - 3] = '\0';
    }
    snprintf(t->glob, sizeof t->glob, "%s*", g);
    if (cc_options_set(opts, "trace", pattern) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    t->mode = CC_TRACE_MERGE_PARTS;
    return 0;
}

static int prepare_explicit(cc_trace_parts *t, const char *trace, const char *merge,
                            int gzip_opt, char *err, size_t errlen)
{
    char abs[4096], merged[4096], g[sizeof t->glob - 2];
    if (cc_cli_absolute(trace, abs, sizeof abs) != 0 ||
        cc_cli_absolute(merge, merged, sizeof merged) != 0 || final_name(t, merged, gzip_opt) ||
        cc_cli_pattern_glob(abs, g, sizeof g) != 0) {
        snprintf(err, errlen, "profile: --merge-trace '%s': path too long", merge);
        return -1;
    }
    if (ends_with(g, ".gz")) {
        g[strlen(g) - 3] = '\0';
    }
    snprintf(t->glob, sizeof t->glob, "%s*", g);
    clock_gettime(CLOCK_REALTIME, &t->start);
    t->mode = CC_TRACE_MERGE_EXPLICIT;
    return 0;
}

int cc_trace_parts_prepare(cc_trace_parts *t, const char *tool, cc_options *opts,
                           const char *run_id, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (strcmp(tool, "profile") != 0) {
        return 0;
    }
    const char *trace = cc_options_get(opts, "trace");
    const char *merge = cc_options_get(opts, "merge-trace");
    int gzip_opt = cc_options_get(opts, "gzip") != NULL;
    if (!trace) {
        return 0;
    }
    if (!cc_profile_trace_per_process(trace)) {
        return prepare_parts(t, opts, trace, run_id, gzip_opt, err, errlen);
    }
    return merge ? prepare_explicit(t, trace, merge, gzip_opt, err, errlen) : 0;
}

/* A file this merge takes: a regular file, not the output, in explicit mode written since the
 * run started (file times lag the clock by up to a tick: 100 ms of slack). */
static int takes(const cc_trace_parts *t, const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || strcmp(path, t->final) == 0) {
        return 0;
    }
    if (t->mode != CC_TRACE_MERGE_EXPLICIT) {
        return 1;
    }
    long long since = (long long)t->start.tv_sec * 1000000000LL + t->start.tv_nsec;
    long long at = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    return at >= since - 100000000LL;
}

/* One part: copied byte for byte (plain or gzip'ed as the agent wrote it). */
static int copy_one(const char *from, FILE *out, char *err, size_t errlen)
{
    FILE *in = fopen(from, "rb");
    if (!in) {
        snprintf(err, errlen, "%s: %s", from, strerror(errno));
        return -1;
    }
    char buf[65536];
    size_t n;
    int bad = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        bad |= fwrite(buf, 1, n, out) != n;
    }
    bad |= ferror(in);
    fclose(in);
    if (bad) {
        snprintf(err, errlen, "%s: read or write error", from);
    }
    return bad ? -1 : 0;
}

int cc_trace_parts_finish(const cc_trace_parts *t, int keep_parts, int quiet)
{
    if (t->mode == CC_TRACE_MERGE_NONE) {
        return 0;
    }
    glob_t gl;
    memset(&gl, 0, sizeof gl);
    if (glob(t->glob, 0, NULL, &gl) != 0) {
        globfree(&gl);
        return 0; /* no process wrote a trace: the profile's notes say why */
    }
    const char **in = calloc(gl.gl_pathc + 1, sizeof *in);
    size_t n = 0;
    for (size_t i = 0; in && i < gl.gl_pathc; i++) {
        if (takes(t, gl.gl_pathv[i])) {
            in[n++] = gl.gl_pathv[i];
        }
    }
    char err[4096 + 256] = "";
    int rc = -1;
    FILE *out = NULL;
    int gz_used = 0;
    if (!in) {
        snprintf(err, sizeof err, "out of memory");
    } else if (n == 0) {
        rc = 0;
    } else if ((out = cc_prof_open_write(t->final, n > 1 && t->final_gz, &gz_used, err,
                                         sizeof err)) != NULL) {
        rc = n == 1 && t->mode == CC_TRACE_MERGE_PARTS
                 ? copy_one(in[0], out, err, sizeof err)
                 : cc_prof_merge_traces(in, n, out, err, sizeof err);
        if (fclose(out) != 0 && rc == 0) {
            snprintf(err, sizeof err, "%s: %s", t->final, strerror(errno));
            rc = -1;
        }
    }
    int parts = t->mode == CC_TRACE_MERGE_PARTS;
    if (rc != 0) {
        cc_cli_error("profile: the traces of %zu process%s were not merged into %s: %s%s", n,
                     n == 1 ? "" : "es", t->final, err, parts ? "; the parts are kept" : "");
    } else if (n > 0) {
        for (size_t i = 0; parts && !keep_parts && i < n; i++) {
            if (unlink(in[i]) != 0) {
                cc_cli_error("cannot remove '%s': %s", in[i], strerror(errno));
            }
        }
        if (!quiet) {
            cc_cli_error("profile: %s of %zu process%s %s %s", n == 1 ? "trace" : "traces", n,
                         n == 1 ? "" : "es", n == 1 ? "written to" : "merged into", t->final);
        }
    }
    free(in);
    globfree(&gl);
    return rc;
}
