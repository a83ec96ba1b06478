/* In-flight launch tracking (see inflight.h). Streams are tracked by id with their blocking flag;
 * events remember the (stream, sequence) of their last record. Completion rules, only those CUDA
 * guarantees:
 *  - stream synchronize, or a query that returned ready: all earlier work of that stream; for the
 *    legacy default stream also all earlier work of blocking streams (its implicit barrier);
 *  - event synchronize, or a query that returned ready: the recording stream's work up to the
 *    record;
 *  - context or device synchronize: everything of that context (everything if unknown);
 *  - a synchronous (non-async) copy or memset: like a synchronize of its stream, since the host
 *    call returns only after the stream's earlier work and the copy completed — but only once the
 *    call returned successfully. The copy event comes when the copy starts, so the ordering is
 *    held back as tentative and applied at the next event of the same host thread, unless that
 *    event is the API error of the copy call itself (a fault surfacing in the copy). */
#include "tools/run/inflight.h"

#include <stdlib.h>
#include <string.h>

typedef struct stream_info {
    uint64_t stream;
    uint64_t next_seq;
    int non_blocking;
} stream_info;

typedef struct event_info {
    uint64_t event;
    uint64_t stream;
    uint64_t seq;          /* work of `stream` with seq < this is before the record */
    int recorded;
} event_info;

typedef struct tentative_sync {
    uint32_t tid;
    uint64_t stream;
    int active;
} tentative_sync;

#define TENTATIVE_MAX 64

struct cc_inflight {
    tentative_sync tentative[TENTATIVE_MAX]; /* synchronous copies not known to have returned */
    cc_inflight_launch *pending;
    size_t npending, cap;
    stream_info *streams;
    size_t nstreams, scap;
    event_info *events;
    size_t nevents, ecap;
};

cc_inflight *cc_inflight_new(void) { return calloc(1, sizeof(cc_inflight)); }

void cc_inflight_free(cc_inflight *t) {
    if (!t) return;
    for (size_t i = 0; i < t->npending; i++) free(t->pending[i].name);
    free(t->pending);
    free(t->streams);
    free(t->events);
    free(t);
}

static stream_info *get_stream(cc_inflight *t, uint64_t id) {
    for (size_t i = 0; i < t->nstreams; i++)
        if (t->streams[i].stream == id) return &t->streams[i];
    if (t->nstreams == t->scap) {
        size_t ncap = t->scap ? t->scap * 2 : 16;
        stream_info *n = realloc(t->streams, ncap * sizeof *n);
        if (!n) return NULL;
        t->streams = n;
        t->scap = ncap;
    }
    stream_info *s = &t->streams[t->nstreams++];
    memset(s, 0, sizeof *s);
    s->stream = id;
    s->next_seq = 1;
    return s;
}

static event_info *get_event(cc_inflight *t, uint64_t id, int create) {
    for (size_t i = 0; i < t->nevents; i++)
        if (t->events[i].event == id) return &t->events[i];
    if (!create) return NULL;
    if (t->nevents == t->ecap) {
        size_t ncap = t->ecap ? t->ecap * 2 : 16;
        event_info *n = realloc(t->events, ncap * sizeof *n);
        if (!n) return NULL;
        t->events = n;
        t->ecap = ncap;
    }
    event_info *e = &t->events[t->nevents++];
    memset(e, 0, sizeof *e);
    e->event = id;
    return e;
}

/* Remove pending entries for which done(entry) holds. */
typedef int (*done_fn)(const cc_inflight *t, const cc_inflight_launch *l, const void *arg);

static void complete_where(cc_inflight *t, done_fn done, const void *arg) {
    size_t w = 0;
    for (size_t r = 0; r < t->npending; r++) {
        if (done(t, &t->pending[r], arg)) {
            free(t->pending[r].name);
            continue;
        }
        t->pending[w++] = t->pending[r];
    }
    t->npending = w;
}

typedef struct stream_upto {
    uint64_t stream;
    uint64_t seq;          /* entries with seq < this complete */
    int legacy_barrier;    /* also blocking streams' earlier work */
} stream_upto;

static int is_non_blocking(const cc_inflight *t, uint64_t stream) {
    for (size_t i = 0; i < t->nstreams; i++)
        if (t->streams[i].stream == stream) return t->streams[i].non_blocking;
    return 0;
}

static int done_stream(const cc_inflight *t, const cc_inflight_launch *l, const void *arg) {
    const stream_upto *u = arg;
    if (l->stream == u->stream) return l->seq < u->seq;
    /* The legacy stream waits for earlier work of blocking streams; anything pending now on a
     * blocking stream was launched before this point. */
    if (u->legacy_barrier && l->stream != CC_STREAM_PER_THREAD) return !is_non_blocking(t, l->stream);
    return 0;
}

static int done_context(const cc_inflight *t, const cc_inflight_launch *l, const void *arg) {
    (void)t;
    uint64_t ctx = *(const uint64_t *)arg;
    return ctx == 0 || l->context == 0 || l->context == ctx;
}

static void sync_stream(cc_inflight *t, uint64_t stream) {
    stream_info *s = get_stream(t, stream);
    if (!s) return;
    stream_upto u = {stream, s->next_seq, stream == CC_STREAM_LEGACY};
    complete_where(t, done_stream, &u);
}

