/* The `streamcheck` tool: finds accesses to the same memory by GPU work (kernels, copies,
 * memsets, graph nodes, host functions) and host threads that CUDA does not order, and misuse of
 * stream-ordered memory. It feeds every event to the happens-before engine (core/hb_engine.h)
 * and reports each issue with both sides, their host stacks, the allocation and the fix.
 * Options: --mode full|default|api (which access sets are used), --merge-host-threads,
 * --sync-copies documented|full. Ends with a note of what was checked. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cucheck/tool.h"
#include "core/hb_engine.h"
#include "tools/streamcheck/sc_coverage.h"
#include "tools/streamcheck/sc_report.h"

typedef struct sc_state {
    cc_tool_host *host;
    cc_hb *hb;
    sc_cov *cov;           /* how launches got their access sets (closing note) */
    uint32_t mode;
} sc_state;

static const cc_option_spec sc_options[] = {
    {"mode", 1, "full|default|api",
     "which access sets are used: full = instrumented on the device only; default = "
     "instrumented and learned, inferred where none; api = inferred from pointer arguments only "
     "(may report races on buffers a kernel does not touch)"},
    {"merge-host-threads", 0, NULL,
     "treat all host threads as one, ordered as their calls were seen (fewer reports when the "
     "program orders its threads itself)"},
    {"sync-copies", 1, "documented|full",
     "documented (default): only the host orderings the CUDA documentation guarantees; full: "
     "every synchronous cudaMemcpy waits for the copy to complete (CuSan's assumption)"},
    {NULL, 0, NULL, NULL},
};

static void on_issue(void *ctx, const cc_hb_issue *is)
{
    sc_state *s = ctx;
    sc_report_issue(s->host, is);
}

static void *sc_init(cc_tool_host *host, char *err, size_t errlen)
{
    cc_hb_config cfg;
    memset(&cfg, 0, sizeof cfg);
    const char *mode = host->option(host, "mode");
    if (!mode || strcmp(mode, "default") == 0) cfg.mode = CC_HB_MODE_DEFAULT;
    else if (strcmp(mode, "full") == 0) cfg.mode = CC_HB_MODE_FULL;
    else if (strcmp(mode, "api") == 0) cfg.mode = CC_HB_MODE_API;
    else {
        snprintf(err, errlen, "bad --mode '%s' (expected full, default or api)",
                 mode);
        return NULL;
    }
    const char *copies = host->option(host, "sync-copies");
    if (copies && strcmp(copies, "full") == 0) cfg.sync_copies_full = 1;
    else if (copies && strcmp(copies, "documented") != 0) {
        snprintf(err, errlen,
                 "bad --sync-copies '%s' (expected documented or full)", copies);
        return NULL;
    }
    cfg.merge_host_threads = host->option(host, "merge-host-threads") != NULL;
    sc_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->host = host;
    s->mode = cfg.mode;
    cfg.on_issue = on_issue;
    cfg.ctx = s;
    s->hb = cc_hb_new(&cfg);
    s->cov = sc_cov_new();
    if (!s->hb || !s->cov) {
        snprintf(err, errlen, "out of memory");
        if (s->hb) cc_hb_free(s->hb);
        sc_cov_free(s->cov);
        free(s);
        return NULL;
    }
    return s;
}

static void sc_on_event(void *state, const cc_event *ev)
{
    sc_state *s = state;
    cc_hb_event(s->hb, ev);
    sc_cov_event(s->cov, ev);
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
    s->host->note(s->host, note);
    char fell[2048];
    sc_cov_note(s->cov, note, sizeof note, fell, sizeof fell);
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
    cc_hb_free(s->hb);
    sc_cov_free(s->cov);
    free(s);
}

const cc_tool cc_tool_streamcheck = {
    .name = "streamcheck",
    .summary = "find accesses by streams, graphs and host threads that CUDA does not order "
               "(stream races, stream-ordered allocation misuse), with the fix",
    .options = sc_options,
    .init = sc_init,
    .on_event = sc_on_event,
    .on_exit = sc_on_exit,
};
