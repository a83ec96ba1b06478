/* Narrowing the launches in flight at a sticky error with the device's progress marks
 * (progress_narrow.h). */
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/async_error/progress_narrow.h"

enum { PROGRESS_UNKNOWN, PROGRESS_NOT_STARTED, PROGRESS_RUNNING, PROGRESS_FINISHED };

static int by_launch_id(const void *a, const void *b)
{
    uint64_t x = ((const cc_async_progress_entry *)a)->launch_id;
    uint64_t y = ((const cc_async_progress_entry *)b)->launch_id;
    return x < y ? -1 : x > y;
}

void cc_async_progress_keep(cc_async_progress *p, const cc_ev_launch_progress *ev)
{
    if (p->valid) {
        return; /* only the first sticky error's report counts */
    }
    if (ev->launch_id == 0) { /* the summary comes last: sort the entries for lookups */
        if (p->n > 1) {
            qsort(p->unfinished, p->n, sizeof *p->unfinished, by_launch_id);
        }
        p->valid = 1;
        p->covered_from = ev->covered_from;
        p->finished = ev->finished;
        return;
    }
    if (ev->finished) {
        return;
    }
    cc_async_progress_entry *u = CC_ARRAY_PUSH(p->unfinished, p->n, p->cap);
    if (u == NULL) {
        p->lost = 1; /* a lost entry would read as finished */
        return;
    }
    u->launch_id = ev->launch_id;
    u->started = ev->started != 0;
}

void cc_async_progress_free(cc_async_progress *p)
{
    free(p->unfinished);
    memset(p, 0, sizeof *p);
}

static int is_whole_graph(const cc_inflight_launch *l)
{
    return l->graph_exec != 0 && !(l->flags & CC_LAUNCH_FLAG_GRAPH_NODE);
}

static int state_of(const cc_async_progress *p, const cc_inflight_launch *l)
{
    if (!(l->flags & CC_LAUNCH_FLAG_PROGRESS) || l->launch_id < p->covered_from ||
        is_whole_graph(l)) {
        return PROGRESS_UNKNOWN;
    }
    cc_async_progress_entry key = {.launch_id = l->launch_id};
    const cc_async_progress_entry *e =
        p->n > 0 ? bsearch(&key, p->unfinished, p->n, sizeof key, by_launch_id) : NULL;
    if (e == NULL) {
        return PROGRESS_FINISHED;
    }
    return e->started ? PROGRESS_RUNNING : PROGRESS_NOT_STARTED;
}

size_t cc_async_progress_narrow(const cc_async_progress *p, const cc_inflight_launch *pending,
                              size_t n, unsigned char *keep, cc_async_narrowing *out)
{
    memset(out, 0, sizeof *out);
    memset(keep, 1, n);
    if (!p->valid || n == 0) {
        return n;
    }
    if (p->lost) {
        out->why_not = "the device's progress marks were incomplete, so they were not used";
        return n;
    }
    int *state = malloc(n * sizeof *state);
    if (state == NULL) {
        return n;
    }
    size_t running = 0, unknown = 0;
    for (size_t i = 0; i < n; i++) {
        state[i] = state_of(p, &pending[i]);
        running += state[i] == PROGRESS_RUNNING;
        unknown += state[i] == PROGRESS_UNKNOWN && !is_whole_graph(&pending[i]);
    }
    /* A launch faulted, so some launch started and did not finish: marks that show none (and
     * no launch of unknown progress that could be it) did not reach the host. */
    if (running == 0 && unknown == 0) {
        out->why_not = "the device's progress marks show no launch that started and did not "
                       "finish, so they were not used";
        free(state);
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        if (state[i] == PROGRESS_FINISHED) {
            keep[i] = 0;
            out->finished++;
        } else if (state[i] == PROGRESS_NOT_STARTED) {
            keep[i] = 0;
            out->not_started++;
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
    out->used = out->finished > 0 || out->not_started > 0;
    return kept;
}
