/* Actors of the happens-before engine and the ordering rules between them: streams (named in
 * hb_streams.c; the legacy default stream's implicit barriers against the blocking streams of
 * its context, per-thread default streams), host threads, CUDA events (one name space for the
 * process: a stream may wait for an event of another device), stream capture, executable graphs
 * and their nodes. Every rule is one CUDA guarantees; docs/streamcheck.md lists them with their
 * sources. Synchronizations are scoped to one context (device): they never order another
 * device's work. */
#include "core/hb_internal.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

uint32_t cc_hb_new_actor(cc_hb *hb) { return hb->nactors++; }

hb_thread *cc_hb_thread(cc_hb *hb, uint32_t tid)
{
    if (hb->cfg.merge_host_threads) tid = 0;
    for (size_t i = 0; i < hb->nthreads; i++)
        if (hb->threads[i].tid == tid) return &hb->threads[i];
    hb_thread *t = CC_ARRAY_PUSH(hb->threads, hb->nthreads, hb->cap_threads);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->actor = cc_hb_new_actor(hb);
    return t;
}

hb_event *cc_hb_find_event(cc_hb *hb, uint64_t id, int create)
{
    for (size_t i = 0; i < hb->nevents; i++)
        if (hb->events[i].id == id) return &hb->events[i];
    if (!create) return NULL;
    hb_event *e = CC_ARRAY_PUSH(hb->events, hb->nevents, hb->cap_events);
    if (!e) return NULL;
    memset(e, 0, sizeof *e);
    e->id = id;
    return e;
}

/* cudaEventDestroy / a new cudaEventCreate with the same handle: never recorded again. */
void cc_hb_forget_event(cc_hb *hb, uint64_t id)
{
    for (size_t i = 0; i < hb->nevents; i++)
        if (hb->events[i].id == id) {
            cc_hb_vc_free(&hb->events[i].vc);
            hb->events[i] = hb->events[--hb->nevents];
            return;
        }
}

static int same_context(const hb_stream *a, const hb_stream *b)
{
    return a->context == b->context;
}

/* Legacy stream: an operation on it waits for all earlier work of the blocking streams of its
 * context (per-thread default streams included). Blocking stream: an operation on it waits for
 * earlier work of the legacy stream. Non-blocking streams: neither. Every operation is also
 * after what the issuing thread knew when it issued it. */
void cc_hb_prepare(cc_hb *hb, hb_stream *s, hb_thread *t)
{
    if (s->legacy) {
        for (size_t i = 0; i < hb->nstreams; i++) {
            hb_stream *b = &hb->streams[i];
            if (b != s && !b->legacy && !b->non_blocking && !b->capture && same_context(b, s))
                if (cc_hb_vc_join(&s->vc, &b->vc)) hb->stats.out_of_memory = 1;
        }
        const hb_ctxdev *cd = cc_hb_ctxdev_find(hb, s->context);
        if (cd && cc_hb_vc_join(&s->vc, &cd->retired_blocking)) hb->stats.out_of_memory = 1;
    } else if (!s->non_blocking) {
        for (size_t i = 0; i < hb->nstreams; i++) {
            hb_stream *l = &hb->streams[i];
            if (l->legacy && same_context(l, s) && cc_hb_vc_join(&s->vc, &l->vc))
                hb->stats.out_of_memory = 1;
        }
    }
    if (t && cc_hb_vc_join(&s->vc, &t->vc)) hb->stats.out_of_memory = 1;
}

void cc_hb_host_waits_stream(cc_hb *hb, hb_thread *t, hb_stream *s)
{
    if (cc_hb_vc_join(&t->vc, &s->vc)) hb->stats.out_of_memory = 1;
    if (!s->legacy) return;
    for (size_t i = 0; i < hb->nstreams; i++) {
        hb_stream *b = &hb->streams[i];
        if (b != s && !b->non_blocking && !b->capture && same_context(b, s))
            if (cc_hb_vc_join(&t->vc, &b->vc)) hb->stats.out_of_memory = 1;
    }
    const hb_ctxdev *cd = cc_hb_ctxdev_find(hb, s->context);
    if (cd && cc_hb_vc_join(&t->vc, &cd->retired_blocking)) hb->stats.out_of_memory = 1;
}

void cc_hb_host_waits_device(cc_hb *hb, hb_thread *t, uint64_t context, int32_t device)
{
    for (size_t i = 0; i < hb->nstreams; i++) {
        hb_stream *s = &hb->streams[i];
        int match = context ? s->context == context : s->device == device;
        if (match && !s->capture && cc_hb_vc_join(&t->vc, &s->vc)) hb->stats.out_of_memory = 1;
    }
    for (size_t i = 0; i < hb->nctxdev; i++) { /* destroyed streams' work */
        const hb_ctxdev *cd = &hb->ctxdev[i];
        int match = context ? cd->context == context : cd->device == device;
        if (match && cc_hb_vc_join(&t->vc, &cd->retired_all)) hb->stats.out_of_memory = 1;
    }
    /* graph nodes ran on the launching stream's behalf: their clocks are joined into it */
}

void cc_hb_capture_begin(cc_hb *hb, hb_stream *s)
{
    s->capture = ++hb->next_capture;
}

/* Ends the capture s began, for every stream that joined it. */
void cc_hb_capture_end(cc_hb *hb, hb_stream *s)
{
    uint64_t id = s->capture;
    if (!id) return;
    for (size_t i = 0; i < hb->nstreams; i++)
        if (hb->streams[i].capture == id) hb->streams[i].capture = 0;
}

hb_graph *cc_hb_graph(cc_hb *hb, uint64_t exec, int create)
{
    for (size_t i = 0; i < hb->ngraphs; i++)
        if (hb->graphs[i].exec == exec) return &hb->graphs[i];
    if (!create) return NULL;
    hb_graph *g = CC_ARRAY_PUSH(hb->graphs, hb->ngraphs, hb->cap_graphs);
    if (!g) return NULL;
    memset(g, 0, sizeof *g);
    g->exec = exec;
    return g;
}

hb_gnode *cc_hb_gnode(cc_hb *hb, hb_graph *g, uint64_t node)
{
    for (size_t i = 0; i < g->nnodes; i++)
        if (g->nodes[i].node == node) return &g->nodes[i];
    hb_gnode *n = CC_ARRAY_PUSH(g->nodes, g->nnodes, g->cap);
    if (!n) return NULL;
    memset(n, 0, sizeof *n);
    n->node = node;
    n->actor = cc_hb_new_actor(hb);
    return n;
}

void cc_hb_free_actors(cc_hb *hb)
{
    cc_hb_free_streams(hb);
    for (size_t i = 0; i < hb->nthreads; i++) cc_hb_vc_free(&hb->threads[i].vc);
    for (size_t i = 0; i < hb->nevents; i++) cc_hb_vc_free(&hb->events[i].vc);
    for (size_t i = 0; i < hb->ngraphs; i++) {
        hb_graph *g = &hb->graphs[i];
        for (size_t j = 0; j < g->nnodes; j++) {
            free(g->nodes[j].deps);
            cc_hb_vc_free(&g->nodes[j].vc);
        }
        free(g->nodes);
        cc_hb_vc_free(&g->base);
        cc_hb_vc_free(&g->seq);
        cc_hb_vc_free(&g->end);
    }
    free(hb->threads);
    free(hb->events);
    free(hb->graphs);
}
