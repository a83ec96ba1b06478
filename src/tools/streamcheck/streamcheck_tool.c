/* The `streamcheck` tool: finds accesses to the same memory by GPU work (kernels, copies,
 * memsets, graph nodes, host functions, NCCL operations) and host threads that CUDA does not order, and misuse of
 * stream-ordered memory. It feeds every event to the happens-before engine (core/hb_engine.h)
 * and reports each issue with both sides, their host stacks, the allocation and the fix.
 * Asynchronous (sticky) errors are attributed to their launch as `run` does
 * (tools/async_error/attribution.h).
 * Options (sc_options.c): --mode full|default|api (which access sets are used),
 * --merge-host-threads, --sync-copies documented|full, --launch-skip/--launch-count (which
 * launches' accesses are checked, sc_window.h), --library-races. Ends with a note of what was
 * checked and of the races inside NVIDIA libraries it counted instead of reporting. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cucheck/tool.h"
#include "core/hb_engine.h"
#include "tools/async_error/attribution.h"
#include "tools/streamcheck/sc_coverage.h"
#include "tools/streamcheck/sc_options.h"
#include "tools/streamcheck/sc_report.h"
#include "tools/streamcheck/sc_window.h"

typedef struct sc_state {
    cc_tool_host *host;
    cc_hb *hb;
    sc_cov *cov;           /* how launches got their access sets (closing note) */
    cc_async_errors *async_errors; /* sticky errors attributed to their launch */
    uint32_t mode;
    sc_window window;      /* --launch-skip / --launch-count */
} sc_state;

static void on_issue(void *ctx, const cc_hb_issue *is)
{
    sc_state *s = ctx;
    sc_report_issue(s->host, is, cc_async_errors_kernel_names(s->async_errors));
}

static void *sc_init(cc_tool_host *host, char *err, size_t errlen)
{
    cc_streamcheck_options opts;
    if (cc_streamcheck_options_read(&opts, cc_tool_host_option, host, err, errlen) != 0)
        return NULL;
    cc_hb_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.mode = (uint32_t)opts.mode;
    cfg.sync_copies_full = opts.sync_copies_full;
    cfg.merge_host_threads = opts.merge_host_threads;
    cfg.library_issues = opts.library_races;
    sc_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->host = host;
    s->mode = cfg.mode;
    sc_window_init(&s->window, opts.launch_skip, opts.launch_count);
    cfg.on_issue = on_issue;
    cfg.ctx = s;
    s->hb = cc_hb_new(&cfg);
    s->cov = sc_cov_new();
    s->async_errors = cc_async_errors_new(host, "streamcheck");
    if (!s->hb || !s->cov || !s->async_errors) {
        snprintf(err, errlen, "out of memory");
        if (s->hb) cc_hb_free(s->hb);
        sc_cov_free(s->cov);
        cc_async_errors_free(s->async_errors);
        free(s);
        return NULL;
    }
    return s;
}

static void sc_on_event(void *state, const cc_event *ev)
{
    sc_state *s = state;
    if (!sc_window_pass(&s->window, ev)) {
        return;
    }
    cc_hb_event(s->hb, ev);
    sc_cov_event(s->cov, ev);
    cc_async_errors_event(s->async_errors, ev); /* streamcheck labels no API error itself */
}

/* Races inside NVIDIA libraries, counted instead of reported: one note naming each library. */
static void note_library_internal(cc_tool_host *host, const cc_hb_stats *st)
{
    char note[512];
    size_t used = 0;
    uint64_t total = 0;
    for (uint32_t lib = CC_NVLIB_NONE + 1; lib < CC_NVLIB_COUNT; lib++) {
        if (st->library_internal[lib] == 0) continue;
        if (used < sizeof note)
            used += (size_t)snprintf(note + used, sizeof note - used, "%s%s %" PRIu64,
                                     total ? ", " : "", cc_nvlib_title(lib),
                                     st->library_internal[lib]);
        total += st->library_internal[lib];
    }
    if (total == 0) return;
    char line[768];
    snprintf(line, sizeof line,
             "streamcheck: %" PRIu64 " issue(s) inside NVIDIA libraries not reported (%s): on "
             "memory the library allocated for itself, with one side on a stream it created, so "
             "the program can neither order nor fix them; --library-races reports them",
             total, note);
    host->note(host, line);
}

static const char *mode_name(uint32_t mode)
{
    return mode == CC_HB_MODE_FULL ? "full" : mode == CC_HB_MODE_API ? "api" : "default";
}

static void sc_on_exit(void *state)
{
    sc_state *s = state;
    const cc_hb_stats *st = cc_hb_get_stats(s->hb);
    char note[1024];
    snprintf(note, sizeof note,
             "streamcheck (mode %s): ordered %" PRIu64 " kernel launch(es), %" PRIu64
             " graph launch(es) with %" PRIu64 " node(s), %" PRIu64 " copies, %" PRIu64
             " memsets, %" PRIu64 " synchronization(s); access sets: %" PRIu64
             " instrumented, %" PRIu64 " learned, %" PRIu64 " inferred, %" PRIu64
             " host access(es), %" PRIu64 " ignored; %" PRIu64 " operation(s) skipped inside "
             "stream capture",
             mode_name(s->mode), st->launches, st->graph_launches, st->graph_nodes, st->copies,
             st->memsets, st->syncs, st->by_source[CC_ACCESS_SRC_INSTRUMENTED] +
                                         st->by_source[CC_ACCESS_SRC_UNKNOWN],
             st->by_source[CC_ACCESS_SRC_LEARNED], st->by_source[CC_ACCESS_SRC_INFERRED],
             st->host_accesses, st->accesses_ignored, st->captured_ops);
    if (st->collectives != 0) {
        size_t used = strlen(note);
        snprintf(note + used, sizeof note - used, "; %" PRIu64 " NCCL operation(s)",
                 st->collectives);
    }
    s->host->note(s->host, note);
    note_library_internal(s->host, st);
    char fell[2048];
    sc_cov_note(s->cov, cc_async_errors_kernel_names(s->async_errors), note, sizeof note, fell,
                sizeof fell);
    s->host->note(s->host, note);
    if (fell[0] != '\0')
        s->host->note(s->host, fell);
    if (s->mode == CC_HB_MODE_API)
        s->host->note(s->host,
                      "streamcheck: --mode api assumes every pointer argument is read and "
                      "written in full; races it reports may involve memory a kernel never "
                      "touches (confirm with --mode default or full)");
    if (st->out_of_memory)
        s->host->note(s->host, "streamcheck: ran out of memory; some accesses were not checked");
    if (s->window.left_out) {
        snprintf(note, sizeof note,
                 "streamcheck: --launch-skip/--launch-count: the accesses of %" PRIu64
                 " of %" PRIu64 " kernel launch(es) were not checked (they were ordered, but are "
                 "no side of a race)", s->window.left_out, s->window.seen);
        s->host->note(s->host, note);
    }
    sc_window_free(&s->window);
    cc_async_errors_note(s->async_errors, 1);
    cc_hb_free(s->hb);
    sc_cov_free(s->cov);
    cc_async_errors_free(s->async_errors);
    free(s);
}

const cc_tool cc_tool_streamcheck = {
    .name = "streamcheck",
    .summary = "find accesses by streams, graphs and host threads that CUDA does not order "
               "(stream races, stream-ordered allocation misuse), with the fix",
    .options = cc_streamcheck_option_specs,
    .check_options = cc_streamcheck_options_check,
    .init = sc_init,
    .on_event = sc_on_event,
    .on_exit = sc_on_exit,
};
