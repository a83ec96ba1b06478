/* Instrumentation manager, drains: reading the slots of finished launches back through the
 * client (memcheck: violations into events). A client with deferred_drain has its launches read
 * after their LAUNCH_END, where they are known to be finished or the program may wait: at the
 * exit of the API call in which the program synchronized their stream or context (no wait), at
 * a LAUNCH_END that finds the slots running short (the launches this thread made; it waits for
 * their streams), at a sticky error (no wait: the pinned records outlive the context), before a
 * module is unloaded or a context destroyed (the driver lets neither happen under running
 * work), after a stream is destroyed (never waited for), and at exit (an atexit handler that
 * waits; a fatal signal or _exit reads without waiting). Events come out in launch order.
 * Neither a wait nor a device read holds cc_instr_g.lock: other threads' callbacks wait for it
 * inside the driver. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "agent/core/agent.h"
#include "agent/instr/instr_internal.h"

typedef struct drain_pick {
    CUcontext ctx;
    int slot;
    uint64_t order;
    Sanitizer_StreamHandle hstream;
    int stream_ok;
    void *dev, *host, *extra;      /* the slot's buffers (stable while it is draining) */
    uint64_t launch_id;
    uint32_t errors;               /* its client's findings, once read */
    int read;                      /* drained here */
} drain_pick;

static cc_instr_ctx *ctx_find(CUcontext ctx)
{
    for (size_t i = 0; i < cc_instr_g.nctx; i++) {
        if (cc_instr_g.ctxs[i]->ctx == ctx && !cc_instr_g.ctxs[i]->broken) {
            return cc_instr_g.ctxs[i];
        }
    }
    return NULL;
}

static int in_scope(const cc_instr_ctx *c, const cc_instr_slot *s, cc_instr_drain_scope scope,
                    CUcontext ctx, const void *key)
{
    switch (scope) {
    case CC_DRAIN_ALL:
        return 1;
    case CC_DRAIN_CONTEXT:
        return c->ctx == ctx;
    case CC_DRAIN_STREAM:
        return c->ctx == ctx && (const void *)s->stream == key;
    case CC_DRAIN_MODULE:
        return (const void *)s->module == key;
    case CC_DRAIN_THREAD:
        return s->thread == (uintptr_t)key;
    }
    return 0;
}

void cc_instr_stream_destroyed(CUcontext ctx, CUstream stream)
{
    for (size_t i = 0; i < cc_instr_g.nctx; i++) {
        cc_instr_ctx *c = cc_instr_g.ctxs[i];
        for (int k = 0; k < CC_INSTR_SLOTS && c->ctx == ctx && c->nbusy > 0; k++) {
            if (c->slots[k].busy && c->slots[k].stream == stream) {
                c->slots[k].stream_gone = 1;
            }
        }
    }
}

void cc_instr_emit_checked(uint64_t launch_id, uint64_t last_id, uint32_t errors,
                           uint32_t result)
{
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_LAUNCH_CHECKED);
    ev.u.launch_checked.launch_id = launch_id;
    ev.u.launch_checked.last_id = last_id;
    ev.u.launch_checked.errors = errors;
    ev.u.launch_checked.result = result;
    cc_agent_emit(&ev);
}