static void add_pending(cc_inflight *t, const cc_inflight_launch *l) {
    if (t->npending == t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 64;
        cc_inflight_launch *n = realloc(t->pending, ncap * sizeof *n);
        if (!n) return;
        t->pending = n;
        t->cap = ncap;
    }
    t->pending[t->npending++] = *l;
}

static uint64_t next_seq(cc_inflight *t, uint64_t stream) {
    stream_info *s = get_stream(t, stream);
    return s ? s->next_seq++ : 0;
}

static void hold_sync(cc_inflight *t, uint32_t tid, uint64_t stream) {
    tentative_sync *slot = NULL;
    for (size_t i = 0; i < TENTATIVE_MAX; i++) {
        if (t->tentative[i].active && t->tentative[i].tid == tid) {
            /* an earlier synchronous copy of this thread returned: it is now certain */
            sync_stream(t, t->tentative[i].stream);
            slot = &t->tentative[i];
            break;
        }
        if (!t->tentative[i].active && !slot) slot = &t->tentative[i];
    }
    if (!slot) { /* table full: apply the ordering now rather than lose it */
        sync_stream(t, stream);
        return;
    }
    slot->tid = tid;
    slot->stream = stream;
    slot->active = 1;
}

/* Resolve the tentative synchronization of the event's thread, if any. */
static void resolve_tentative(cc_inflight *t, const cc_event *ev) {
    for (size_t i = 0; i < TENTATIVE_MAX; i++) {
        tentative_sync *ts = &t->tentative[i];
        if (!ts->active || ts->tid != ev->h.tid) continue;
        ts->active = 0;
        if (ev->h.kind != CC_EV_API_ERROR) sync_stream(t, ts->stream);
        return;
    }
}

void cc_inflight_event(cc_inflight *t, const cc_event *ev) {
    resolve_tentative(t, ev);
    switch (ev->h.kind) {
    case CC_EV_STREAM_CREATE: {
        stream_info *s = get_stream(t, ev->u.stream.stream);
        if (s) s->non_blocking = (ev->u.stream.flags & CC_STREAM_FLAG_NON_BLOCKING) != 0;
        break;
    }
    case CC_EV_LAUNCH: {
        const cc_ev_launch *L = &ev->u.launch;
        cc_inflight_launch l = {0};
        l.launch_id = L->launch_id;
        l.context = L->context;
        l.stream = L->stream;
        l.seq = next_seq(t, L->stream);
        l.callsite = L->callsite;
        l.graph_exec = (L->flags & CC_LAUNCH_FLAG_GRAPH_NODE) ? L->graph_exec : 0;
        memcpy(l.grid, L->grid, sizeof l.grid);
        memcpy(l.block, L->block, sizeof l.block);
        l.name = strdup(L->name ? L->name : "");
        add_pending(t, &l);
        break;
    }
    case CC_EV_GRAPH_LAUNCH: {
        const cc_ev_graph_launch *G = &ev->u.graph_launch;
        cc_inflight_launch l = {0};
        l.launch_id = G->launch_id;
        l.context = G->context;
        l.stream = G->stream;
        l.seq = next_seq(t, G->stream);
        l.callsite = G->callsite;
        l.graph_exec = G->graph_exec;
        l.name = strdup("(graph)");
        add_pending(t, &l);
        break;
    }
    case CC_EV_MEMCPY:
        if (ev->u.memcpy.flags & CC_COPY_FLAG_ASYNC) next_seq(t, ev->u.memcpy.stream);
        else hold_sync(t, ev->h.tid, ev->u.memcpy.stream);
        break;
    case CC_EV_MEMSET:
        if (ev->u.memset.flags & CC_COPY_FLAG_ASYNC) next_seq(t, ev->u.memset.stream);
        else hold_sync(t, ev->h.tid, ev->u.memset.stream);
        break;
    case CC_EV_EVENT_RECORD: {
        event_info *e = get_event(t, ev->u.event.event, 1);
        stream_info *s = get_stream(t, ev->u.event.stream);
        if (e && s) {
            e->stream = ev->u.event.stream;
            e->seq = s->next_seq;
            e->recorded = 1;
        }
        break;
    }
    case CC_EV_EVENT_QUERY:
        if (ev->u.event.result != 0) break;
        /* a query that returned ready orders like a synchronize */
        __attribute__((fallthrough));
    case CC_EV_EVENT_SYNC: {
        event_info *e = get_event(t, ev->u.event.event, 0);
        if (e && e->recorded) {
            stream_upto u = {e->stream, e->seq, e->stream == CC_STREAM_LEGACY};
            complete_where(t, done_stream, &u);
        }
        break;
    }
    case CC_EV_STREAM_QUERY:
        if (ev->u.sync.result != 0) break;
        __attribute__((fallthrough));
    case CC_EV_STREAM_SYNC:
        sync_stream(t, ev->u.sync.stream);
        break;
    case CC_EV_CONTEXT_SYNC:
    case CC_EV_DEVICE_SYNC: {
        uint64_t ctx = ev->u.sync.context;
        complete_where(t, done_context, &ctx);
        break;
    }
    default:
        break;
    }
}

size_t cc_inflight_pending(const cc_inflight *t, const cc_inflight_launch **out) {
    *out = t->pending;
    return t->npending;
}
