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
 *    event is the API error of the copy call itself (a fault surfacing in the copy).
 *  - synchronize events are held back the same way: the driver reports the end of a wait also
 *    when the wait ended with the error, so only a next event that is not an API error of the
 *    same thread confirms it. */
#include "tools/async_error/inflight.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "core/strtab.h"

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
    cc_event sync;         /* a held-back synchronize event (kind 0: the copy's stream) */
} tentative_sync;

#define TENTATIVE_MAX 64

struct cc_inflight {
    cc_strtab *names; /* kernel names, interned once each: a launch then costs no allocation */
    uint64_t forgotten;
    tentative_sync tentative[TENTATIVE_MAX]; /* synchronous copies not known to have returned */
    size_t ntentative;         /* how many of them are active */
    cc_inflight_launch *pending;
    size_t npending, cap;
    stream_info *streams;
    size_t nstreams, scap;
    event_info *events;
    size_t nevents, ecap;
};

cc_inflight *cc_inflight_new(void) {
    cc_inflight *t = calloc(1, sizeof(cc_inflight));
    if (t && !(t->names = cc_strtab_new())) {
        free(t);
        return NULL;
    }
    return t;
}

void cc_inflight_free(cc_inflight *t) {
    if (!t) return;
    cc_strtab_free(t->names);
    free(t->pending);
    free(t->streams);
    free(t->events);
    free(t);
}

/* The live agent passes the driver's own name pointer, the same for every launch of a kernel:
 * a repeat costs a compare with the interned copy, no hashing (core/strtab.h). */
static const char *intern(cc_inflight *t, const char *name) {
    const char *r = cc_strtab_intern(t->names, name, NULL);
    return r ? r : "";
}

static stream_info *get_stream(cc_inflight *t, uint64_t id) {
    for (size_t i = 0; i < t->nstreams; i++)
        if (t->streams[i].stream == id) return &t->streams[i];
    stream_info *s = CC_ARRAY_PUSH(t->streams, t->nstreams, t->scap);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->stream = id;
    s->next_seq = 1;
    return s;
}

static event_info *get_event(cc_inflight *t, uint64_t id, int create) {
    for (size_t i = 0; i < t->nevents; i++)
        if (t->events[i].event == id) return &t->events[i];
    if (!create) return NULL;
    event_info *e = CC_ARRAY_PUSH(t->events, t->nevents, t->ecap);
    if (!e) return NULL;
    memset(e, 0, sizeof *e);
    e->event = id;
    return e;
}

/* Remove pending entries for which done(entry) holds. */
typedef int (*done_fn)(const cc_inflight *t, const cc_inflight_launch *l, const void *arg);