int cc_instr_drain_slot(cc_instr_ctx *c, int slot, int device_ok, uint32_t *errors)
{
    cc_instr_state *g = &cc_instr_g;
    cc_instr_slot *s = &c->slots[slot];
    cc_instr_done l = {
        .launch_id = s->launch_id,
        .hstream = s->hstream,
        .function_name = s->function_name,
    };
    int stop = g->client->drain(c, slot, &l, cc_instr_module_find(s->module), device_ok);
    *errors = l.errors;
    cc_instr_module_bound(s->module, -1);
    s->busy = 0;
    s->pending = 0;
    s->draining = 0;
    s->stream_gone = 0;
    c->nbusy--;
    g->inflight--;
    return stop;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int by_launch_id(const void *a, const void *b)
{
    const drain_pick *x = a, *y = b;
    return x->launch_id < y->launch_id ? -1 : x->launch_id > y->launch_id;
}

/* (locked, after the picks were drained) LAUNCH_CHECKED for the launches just read, one per
 * run of them with no launch still unread (a busy slot of any context) inside: in --mode full a
 * drain of 48 launches costs one event, not 48 (each cost the launching thread ~0.2 us). A
 * launch bound after this moment emits its own launch event after these (it binds under the
 * same lock), so a run never covers a launch the tool has not seen. */
static void emit_read_runs(drain_pick *picks, size_t n)
{
    cc_instr_state *g = &cc_instr_g;
    size_t nread = 0;
    for (size_t i = 0; i < n; i++) {
        if (picks[i].read) {
            picks[nread++] = picks[i];
        }
    }
    qsort(picks, nread, sizeof *picks, by_launch_id);
    size_t cap = g->nctx * CC_INSTR_SLOTS, nbusy = 0;
    uint64_t *busy = cap > 0 ? malloc(cap * sizeof *busy) : NULL;
    for (size_t i = 0; i < g->nctx && busy != NULL; i++) {
        for (int k = 0; k < CC_INSTR_SLOTS && g->ctxs[i]->nbusy > 0; k++) {
            if (g->ctxs[i]->slots[k].busy) {
                busy[nbusy++] = g->ctxs[i]->slots[k].launch_id;
            }
        }
    }
    qsort(busy, nbusy, sizeof *busy, by_u64);
    size_t b = 0;
    for (size_t i = 0; i < nread;) {
        uint64_t first = picks[i].launch_id;
        uint32_t errors = picks[i].errors;
        size_t j = i;
        while (b < nbusy && busy[b] < first) {
            b++;
        }
        /* Extend while the next read launch comes before the next unread one. Without the
         * busy list (out of memory) every launch is its own run. */
        while (busy != NULL && j + 1 < nread &&
               (b == nbusy || picks[j + 1].launch_id < busy[b])) {
            j++;
            errors += picks[j].errors;
        }
        cc_instr_emit_checked(first, j > i ? picks[j].launch_id : 0, errors, CC_CHECKED_READ);
        i = j + 1;
    }
    free(busy);
}

static int by_order(const void *a, const void *b)
{
    const drain_pick *x = a, *y = b;
    return x->order < y->order ? -1 : x->order > y->order;
}

int cc_instr_drain(cc_instr_drain_scope scope, CUcontext ctx, const void *key, int wait,
                   int device_ok, const char *why)
{
    cc_instr_state *g = &cc_instr_g;
    if (g->inflight == 0) {
        return 0;
    }
    size_t cap = g->nctx * CC_INSTR_SLOTS, n = 0;
    drain_pick *picks = cap > 0 ? malloc(cap * sizeof *picks) : NULL;
    if (picks == NULL) {
        return 0;
    }
    for (size_t i = 0; i < g->nctx; i++) {
        cc_instr_ctx *c = g->ctxs[i];
        for (int k = 0; k < CC_INSTR_SLOTS && c->nbusy > 0; k++) {
            cc_instr_slot *s = &c->slots[k];
            if (s->busy && s->pending && !s->draining && in_scope(c, s, scope, ctx, key)) {
                s->draining = 1; /* no other thread drains it meanwhile */
                picks[n++] = (drain_pick){.ctx = c->ctx, .slot = k, .order = s->order,
                                          .hstream = s->stream_gone ? NULL : s->hstream,
                                          .stream_ok = 1, .dev = s->dev, .host = s->host,
                                          .extra = s->extra, .launch_id = s->launch_id};
            }
        }
    }
    qsort(picks, n, sizeof *picks, by_order);
    if (n > 0 && scope != CC_DRAIN_STREAM && scope != CC_DRAIN_CONTEXT) {
        cc_agent_note("%s: reading %zu launch(es) back (%s)", g->client->name, n, why);
    }
    void (*fetch)(void *, void *, void *, Sanitizer_StreamHandle) = g->client->fetch;
    if ((wait || (device_ok && fetch != NULL)) && n > 0) {
        pthread_mutex_unlock(&g->lock);
        for (size_t i = 0; i < n; i++) {
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++) {
                if (picks[j].hstream == picks[i].hstream) {
                    picks[i].stream_ok = picks[j].stream_ok;
                    seen = 1;
                }
            }
            if (!seen && picks[i].hstream != NULL && wait) {
                picks[i].stream_ok =
                    sanitizerStreamSynchronize(picks[i].hstream) == SANITIZER_SUCCESS;
            }
        }
        for (size_t i = 0; i < n && fetch != NULL && device_ok; i++) {
            if (picks[i].stream_ok && picks[i].hstream != NULL) {
                fetch(picks[i].dev, picks[i].host, picks[i].extra, picks[i].hstream);
            }
        }
        pthread_mutex_lock(&g->lock);
    }
    int stop = 0;
    for (size_t i = 0; i < n; i++) {
        /* The context may have been destroyed while this thread waited (its slots went with
         * it, drained by the destroying thread or lost with the device). */
        cc_instr_ctx *c = ctx_find(picks[i].ctx);
        if (c != NULL && c->slots[picks[i].slot].draining) {
            stop |= cc_instr_drain_slot(c, picks[i].slot, device_ok && picks[i].stream_ok,
                                        &picks[i].errors);
            picks[i].read = 1;
        }
    }
    emit_read_runs(picks, n);
    free(picks);
    return stop;
}

/* A synchronization this thread saw, read back at the exit of its API call: the SYNCHRONIZE
 * callback runs inside the driver, where waiting for the manager's lock risks a deadlock with
 * launches on other threads (cc_instr_client.fetch says how one was seen). */
static _Thread_local struct {
    int set, whole;
    CUcontext ctx;
    CUstream stream;
} cc_synced;

void cc_instr_on_synchronized(CUcontext ctx, CUstream stream, int whole_context)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active || !g->deferred_drain || __atomic_load_n(&g->inflight, __ATOMIC_RELAXED) == 0) {
        return;
    }
    if (cc_synced.set && (cc_synced.ctx != ctx || cc_synced.stream != stream)) {
        whole_context = 1; /* two in one call: the context covers both (no wait either way) */
    }
    cc_synced.set = 1;
    cc_synced.whole |= whole_context;
    cc_synced.ctx = ctx;
    cc_synced.stream = stream;
}

