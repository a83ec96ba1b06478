/* The happens-before engine's event dispatcher (API in hb_engine.h): turns each event into
 * clock updates (hb_actors.c), operations (hb_ops.c) and access checks (hb_shadow.c,
 * hb_copy.c). Work on a capturing stream is not executed and is skipped; graph launches run
 * their nodes on node actors ordered by the graph's edges. */
#include "core/hb_internal.h"

#include <stdlib.h>
#include <string.h>

cc_hb *cc_hb_new(const cc_hb_config *cfg)
{
    cc_hb *hb = calloc(1, sizeof *hb);
    if (!hb) return NULL;
    hb->cfg = *cfg;
    hb->names = cc_strtab_new();
    if (!hb->names) {
        free(hb);
        return NULL;
    }
    return hb;
}

const cc_hb_stats *cc_hb_get_stats(const cc_hb *hb) { return &hb->stats; }

void cc_hb_free(cc_hb *hb)
{
    if (!hb) return;
    cc_hb_free_shadow(hb);
    cc_hb_free_ops(hb);
    cc_hb_free_actors(hb);
    cc_strtab_free(hb->names);
    free(hb);
}

static void oom_if(cc_hb *hb, int rc)
{
    if (rc) hb->stats.out_of_memory = 1;
}

static int capture_active(const cc_hb *hb, uint64_t id)
{
    for (size_t i = 0; i < hb->nstreams; i++)
        if (hb->streams[i].capture == id) return 1;
    return 0;
}

int cc_hb_graph_node_op(cc_hb *hb, uint64_t exec, uint64_t node, uint32_t kind, cc_hb_op **out)
{
    hb_graph *g = cc_hb_graph(hb, exec, 0);
    if (!g || g->run == 0) return 0;
    hb_gnode *n = cc_hb_gnode(hb, g, node);
    if (!n) return 0;
    oom_if(hb, cc_hb_vc_join(&n->vc, &g->base));
    if (!g->has_dag) {
        /* edges unknown: the nodes are taken in the order they ran (no false reports) */
        oom_if(hb, cc_hb_vc_join(&n->vc, &g->seq));
    } else if (n->defined) {
        for (uint32_t i = 0; i < n->ndeps; i++)
            for (size_t j = 0; j < g->nnodes; j++)
                if (g->nodes[j].node == n->deps[i] && g->nodes[j].run == g->run)
                    oom_if(hb, cc_hb_vc_join(&n->vc, &g->nodes[j].vc));
    }
    cc_hb_op *op = cc_hb_op_on_actor(hb, n->actor, &n->vc, kind);
    n->run = g->run;
    hb->stats.graph_nodes++;
    /* the launching stream's later work, and its synchronizations, come after every node */
    hb_stream *s = cc_hb_stream(hb, g->context, g->stream, g->tid);
    if (s) oom_if(hb, cc_hb_vc_join(&s->vc, &n->vc));
    oom_if(hb, cc_hb_vc_copy(&g->seq, &n->vc));
    oom_if(hb, cc_hb_vc_join(&g->end, &n->vc));
    if (op) {
        op->stream = g->stream;
        op->context = g->context;
        op->device = s ? s->device : 0;
        op->tid = g->tid;
        op->graph_exec = exec;
        op->graph_node = node;
    }
    *out = op;
    return 1;
}

static void on_launch(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_launch *l = &ev->u.launch;
    cc_hb_op *op = NULL;
    if (!((l->flags & CC_LAUNCH_FLAG_GRAPH_NODE) &&
          cc_hb_graph_node_op(hb, l->graph_exec, l->graph_node, CC_HB_OP_KERNEL, &op))) {
        hb_thread *t = cc_hb_thread(hb, ev->h.tid);
        hb_stream *s = cc_hb_stream(hb, l->context, l->stream, ev->h.tid);
        if (!t || !s) return;
        if (s->capture) {
            hb->stats.captured_ops++;
            return;
        }
        cc_hb_prepare(hb, s, t);
        op = cc_hb_op_on_stream(hb, s, CC_HB_OP_KERNEL, t->tid);
    }
    hb->stats.launches++;
    if (!op) return;
    op->id = l->launch_id;
    op->callsite = l->callsite;
    op->name = cc_strtab_intern(hb->names, l->name, NULL);
    /* the device of the launch's context where a CONTEXT_CREATE said it, else the launch's */
    const hb_ctxdev *cd = cc_hb_ctxdev_find(hb, l->context);
    op->device = cd && cd->known ? cd->device : l->device;
    cc_hb_remember_launch(hb, op);
    cc_hb_op_unref(op);
}