static void complete_where(cc_inflight *t, done_fn done, const void *arg) {
    size_t w = 0;
    for (size_t r = 0; r < t->npending; r++) {
        if (done(t, &t->pending[r], arg)) continue;
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
    if (t->npending >= CC_INFLIGHT_MAX) {
        /* Forget the oldest half at once (amortized O(1) per launch). */
        size_t drop = t->npending / 2;
        memmove(t->pending, t->pending + drop, (t->npending - drop) * sizeof *t->pending);
        t->npending -= drop;
        t->forgotten += drop;
    }
    cc_inflight_launch *slot = CC_ARRAY_PUSH(t->pending, t->npending, t->cap);
    if (slot) *slot = *l;
}

static uint64_t next_seq(cc_inflight *t, uint64_t stream) {
    stream_info *s = get_stream(t, stream);
    return s ? s->next_seq++ : 0;
}

static void apply_sync(cc_inflight *t, const cc_event *ev);

static void apply_tentative(cc_inflight *t, const tentative_sync *ts) {
    if (ts->sync.h.kind != CC_EV_NONE) apply_sync(t, &ts->sync);
    else sync_stream(t, ts->stream);
}

/* Holds back an ordering until the thread's next event shows the call returned successfully:
 * a synchronous copy (sync == NULL: its stream), or a synchronize callback, which the driver
 * reports when the wait ends, also when it ends with the error. */
static void hold_sync(cc_inflight *t, uint32_t tid, uint64_t stream, const cc_event *sync) {
    tentative_sync *slot = NULL;
    for (size_t i = 0; i < TENTATIVE_MAX && !slot; i++)
        if (!t->tentative[i].active) slot = &t->tentative[i];
    tentative_sync fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.tid = tid;
    fresh.stream = stream;
    fresh.active = 1;
    if (sync) fresh.sync = *sync;
    if (!slot) { /* table full: apply the ordering now rather than lose it */
        apply_tentative(t, &fresh);
        return;
    }
    *slot = fresh;
    t->ntentative++;
}

/* Resolve the tentative orderings of the event's thread: applied if the event shows the calls
 * returned (anything but an API error), dropped on an API error. One call may report several
 * synchronizations (a copy that synchronizes its stream, an event synchronize that also reports
 * the stream): a further sync event keeps them held. */
/* Events that show the thread made a new CUDA call, hence that its earlier call returned. Other
 * events of the same call (the definition of its host stack, a synchronize report, a kernel
 * function loaded on the way) say nothing about how the call ended. */
static int starts_new_call(uint32_t kind) {
    switch (kind) {
    case CC_EV_LAUNCH: case CC_EV_MEMCPY: case CC_EV_MEMSET: case CC_EV_ALLOC: case CC_EV_FREE:
    case CC_EV_STREAM_CREATE: case CC_EV_STREAM_DESTROY: case CC_EV_EVENT_CREATE:
    case CC_EV_EVENT_DESTROY: case CC_EV_EVENT_RECORD: case CC_EV_EVENT_WAIT:
    case CC_EV_EVENT_QUERY: case CC_EV_STREAM_QUERY: case CC_EV_GRAPH_LAUNCH:
    case CC_EV_HOST_FUNC: case CC_EV_PROCESS_EXIT:
        return 1;
    default:
        return 0;
    }
}

static void resolve_tentative(cc_inflight *t, const cc_event *ev) {
    if (t->ntentative == 0) return;
    if (ev->h.kind != CC_EV_API_ERROR && !starts_new_call(ev->h.kind)) return;
    for (size_t i = 0; i < TENTATIVE_MAX; i++) {
        tentative_sync *ts = &t->tentative[i];
        if (!ts->active || ts->tid != ev->h.tid) continue;
        ts->active = 0;
        t->ntentative--;
        if (ev->h.kind != CC_EV_API_ERROR) apply_tentative(t, ts);
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
        l.grid_id = L->grid_id;
        l.flags = L->flags;
        memcpy(l.grid, L->grid, sizeof l.grid);
        memcpy(l.block, L->block, sizeof l.block);
        l.name = intern(t, L->name);
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
        l.name = intern(t, "(graph)");
        add_pending(t, &l);
        break;
    }
    case CC_EV_MEMCPY:
        if (ev->u.memcpy.flags & CC_COPY_FLAG_ASYNC) next_seq(t, ev->u.memcpy.stream);
        else hold_sync(t, ev->h.tid, ev->u.memcpy.stream, NULL);
        break;
    case CC_EV_MEMSET:
        if (ev->u.memset.flags & CC_COPY_FLAG_ASYNC) next_seq(t, ev->u.memset.stream);
        else hold_sync(t, ev->h.tid, ev->u.memset.stream, NULL);
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
    case CC_EV_STREAM_QUERY:
        /* emitted when the query returned: a "complete" answer orders like a synchronize */
        if ((ev->h.kind == CC_EV_EVENT_QUERY ? ev->u.event.result : ev->u.sync.result) == 0)
            apply_sync(t, ev);
        break;
    case CC_EV_EVENT_SYNC:
    case CC_EV_STREAM_SYNC:
    case CC_EV_CONTEXT_SYNC:
    case CC_EV_DEVICE_SYNC:
        hold_sync(t, ev->h.tid, 0, ev);
        break;
    default:
        break;
    }
}

/* Completes what a synchronize (or a query that answered "complete") orders before it. */
static void apply_sync(cc_inflight *t, const cc_event *ev) {
    switch (ev->h.kind) {
    case CC_EV_EVENT_QUERY:
    case CC_EV_EVENT_SYNC: {
        event_info *e = get_event(t, ev->u.event.event, 0);
        if (e && e->recorded) {
            stream_upto u = {e->stream, e->seq, e->stream == CC_STREAM_LEGACY};
            complete_where(t, done_stream, &u);
        }
        break;
    }
    case CC_EV_STREAM_QUERY:
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

uint64_t cc_inflight_forgotten(const cc_inflight *t) { return t->forgotten; }

size_t cc_inflight_pending(const cc_inflight *t, const cc_inflight_launch **out) {
    *out = t->pending;
    return t->npending;
}
