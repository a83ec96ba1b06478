/* Narrowing the launches in flight at a sticky error with the device's progress marks
 * (progress_narrow.h). */
#include <stdlib.h>
#include <string.h>
#include "tools/run/progress_narrow.h"

enum { PROGRESS_UNKNOWN, PROGRESS_UNFINISHED, PROGRESS_FINISHED };

void cc_run_progress_keep(cc_run_progress *p, const cc_ev_launch_progress *ev)
{
    if (p->valid) {
        return; /* only the first sticky error's report counts */
    }
    if (ev->launch_id == 0) {
        p->valid = 1;
        p->covered_from = ev->covered_from;
        p->finished = ev->finished;
        return;
    }
    if (ev->finished) {
        return;
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        uint64_t *u = realloc(p->unfinished, cap * sizeof *u);
        if (u == NULL) {
            return; /* a lost entry reads as finished: refuse the whole report instead */
        }
        p->unfinished = u;
        p->cap = cap;
    }
    p->unfinished[p->n++] = ev->launch_id;
}

void cc_run_progress_free(cc_run_progress *p)
{
    free(p->unfinished);
    memset(p, 0, sizeof *p);
}

static int is_whole_graph(const cc_inflight_launch *l)
{
    return l->graph_exec != 0 && !(l->flags & CC_LAUNCH_FLAG_GRAPH_NODE);
}

static int state_of(const cc_run_progress *p, const cc_inflight_launch *l)
{
    if (!(l->flags & CC_LAUNCH_FLAG_PROGRESS) || l->launch_id < p->covered_from ||
        is_whole_graph(l)) {
        return PROGRESS_UNKNOWN;
    }
    for (size_t i = 0; i < p->n; i++) {
        if (p->unfinished[i] == l->launch_id) {
            return PROGRESS_UNFINISHED;
        }
    }
    return PROGRESS_FINISHED;
}

static int same_stream(const cc_inflight_launch *a, const cc_inflight_launch *b)
{
    return a->context == b->context && a->stream == b->stream;
}

/* Work of one stream executes in order, so nothing launched after an unfinished kernel launch
 * on its stream (kernels, graph launches and their nodes) can have finished; nodes of one graph
 * are ordered by the graph's edges instead, so a node is never the earlier one. Returns 1 if the
 * marks say otherwise (then they are not trusted). */
static int contradicts_stream_order(const cc_inflight_launch *pending, size_t n,
                                    const int *state)
{
    for (size_t i = 0; i < n; i++) {
        if (state[i] != PROGRESS_UNFINISHED || (pending[i].flags & CC_LAUNCH_FLAG_GRAPH_NODE)) {
            continue;
        }
        for (size_t j = 0; j < n; j++) {
            if (state[j] == PROGRESS_FINISHED && same_stream(&pending[i], &pending[j]) && pending[j].seq > pending[i].seq) {
                return 1;
            }
        }
    }
    return 0;
}

size_t cc_run_progress_narrow(const cc_run_progress *p, const cc_inflight_launch *pending,
                              size_t n, unsigned char *keep, cc_run_narrowing *out)
{
    memset(out, 0, sizeof *out);
    memset(keep, 1, n);
    if (!p->valid || n == 0) {
        return n;
    }
    int *state = malloc(n * sizeof *state);
    if (state == NULL) {
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        state[i] = state_of(p, &pending[i]);
    }
    if (contradicts_stream_order(pending, n, state)) {
        out->why_not = "the device's progress marks contradict stream order, so they were not used";
        free(state);
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        if (state[i] == PROGRESS_FINISHED) {
            keep[i] = 0;
            out->finished++;
        }
    }
    /* Queued behind an unfinished kernel launch of the same stream: never started. Only when
     * some flagged launch was seen finished, which shows the marks reach the host. (A launch
     * allowed to overlap its predecessor, programmatic dependent launch, breaks this rule; the
     * launch data does not say.) */
    for (size_t i = 0; i < n && p->finished > 0; i++) {
        if (state[i] != PROGRESS_UNFINISHED || (pending[i].flags & CC_LAUNCH_FLAG_GRAPH_NODE)) {
            continue;
        }
        for (size_t j = 0; j < n; j++) {
            if (keep[j] && same_stream(&pending[i], &pending[j]) && pending[j].seq > pending[i].seq) {
                keep[j] = 0;
                out->queued++;
            }
        }
    }
    /* A whole-graph launch stays only while one of its nodes may have faulted (or none of its
     * nodes is known). */
    for (size_t i = 0; i < n; i++) {
        if (!is_whole_graph(&pending[i])) {
            continue;
        }
        size_t nodes = 0, kept = 0;
        for (size_t j = 0; j < n; j++) {
            if ((pending[j].flags & CC_LAUNCH_FLAG_GRAPH_NODE) &&
                pending[j].graph_exec == pending[i].graph_exec) {
                nodes++;
                kept += keep[j];
            }
        }
        if (nodes > 0 && kept == 0) {
            keep[i] = 0;
            out->finished++;
        }
    }
    free(state);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        kept += keep[i];
    }
    out->used = out->finished > 0 || out->queued > 0;
    return kept;
}