static void on_graph_launch(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_graph_launch *gl = &ev->u.graph_launch;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, gl->context, gl->stream, ev->h.tid);
    hb_graph *g = cc_hb_graph(hb, gl->graph_exec, 1);
    if (!t || !s || !g) return;
    if (s->capture) {
        hb->stats.captured_ops++;
        return;
    }
    hb->stats.graph_launches++;
    cc_hb_prepare(hb, s, t);
    oom_if(hb, cc_hb_vc_join(&s->vc, &g->end)); /* behind earlier launches of the same graph */
    if (cc_hb_vc_tick(&s->vc, s->actor) == 0) hb->stats.out_of_memory = 1;
    g->run++;
    g->stream = s->handle;
    g->context = s->context;
    g->tid = t->tid;
    oom_if(hb, cc_hb_vc_copy(&g->base, &s->vc));
    oom_if(hb, cc_hb_vc_copy(&g->seq, &s->vc));
}

static void on_graph_node(cc_hb *hb, const cc_ev_graph_node *gn)
{
    hb_graph *g = cc_hb_graph(hb, gn->graph_exec, 1);
    hb_gnode *n = g ? cc_hb_gnode(hb, g, gn->node) : NULL;
    if (!n) return;
    uint64_t *deps = gn->ndeps ? malloc(gn->ndeps * sizeof *deps) : NULL;
    if (gn->ndeps && !deps) {
        hb->stats.out_of_memory = 1;
        return;
    }
    if (gn->ndeps) memcpy(deps, gn->deps, gn->ndeps * sizeof *deps);
    free(n->deps);
    n->deps = deps;
    n->ndeps = gn->ndeps;
    n->defined = 1;
    g->has_dag = 1;
}

static void on_event_record(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_event *e = &ev->u.event;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, e->context, e->stream, ev->h.tid);
    hb_event *r = cc_hb_find_event(hb, e->event, 1);
    if (!t || !s || !r) return;
    if (s->capture) {
        r->capture = s->capture; /* a node of the graph being captured, not a real record */
        return;
    }
    cc_hb_prepare(hb, s, t);
    oom_if(hb, cc_hb_vc_copy(&r->vc, &s->vc)); /* re-recording overwrites */
    r->recorded = 1;
    r->capture = 0;
}

static void on_event_wait(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_event *e = &ev->u.event;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, e->context, e->stream, ev->h.tid);
    hb_event *r = cc_hb_find_event(hb, e->event, 0);
    if (!t || !s) return;
    if (r && r->capture && capture_active(hb, r->capture) && !s->capture) {
        s->capture = r->capture; /* s joins the capture (fork) */
        return;
    }
    if (s->capture) {
        hb->stats.captured_ops++;
        return;
    }
    cc_hb_prepare(hb, s, t);
    if (r && r->recorded) oom_if(hb, cc_hb_vc_join(&s->vc, &r->vc)); /* never recorded: no-op */
}

static void host_waits_event(cc_hb *hb, const cc_event *ev)
{
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_event *r = cc_hb_find_event(hb, ev->u.event.event, 0);
    hb->stats.syncs++;
    if (t && r && r->recorded) oom_if(hb, cc_hb_vc_join(&t->vc, &r->vc));
}

static void host_waits_stream(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_sync *y = &ev->u.sync;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, y->context, y->stream, ev->h.tid);
    hb->stats.syncs++;
    if (t && s && !s->capture) cc_hb_host_waits_stream(hb, t, s);
}

static void host_waits_device(cc_hb *hb, uint32_t tid, uint64_t context, int32_t device)
{
    hb_thread *t = cc_hb_thread(hb, tid);
    hb->stats.syncs++;
    if (t) cc_hb_host_waits_device(hb, t, context, device);
}