void cc_instr_after_synchronized(void)
{
    if (!cc_synced.set) {
        return;
    }
    cc_instr_state *g = &cc_instr_g;
    cc_synced.set = 0;
    pthread_mutex_lock(&g->lock);
    cc_instr_drain(cc_synced.whole ? CC_DRAIN_CONTEXT : CC_DRAIN_STREAM, cc_synced.ctx,
                   cc_synced.stream, 0, 1, "the program synchronized");
    pthread_mutex_unlock(&g->lock);
    cc_synced.whole = 0;
}

void cc_instr_on_sticky_error(void)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active || !g->deferred_drain) {
        return;
    }
    pthread_mutex_lock(&g->lock);
    cc_instr_drain(CC_DRAIN_ALL, NULL, NULL, 0, 0, "sticky error"); /* pinned records survive */
    pthread_mutex_unlock(&g->lock);
}

#define CC_INSTR_FATAL_LOCK_MS 200 /* a fatal signal's drain tries the lock this long */

/* The end of the process: what is pending is read. wait: the launches' streams are waited for
 * (the Sanitizer must still be usable); try: the lock may be held by a thread that crashed. */
static void drain_at_end(int wait, int try, const char *why)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active || !g->deferred_drain) {
        return;
    }
    if (try) {
        /* Another thread may hold the lock for a moment (a launch callback); the crashed thread
         * itself may hold it for good: retry for a bounded time, never wait. */
        struct timespec step = {0, 1000 * 1000};
        int waited = 0;
        while (pthread_mutex_trylock(&g->lock) != 0) {
            if (++waited > CC_INSTR_FATAL_LOCK_MS) {
                return;
            }
            nanosleep(&step, NULL);
        }
    } else if (pthread_mutex_lock(&g->lock) != 0) {
        return;
    }
    cc_instr_drain(CC_DRAIN_ALL, NULL, NULL, wait, wait, why);
    pthread_mutex_unlock(&g->lock);
}

/* Registered with atexit at the first deferred launch, so after the CUDA runtime's own exit
 * handlers, and therefore run before them: contexts, modules and the Sanitizer are still up. */
static void exit_hook(void)
{
    drain_at_end(1, 0, "exit");
    cc_agent_note("%s: %llu checked launch(es); %llu launch(es) ran unchecked in a patched module "
                  "(paying its patched calls); %llu wait(s) at LAUNCH_END because slots ran "
                  "short; %llu read(s) at API exits so that checked modules could be unpatched; "
                  "%llu launch(es) found no free slot and ran unchecked", cc_instr_g.client->name,
                  (unsigned long long)cc_instr_g.checked_launches,
                  (unsigned long long)__atomic_load_n(&cc_instr_g.patched_unchecked,
                                                      __ATOMIC_RELAXED),
                  (unsigned long long)cc_instr_g.drain_waits,
                  (unsigned long long)cc_instr_g.unpatch_reads,
                  (unsigned long long)cc_instr_g.no_slot);
}

void cc_instr_exit_hook_once(void)
{
    static int registered;
    if (!__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL)) {
        atexit(exit_hook);
    }
}

/* A fatal signal or _exit right after a checked launch: its kernel may not have run yet, and
 * the device keeps running while the process ends. The records are pinned host memory the
 * patches write into, with no completion mark, so the handler gives launches still in flight a
 * bounded time (nanosleep is async-signal-safe; no CUDA call) before they are read. */
#define CC_INSTR_FATAL_WAIT_MS 300

void cc_instr_on_process_end(int fatal)
{
    if (fatal && cc_instr_g.active && __atomic_load_n(&cc_instr_g.inflight, __ATOMIC_RELAXED) > 0) {
        struct timespec step = {0, 10 * 1000 * 1000};
        for (int waited = 0; waited < CC_INSTR_FATAL_WAIT_MS; waited += 10) {
            nanosleep(&step, NULL);
        }
    }
    /* Late (on_exit runs after the runtime's teardown when the agent was preloaded) or in a
     * fatal signal: no Sanitizer call, the pinned records only. */
    drain_at_end(0, fatal, fatal ? "fatal signal or _exit" : "exit, after the runtime's teardown");
}

void cc_instr_after_fork_child(void)
{
    /* The parent's launches are the parent's to read; the child cannot use its contexts. */
    cc_instr_state *g = &cc_instr_g;
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    g->lock = fresh;
    cc_instr_suballoc_after_fork_child();
    for (size_t i = 0; i < g->nctx; i++) {
        for (int k = 0; k < CC_INSTR_SLOTS; k++) {
            g->ctxs[i]->slots[k].busy = 0;
            g->ctxs[i]->slots[k].pending = 0;
            g->ctxs[i]->slots[k].draining = 0;
        }
        g->ctxs[i]->nbusy = 0;
    }
    g->inflight = 0;
    for (size_t i = 0; i < g->nmods; i++) {
        g->mods[i].bound = 0;
    }
    cc_decided_invalidate();
}
