/* The `profile` tool: collects the activity the CUPTI backend reports (kernels, copies, memsets,
 * synchronisations, API calls, NVTX ranges), and at the end of the process writes an
 * nsys-stats-like summary (text, CSV or JSON; with per-launch-configuration occupancy) and, when
 * asked, a Chrome/Perfetto timeline (optionally gzip'ed). Outputs are written when the process
 * exits — also on a fatal signal, when the agent emits PROCESS_EXIT from its crash path — or at
 * the end of a replayed stream. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/report.h"
#include "cucheck/tool.h"
#include "tools/profile/profile.h"
#include "tools/profile/profile_options.h"

#define PROF_PATH_MAX 4096

typedef struct prof_state {
    cc_tool_host *host;
    cc_prof_data data;
    const char *trace_pattern;   /* NULL: no timeline */
    const char *summary_pattern; /* NULL: summary on stderr */
    int summary_none;
    cc_prof_format format;
    int gzip;
    int finished;
    cc_demangle_cache *kernel_names; /* the summary's and the trace's, demangled once each */
} prof_state;

static void *profile_init(cc_tool_host *host, char *err, size_t errlen)
{
    cc_profile_options opts;
    if (cc_profile_options_read(&opts, cc_tool_host_option, host, err, errlen) != 0) {
        return NULL;
    }
    prof_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->host = host;
    s->summary_none = opts.summary_none;
    s->format = opts.format;
    s->trace_pattern = opts.trace;
    s->summary_pattern = opts.summary_file;
    s->gzip = opts.gzip;
    s->kernel_names = cc_demangle_cache_new(); /* NULL: each writer demangles on its own */
    cc_prof_data_init(&s->data);
    return s;
}

static int expand(prof_state *s, const char *pattern, char *out, size_t outlen)
{
    int pid = s->data.pid ? (int)s->data.pid : (int)getpid();
    if (cc_expand_report_name(pattern, pid, out, outlen) != 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "profile: file name pattern '%.150s' is too long or has an "
                                  "unterminated %%q{", pattern);
        s->host->note(s->host, msg);
        return -1;
    }
    return 0;
}

static void write_summary(prof_state *s, const cc_prof_stats *st)
{
    if (s->summary_none) return;
    if (!s->summary_pattern) {
        cc_prof_write_summary(stderr, &s->data, st, s->format, s->kernel_names);
        fflush(stderr);
        return;
    }
    char path[PROF_PATH_MAX], err[PROF_PATH_MAX + 128], msg[PROF_PATH_MAX + 160];
    if (expand(s, s->summary_pattern, path, sizeof path) != 0) return;
    int gz = 0;
    FILE *f = cc_prof_open_write(path, 0, &gz, err, sizeof err);
    if (!f) {
        snprintf(msg, sizeof msg, "profile: summary not written: %s", err);
        s->host->note(s->host, msg);
        return;
    }
    cc_prof_write_summary(f, &s->data, st, s->format, s->kernel_names);
    int bad = ferror(f) | (fclose(f) != 0);
    snprintf(msg, sizeof msg, "profile: summary %s %s", bad ? "could not be written to" :
             "written to", path);
    s->host->note(s->host, msg);
}

static void write_trace(prof_state *s)
{
    if (!s->trace_pattern) return;
    char path[PROF_PATH_MAX], err[PROF_PATH_MAX + 128], msg[PROF_PATH_MAX + 200];
    if (expand(s, s->trace_pattern, path, sizeof path) != 0) return;
    size_t len = strlen(path);
    int ends_gz = len > 3 && strcmp(path + len - 3, ".gz") == 0;
    int want_gz = s->gzip || ends_gz;
    const char *fallback = "";
    if (want_gz && !cc_prof_zlib_available()) {
        if (ends_gz) path[len - 3] = '\0';
        want_gz = 0;
        fallback = " (uncompressed: zlib, libz.so.1, is not available)";
    } else if (want_gz && !ends_gz && len + 3 < sizeof path) {
        strcat(path, ".gz");
    }
    int gz = 0;
    FILE *f = cc_prof_open_write(path, want_gz, &gz, err, sizeof err);
    if (!f) {
        snprintf(msg, sizeof msg, "profile: trace not written: %s", err);
        s->host->note(s->host, msg);
        return;
    }
    int bad = cc_prof_write_trace(f, &s->data, s->kernel_names) != 0;
    bad |= fclose(f) != 0;
    /* A part of a several-process trace (cli/trace_parts.c: FILE.RUNID.rank<R>.PID.part): the
     * CLI merges the parts into FILE at the end and removes them. */
    size_t plen = strlen(path);
    int part = (plen > 5 && strcmp(path + plen - 5, ".part") == 0) ||
               (plen > 8 && strcmp(path + plen - 8, ".part.gz") == 0);
    snprintf(msg, sizeof msg, "profile: trace %s %s%s%s", bad ? "could not be fully written to" :
             "written to", path, fallback,
             part ? " (this process's part: cucheck merges the parts into one trace at the end)"
                  : "");
    s->host->note(s->host, msg);
}

static void finish(prof_state *s)
{
    if (s->finished) return;
    s->finished = 1;
    cc_prof_data *d = &s->data;
    cc_prof_stats st;
    char msg[512];
    if (cc_prof_stats_build(d, &st) != 0) {
        s->host->note(s->host, "profile: out of memory while building the statistics");
        return;
    }
    write_summary(s, &st);
    write_trace(s);
    snprintf(msg, sizeof msg,
             "profile: %zu kernel instance(s) of %zu kernel(s), %.3f ms of GPU kernel time; %zu "
             "memory operation(s), %zu API call(s), %zu NVTX range(s)",
             d->nkernels, st.kernels.n, st.kernel_total_ns / 1e6, d->ncopies, d->napis,
             d->nranges);
    s->host->note(s->host, msg);
    if (d->dropped) {
        snprintf(msg, sizeof msg, "profile: %" PRIu64 " activity record(s) were dropped by the "
                                  "backend; counts and times miss them", d->dropped);
        s->host->note(s->host, msg);
    }
    if (d->oom) s->host->note(s->host, "profile: out of memory: some records were not kept");
    cc_prof_stats_free(&st);
}

static void profile_on_event(void *state, const cc_event *ev)
{
    prof_state *s = state;
    if (s->finished) return;
    cc_prof_data_add(&s->data, ev);
    if (ev->h.kind == CC_EV_PROCESS_EXIT) finish(s); /* also reached from the crash path */
}

static void profile_on_exit(void *state)
{
    prof_state *s = state;
    finish(s);
    cc_prof_data_free(&s->data);
    cc_demangle_cache_free(s->kernel_names);
    free(s);
}

const cc_tool cc_tool_profile = {
    .name = "profile",
    .summary = "profile the GPU work (CUPTI): kernel/API/memory statistics with occupancy, "
               "and a Chrome/Perfetto timeline",
    .options = cc_profile_option_specs,
    .check_options = cc_profile_options_check,
    .init = profile_init,
    .on_event = profile_on_event,
    .on_exit = profile_on_exit,
};