static void on_alloc(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_alloc *a = &ev->u.alloc;
    if (a->mem_kind != CC_MEM_DEVICE_ASYNC) {
        cc_hb_alloc_add(hb, a, NULL);
        return;
    }
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, a->context, a->stream, ev->h.tid);
    if (!t || !s) return;
    if (s->capture) {
        hb->stats.captured_ops++; /* a graph allocation node: valid only while the graph runs */
        return;
    }
    cc_hb_prepare(hb, s, t);
    cc_hb_op *op = cc_hb_op_on_stream(hb, s, CC_HB_OP_ALLOC_ASYNC, t->tid);
    if (op) op->callsite = a->callsite;
    cc_hb_alloc_add(hb, a, op);
    cc_hb_op_unref(op);
}

static void on_free(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_free *f = &ev->u.free;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    if (!t || f->mem_kind == CC_MEM_VIRTUAL_RESERVE) return;
    cc_hb_op *op;
    if (f->mem_kind == CC_MEM_DEVICE_ASYNC) {
        hb_stream *s = cc_hb_stream(hb, f->context, f->stream, ev->h.tid);
        if (!s) return;
        if (s->capture) {
            hb->stats.captured_ops++;
            return;
        }
        cc_hb_prepare(hb, s, t);
        op = cc_hb_op_on_stream(hb, s, CC_HB_OP_FREE_ASYNC, t->tid);
        if (op) op->callsite = f->callsite;
        cc_hb_alloc_free(hb, f->address, op, 1);
        cc_hb_op_unref(op);
        return;
    }
    int host_memory = f->mem_kind == CC_MEM_HOST_PINNED || f->mem_kind == CC_MEM_HOST_MAPPED ||
                      f->mem_kind == CC_MEM_HOST_PAGEABLE;
    /* cudaFree synchronizes the device; freeing pinned host memory is not documented to */
    if (!host_memory) cc_hb_host_waits_device(hb, t, f->context, f->device);
    op = cc_hb_op_on_thread(hb, t, CC_HB_OP_FREE);
    if (op) op->callsite = f->callsite;
    cc_hb_alloc_free(hb, f->address, op, 0);
    cc_hb_op_unref(op);
}

static void on_host_func(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_host_func *h = &ev->u.host_func;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, h->context, h->stream, ev->h.tid);
    if (!t || !s) return;
    if (s->capture) {
        hb->stats.captured_ops++;
        return;
    }
    /* runs after the stream's earlier work and holds back its later work */
    cc_hb_prepare(hb, s, t);
    cc_hb_op *op = cc_hb_op_on_stream(hb, s, CC_HB_OP_HOST_FUNC, t->tid);
    if (!op) return;
    op->id = h->userdata;
    op->callsite = h->callsite;
    cc_hb_remember_hostfn(hb, op);
    cc_hb_op_unref(op);
}

static int source_allowed(uint32_t mode, uint32_t source)
{
    if (source == CC_ACCESS_SRC_UNKNOWN) return 1; /* hand-written scenarios */
    switch (mode) {
    case CC_HB_MODE_FULL: return source == CC_ACCESS_SRC_INSTRUMENTED;
    case CC_HB_MODE_API: return source == CC_ACCESS_SRC_INFERRED;
    default: return source <= CC_ACCESS_SRC_INFERRED;
    }
}

static void on_access(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_access *a = &ev->u.access;
    hb->stats.access_events++;
    /* Graph kernel nodes are not instrumented: full mode takes their inferred sets; and the
     * inferred ranges instrumented launches add for allocations no patched access touched. */
    int full_inferred = hb->cfg.mode == CC_HB_MODE_FULL && a->source == CC_ACCESS_SRC_INFERRED &&
                        a->launch_id != 0 && !(a->flags & CC_ACCESS_FLAG_HOST_FUNC);
    int untouched = full_inferred && (a->flags & CC_ACCESS_FLAG_UNTOUCHED);
    int graph_inferred = full_inferred && !untouched;
    if (!full_inferred && !source_allowed(hb->cfg.mode, a->source)) {
        hb->stats.accesses_ignored++;
        return;
    }
    uint32_t flags = a->flags & (CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_ATOMIC);
    if (a->launch_id == 0 && !(a->flags & CC_ACCESS_FLAG_HOST_FUNC)) {
        hb_thread *t = cc_hb_thread(hb, ev->h.tid);
        cc_hb_op *op = t ? cc_hb_op_on_thread(hb, t, CC_HB_OP_HOST) : NULL;
        if (op) {
            hb->stats.host_accesses++;
            cc_hb_access(hb, op, a->address, a->size, flags);
        }
        cc_hb_op_unref(op);
        return;
    }
    cc_hb_op *op = (a->flags & CC_ACCESS_FLAG_HOST_FUNC) ? cc_hb_find_hostfn(hb, a->launch_id)
                                                         : cc_hb_find_launch(hb, a->launch_id);
    if (!op || (graph_inferred && op->graph_exec == 0)) {
        hb->stats.accesses_ignored++; /* captured, unknown or too old; or not a graph node */
        return;
    }
    hb->stats.by_source[a->source < 4 ? a->source : 0]++;
    cc_hb_access(hb, op, a->address, a->size, flags);
}

