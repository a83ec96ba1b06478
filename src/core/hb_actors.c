/* Actors of the happens-before engine and the ordering rules between them: streams (named in
 * hb_streams.c; the legacy default stream's implicit barriers against the blocking streams of
 * its context, per-thread default streams), host threads, CUDA events (one name space for the
 * process: a stream may wait for an event of another device), stream capture, executable graphs
 * and their nodes. Every rule is one CUDA guarantees; docs/streamcheck.md lists them with their
 * sources. Synchronizations are scoped to one context (device): they never order another
 * device's work. A copy between devices in the NULL stream is the exception: it is ordered
 * after all earlier work of the devices it involves, and leaves a barrier that every stream of
 * those devices waits for (device barriers, the legacy stream's barrier over every stream). */
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

static void oom_if(cc_hb *hb, int rc)
{
    if (rc) hb->stats.out_of_memory = 1;
}

/* The streams an implicit synchronization covers: those of one context, or of every context of
 * one device; all of them, or only the blocking ones (the legacy stream's barrier). */
typedef struct hb_scope {
    uint64_t context;
    int32_t device;
    int by_device;
    int blocking_only;
} hb_scope;

static int in_scope(const hb_scope *sc, uint64_t context, int32_t device)
{
    return sc->by_device ? device == sc->device : context == sc->context;
}

static int stream_in_scope(const hb_scope *sc, const hb_stream *b)
{
    if (b->capture || (sc->blocking_only && b->non_blocking)) return 0;
    return in_scope(sc, b->context, b->device);
}

/* Join into vc the work issued so far on every stream in scope (not capturing), the work of
 * its destroyed streams included. */
static void join_scope(cc_hb *hb, cc_hb_vc *vc, const hb_scope *sc)
{
    for (size_t i = 0; i < hb->nstreams; i++) {
        const hb_stream *b = &hb->streams[i];
        if (&b->vc != vc && stream_in_scope(sc, b)) oom_if(hb, cc_hb_vc_join(vc, &b->vc));
    }
    for (size_t i = 0; i < hb->nctxdev; i++) {
        const hb_ctxdev *cd = &hb->ctxdev[i];
        if (in_scope(sc, cd->context, cd->device))
            oom_if(hb, cc_hb_vc_join(vc, sc->blocking_only ? &cd->retired_blocking
                                                           : &cd->retired_all));
    }
}

/* The legacy stream's barrier: the blocking streams of its context (per-thread default streams
 * included). */
static hb_scope legacy_scope(const hb_stream *s)
{
    return (hb_scope){s->context, s->device, 0, 1};
}

/* A device barrier: every stream of every context of the device. */
static hb_scope device_scope(int32_t device)
{
    return (hb_scope){0, device, 1, 0};
}

static hb_devbar *devbar(cc_hb *hb, int32_t device)
{
    for (size_t i = 0; i < hb->ndevbars; i++)
        if (hb->devbars[i].device == device) return &hb->devbars[i];
    hb_devbar *b = CC_ARRAY_PUSH(hb->devbars, hb->ndevbars, hb->cap_devbars);
    if (!b) {
        hb->stats.out_of_memory = 1;
        return NULL;
    }
    memset(b, 0, sizeof *b);
    b->device = device;
    return b;
}

/* Later work of every stream in a barrier's scope waits for the barrier. The legacy stream is
 * one: an operation on it waits for all earlier work of its scope (the blocking streams of its
 * context), and an operation on a stream of its scope waits for its earlier work; non-blocking
 * streams do neither. Device barriers (copies between devices in the NULL stream) hold every
 * stream of their device. Every operation is also after what the issuing thread knew when it
 * issued it. */
void cc_hb_prepare(cc_hb *hb, hb_stream *s, hb_thread *t)
{
    if (s->legacy) {
        hb_scope sc = legacy_scope(s);
        join_scope(hb, &s->vc, &sc);
    } else {
        for (size_t i = 0; i < hb->nstreams; i++) {
            const hb_stream *l = &hb->streams[i];
            if (!l->legacy) continue;
            hb_scope sc = legacy_scope(l);
            if (stream_in_scope(&sc, s)) oom_if(hb, cc_hb_vc_join(&s->vc, &l->vc));
        }
    }
    for (size_t i = 0; i < hb->ndevbars; i++) {
        const hb_devbar *b = &hb->devbars[i];
        hb_scope sc = device_scope(b->device);
        if (stream_in_scope(&sc, s)) oom_if(hb, cc_hb_vc_join(&s->vc, &b->vc));
    }
    if (t) oom_if(hb, cc_hb_vc_join(&s->vc, &t->vc));
}

void cc_hb_devices_before(cc_hb *hb, hb_stream *s, const int32_t *devices, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        hb_scope sc = device_scope(devices[i]);
        join_scope(hb, &s->vc, &sc);
    }
}

void cc_hb_devices_after(cc_hb *hb, const cc_hb_op *op, const int32_t *devices, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        hb_devbar *b = devbar(hb, devices[i]);
        if (b) oom_if(hb, cc_hb_vc_join(&b->vc, &op->vc));
    }
}

void cc_hb_host_waits_stream(cc_hb *hb, hb_thread *t, hb_stream *s)
{
    oom_if(hb, cc_hb_vc_join(&t->vc, &s->vc));
    if (!s->legacy) return;
    hb_scope sc = legacy_scope(s);
    join_scope(hb, &t->vc, &sc);
}

void cc_hb_host_waits_device(cc_hb *hb, hb_thread *t, uint64_t context, int32_t device)
{
    hb_scope sc = {context, device, context == 0, 0};
    join_scope(hb, &t->vc, &sc);
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
    for (size_t i = 0; i < hb->ndevbars; i++) cc_hb_vc_free(&hb->devbars[i].vc);
    free(hb->threads);
    free(hb->events);
    free(hb->graphs);
    free(hb->devbars);
}