static int contains(const char *s, const char *needle) { return s && strstr(s, needle) != NULL; }

void cc_hb_event(cc_hb *hb, const cc_event *ev)
{
    switch (ev->h.kind) {
    case CC_EV_PROCESS_START:
        hb->python = contains(ev->u.process_start.argv0, "python");
        break;
    case CC_EV_CONTEXT_CREATE:
        cc_hb_note_context(hb, ev->u.context.context, ev->u.context.device);
        break;
    case CC_EV_STREAM_CREATE: {
        hb_stream *s = cc_hb_stream_create(hb, ev->u.stream.context, ev->u.stream.stream,
                                           ev->h.tid);
        if (s) {
            s->non_blocking = (ev->u.stream.flags & CC_STREAM_FLAG_NON_BLOCKING) != 0;
            /* A context's default streams are the program's, whoever made the context. */
            if (!s->legacy && !s->per_thread && ev->u.stream.library < CC_NVLIB_COUNT)
                s->library = ev->u.stream.library;
        }
        break;
    }
    case CC_EV_STREAM_DESTROY:
        cc_hb_stream_destroy(hb, ev->u.stream.context, ev->u.stream.stream, ev->h.tid);
        break;
    case CC_EV_EVENT_CREATE: case CC_EV_EVENT_DESTROY:
        cc_hb_forget_event(hb, ev->u.event.event);
        break;
    case CC_EV_EVENT_RECORD: on_event_record(hb, ev); break;
    case CC_EV_EVENT_WAIT: on_event_wait(hb, ev); break;
    case CC_EV_EVENT_QUERY:
        if (ev->u.event.result == 0) host_waits_event(hb, ev);
        break;
    case CC_EV_EVENT_SYNC: host_waits_event(hb, ev); break;
    case CC_EV_STREAM_QUERY:
        if (ev->u.sync.result == 0) host_waits_stream(hb, ev);
        break;
    case CC_EV_STREAM_SYNC: host_waits_stream(hb, ev); break;
    case CC_EV_CONTEXT_SYNC: case CC_EV_DEVICE_SYNC:
        host_waits_device(hb, ev->h.tid, ev->u.sync.context, ev->u.sync.device);
        break;
    case CC_EV_LAUNCH: on_launch(hb, ev); break;
    case CC_EV_MEMCPY: cc_hb_memcpy(hb, ev); break;
    case CC_EV_MEMSET: cc_hb_memset(hb, ev); break;
    case CC_EV_COLLECTIVE: cc_hb_collective(hb, ev); break;
    case CC_EV_GRAPH_LAUNCH: on_graph_launch(hb, ev); break;
    case CC_EV_GRAPH_NODE: on_graph_node(hb, &ev->u.graph_node); break;
    case CC_EV_HOST_FUNC: on_host_func(hb, ev); break;
    case CC_EV_ALLOC: on_alloc(hb, ev); break;
    case CC_EV_FREE: on_free(hb, ev); break;
    case CC_EV_ACCESS: on_access(hb, ev); break;
    case CC_EV_CAPTURE_BEGIN: {
        hb_stream *s = cc_hb_stream(hb, ev->u.capture.context, ev->u.capture.stream, ev->h.tid);
        if (s) cc_hb_capture_begin(hb, s);
        break;
    }
    case CC_EV_CAPTURE_END: {
        hb_stream *s = cc_hb_stream(hb, ev->u.capture.context, ev->u.capture.stream, ev->h.tid);
        if (s) cc_hb_capture_end(hb, s);
        break;
    }
    default:
        break;
    }
}
