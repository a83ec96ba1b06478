/* Launch progress marks (launch_progress.h): patching every module at its block entries and
 * exits, binding
 * each kernel function to its context's mark table, remembering marked launches by launch id,
 * and reading the marks at the first sticky error.
 *
 * Per context (set up at its first launch, on that launch's stream, and waited for, so that no
 * bound kernel ever reads a half-written header): a cc_progress_hdr in device memory, the
 * exited-thread counts and entered grid ids (device memory, zeroed) and the done and started
 * tables (pinned host memory). Kernel
 * functions are bound once (sanitizerSetCallbackData) and kept in a lock-free hash read on every
 * launch; a module unload starts a new generation (its function handles may be reused). Marked
 * launches go into a ring indexed by launch id, so the ring's window is exactly the last
 * CC_PROGRESS_RING launch ids. Launches into a capturing stream (which do not run) are never
 * marked: while a capture may be open the stream is asked (cuStreamIsCapturing).
 *
 * Restricted to listed launches (CUCHECK_PROGRESS_LAUNCHES "PID/ID:HASH,...", set by cucheck
 * for the second run after an asynchronous error left several candidates): in the process PID
 * only, only modules holding a listed kernel are patched (the kernel names in the cubin's
 * symbol table, hashed as core/hash.h's cc_hash_str), and only launches with a listed launch
 * id whose kernel name has the listed hash are marked. Modules without a listed kernel keep
 * their full speed; the patched call still runs in the other kernels of a patched module. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/tools/run/launch_progress.h"
#include "patch_records.h"
#include "agent/core/agent_knobs.h"
#include "core/hash.h"
#include "symbols/cubin.h"

#define CC_PROGRESS_CONTEXTS 64
#define CC_PROGRESS_FUNCS (1u << 16)   /* bound kernel functions, a power of two */
#define CC_PROGRESS_MODULES (1u << 14) /* patched modules, a power of two */
#define CC_PROGRESS_RING (1u << 16)    /* marked launches remembered, a power of two */
#define CC_PROGRESS_LISTED_MAX 64      /* launches a restricted run may list */

typedef struct progress_ctx {
    CUcontext ctx;
    int state;                   /* 0 not set up, 1 ready, -1 failed, 2 destroyed */
    cc_progress_hdr *hdr_dev;    /* device memory: header, counts, entered */
    volatile unsigned long long *done;    /* pinned host memory: done, then started */
    volatile unsigned long long *started;
} progress_ctx;

typedef struct bound_fn {
    _Atomic(uintptr_t) fn;       /* CUfunction, 0 = free; written last */
    _Atomic uint32_t gen;        /* generation it was bound in */
    uint32_t ctx;                /* index into contexts */
} bound_fn;

typedef struct ring_entry {
    _Atomic uint64_t launch_id;  /* written last */
    uint64_t grid_id;
    uint32_t ctx;
} ring_entry;

static struct {
    int active;
    pthread_mutex_t lock;        /* setup, binding, patching (the Sanitizer's patch calls) */
    progress_ctx ctxs[CC_PROGRESS_CONTEXTS];
    _Atomic uint32_t nctx;
    bound_fn *fns;
    _Atomic uint32_t gen;
    _Atomic(uintptr_t) *modules; /* patched CUmodules (0 free, 1 removed) */
    ring_entry *ring;
    atomic_int reported;
    uint64_t patched, patch_failed, bound, modules_skipped;
} cc_progress_g = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The launches a restricted run marks (set once at init, read-only afterwards). */
static struct {
    int on;
    uint32_t n;
    uint64_t launch_id[CC_PROGRESS_LISTED_MAX];
    uint64_t kernel_hash[CC_PROGRESS_LISTED_MAX];
} cc_progress_listed;

/* The function and module tables are not core/hashmap.h tables: launches on any thread read them
 * without the lock (each slot published by one atomic store, never moved), and a module that
 * goes away leaves a mark (1) behind rather than shifting entries back, which a lock-free
 * reader could miss. */
static uint32_t hash_ptr(uintptr_t p, uint32_t mask)
{
    return (uint32_t)(((uint64_t)p >> 4) * 0x9e3779b97f4a7c15ull >> 40) & mask;
}

/* One unsigned number of v at *p (decimal, or hexadecimal with hex), moving *p past it; -1 when
 * there is none or it overflows. */
static int parse_u64(const char **p, int hex, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    int digits = 0;
    for (;; s++, digits++) {
        int d;
        if (*s >= '0' && *s <= '9') {
            d = *s - '0';
        } else if (hex && *s >= 'a' && *s <= 'f') {
            d = *s - 'a' + 10;
        } else if (hex && *s >= 'A' && *s <= 'F') {
            d = *s - 'A' + 10;
        } else {
            break;
        }
        uint64_t base = hex ? 16u : 10u;
        if (v > (UINT64_MAX - (uint64_t)d) / base) {
            return -1;
        }
        v = v * base + (uint64_t)d;
    }
    if (digits == 0) {
        return -1;
    }
    *p = s;
    *out = v;
    return 0;
}

/* Read the list "PID/ID:HASH,ID:HASH,..." into cc_progress_listed: 1 when it lists launches of
 * this process, 0 when it is another process's (a child of the second run's program), -1 when
 * malformed. */
static int listed_parse(const char *v, uint64_t self)
{
    uint64_t pid = 0;
    const char *p = v;
    if (parse_u64(&p, 0, &pid) != 0 || *p++ != '/') {
        return -1;
    }
    uint32_t n = 0;
    while (*p != '\0') {
        uint64_t id = 0, hash = 0;
        if (n == CC_PROGRESS_LISTED_MAX || parse_u64(&p, 0, &id) != 0 || id == 0 ||
            *p++ != ':' || parse_u64(&p, 1, &hash) != 0 || (*p != ',' && *p != '\0')) {
            return -1;
        }
        cc_progress_listed.launch_id[n] = id;
        cc_progress_listed.kernel_hash[n] = hash;
        n++;
        if (*p == ',') {
            p++;
        }
    }
    if (n == 0) {
        return -1;
    }
    if (pid != self) {
        return 0;
    }
    cc_progress_listed.n = n;
    cc_progress_listed.on = 1;
    return 1;
}

/* 1 if the launch is listed: its id and its kernel name's hash (the name only hashed when the
 * id is listed). */
static int launch_listed(uint64_t launch_id, const char *name)
{
    for (uint32_t i = 0; i < cc_progress_listed.n; i++) {
        if (cc_progress_listed.launch_id[i] == launch_id) {
            return name != NULL && cc_hash_str(name) == cc_progress_listed.kernel_hash[i];
        }
    }
    return 0;
}

static int kernel_is_listed(const cc_kernel_info *k, void *user)
{
    uint64_t h = cc_hash_str(k->name);
    for (uint32_t i = 0; i < cc_progress_listed.n; i++) {
        if (cc_progress_listed.kernel_hash[i] == h) {
            *(int *)user = 1;
            return 1; /* stop */
        }
    }
    return 0;
}

/* 1 if the module's cubin holds a listed kernel, or cannot be read (then it is patched: a
 * listed launch must not go unmarked for want of reading its module). */
static int module_has_listed_kernel(const Sanitizer_ResourceModuleData *d)
{
    if (d->pCubin == NULL || d->cubinSize == 0 || !cc_cubin_is_cubin(d->pCubin, d->cubinSize)) {
        return 1;
    }
    int found = 0;
    char err[128];
    if (cc_cubin_kernels(d->pCubin, d->cubinSize, kernel_is_listed, &found, err, sizeof err) < 0) {
        return 1;
    }
    return found;
}

void cc_progress_init(void)
{
    cc_agent *a = &cc_agent_g;
    uint32_t need = CC_TRACK_RESOURCE | CC_TRACK_LAUNCH | CC_TRACK_RUNTIME | CC_TRACK_DRIVER;
    if ((a->track & need) != need || (a->track & CC_TRACK_IDLE) || !cc_agent_patches_embedded()) {
        return;
    }
    const char *listed = cc_knob_get(CC_KNOB_PROGRESS_LAUNCHES);
    int only = listed != NULL && listed[0] != '\0' ? listed_parse(listed, (uint64_t)getpid()) : 0;
    if (only < 0) {
        fprintf(stderr, "cucheck: %s='%s' is not PID/ID:HASH,...: ignored\n",
                cc_knob_name(CC_KNOB_PROGRESS_LAUNCHES), listed);
    }
    if (only != 1 && !cc_agent_switch(cc_knob_name(CC_KNOB_PROGRESS), "progress", 0)) {
        return;
    }
    cc_progress_g.fns = calloc(CC_PROGRESS_FUNCS, sizeof *cc_progress_g.fns);
    cc_progress_g.modules = calloc(CC_PROGRESS_MODULES, sizeof *cc_progress_g.modules);
    cc_progress_g.ring = calloc(CC_PROGRESS_RING, sizeof *cc_progress_g.ring);
    if (!cc_progress_g.fns || !cc_progress_g.modules || !cc_progress_g.ring) {
        free(cc_progress_g.fns);
        free(cc_progress_g.modules);
        free(cc_progress_g.ring);
        cc_agent_note("progress marks: out of memory, off");
        return;
    }
    cc_progress_g.active = 1;
}

/* ---- modules ---- */

static int module_patched(CUmodule m)
{
    uint32_t mask = CC_PROGRESS_MODULES - 1;
    for (uint32_t i = hash_ptr((uintptr_t)m, mask), n = 0; n < CC_PROGRESS_MODULES;
         i = (i + 1) & mask, n++) {
        uintptr_t v = atomic_load_explicit(&cc_progress_g.modules[i], memory_order_acquire);
        if (v == (uintptr_t)m) {
            return 1;
        }
        if (v == 0) {
            return 0;
        }
    }
    return 0;
}

/* With the lock held. */
static void module_set(CUmodule m, int patched)
{
    uint32_t mask = CC_PROGRESS_MODULES - 1;
    for (uint32_t i = hash_ptr((uintptr_t)m, mask), n = 0; n < CC_PROGRESS_MODULES;
         i = (i + 1) & mask, n++) {
        uintptr_t v = atomic_load_explicit(&cc_progress_g.modules[i], memory_order_relaxed);
        if (v == (uintptr_t)m) {
            if (!patched) {
                atomic_store_explicit(&cc_progress_g.modules[i], 1, memory_order_release);
            }
            return;
        }
        if (v == 0 || (v == 1 && patched)) {
            if (patched) {
                atomic_store_explicit(&cc_progress_g.modules[i], (uintptr_t)m,
                                      memory_order_release);
            }
            return;
        }
    }
}

static void patch_module(const Sanitizer_ResourceModuleData *d)
{
    if (cc_progress_listed.on && !module_has_listed_kernel(d)) {
        __atomic_fetch_add(&cc_progress_g.modules_skipped, 1, __ATOMIC_RELAXED);
        return; /* no listed kernel: it keeps its full speed */
    }
    pthread_mutex_lock(&cc_progress_g.lock);
    if (cc_agent_patches_load(d->context) == 0 &&
        sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BLOCK_ENTER, d->module,
                                   CC_PATCH_FN_PROGRESS_ENTER) == SANITIZER_SUCCESS &&
        sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BLOCK_EXIT, d->module,
                                   CC_PATCH_FN_PROGRESS_EXIT) == SANITIZER_SUCCESS &&
        sanitizerPatchModule(d->module) == SANITIZER_SUCCESS) {
        module_set(d->module, 1);
        cc_progress_g.patched++;
    } else if (cc_progress_g.patch_failed++ == 0) {
        cc_agent_note("progress marks: cannot patch module %p; its launches stay unmarked",
                      (void *)d->module);
    }
    pthread_mutex_unlock(&cc_progress_g.lock);
}

void cc_progress_on_resource(Sanitizer_CallbackId cbid, const void *data)
{
    if (!cc_progress_g.active) {
        return;
    }
    switch (cbid) {
    case SANITIZER_CBID_RESOURCE_MODULE_LOADED:
        patch_module(data);
        break;
    case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
        pthread_mutex_lock(&cc_progress_g.lock);
        module_set(((const Sanitizer_ResourceModuleData *)data)->module, 0);
        atomic_fetch_add(&cc_progress_g.gen, 1); /* its function handles may come back */
        pthread_mutex_unlock(&cc_progress_g.lock);
        break;
    case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING: {
        CUcontext ctx = ((const Sanitizer_ResourceContextData *)data)->context;
        pthread_mutex_lock(&cc_progress_g.lock);
        uint32_t n = atomic_load(&cc_progress_g.nctx);
        for (uint32_t i = 0; i < n; i++) {
            if (cc_progress_g.ctxs[i].ctx == ctx && cc_progress_g.ctxs[i].state != 2) {
                cc_progress_g.ctxs[i].state = 2; /* its memory goes with it: never read again */
            }
        }
        atomic_fetch_add(&cc_progress_g.gen, 1);
        pthread_mutex_unlock(&cc_progress_g.lock);
        break;
    }
    default:
        break;
    }
}

/* ---- stream capture ---- */

/* 1 if work on the stream may be captured rather than run (unknown counts as captured). */
static int maybe_captured(CUstream stream)
{
    if (!cc_agent_captures_open()) { /* capture_calls.c */
        return 0;
    }
    return cc_agent_stream_capturing(stream) != 0;
}

/* ---- contexts ---- */

/* With the lock held: allocate, zero and upload the context's tables on the launch's stream and
 * wait for them (a synchronous read back), once. */
static int ctx_setup(progress_ctx *c, Sanitizer_StreamHandle stream)
{
    size_t table = (size_t)CC_PROGRESS_SLOTS * sizeof(unsigned long long);
    void *dev = NULL, *host = NULL;
    size_t counts = (CC_PROGRESS_SHARDS + 1) * table;
    if (sanitizerAlloc(c->ctx, &dev, 256 + counts + table) != SANITIZER_SUCCESS) {
        return -1;
    }
    if (sanitizerAllocHost(c->ctx, &host, 2 * table) != SANITIZER_SUCCESS) {
        sanitizerFree(c->ctx, dev);
        return -1;
    }
    memset(host, 0, 2 * table);
    cc_progress_hdr hdr = {
        .counts = (unsigned long long *)((char *)dev + 256),
        .entered = (unsigned long long *)((char *)dev + 256 + counts),
        .done = host,
        .started = (unsigned long long *)((char *)host + table),
        .mask = CC_PROGRESS_SLOTS - 1,
        .flags = cc_agent_switch(cc_knob_name(CC_KNOB_PROGRESS_FENCE), "progress-fence", 1)
                     ? CC_PROGRESS_FLAG_FENCE_STARTED
                     : 0,
    };
    cc_progress_hdr back;
    if (sanitizerMemset(hdr.counts, 0, counts + table, stream) != SANITIZER_SUCCESS ||
        sanitizerMemcpyHostToDeviceAsync(dev, &hdr, sizeof hdr, stream) != SANITIZER_SUCCESS ||
        sanitizerMemcpyDeviceToHost(&back, dev, sizeof back, stream) != SANITIZER_SUCCESS ||
        memcmp(&back, &hdr, sizeof hdr) != 0) {
        sanitizerFreeHost(c->ctx, host);
        sanitizerFree(c->ctx, dev);
        return -1;
    }
    c->hdr_dev = dev;
    c->done = hdr.done;
    c->started = hdr.started;
    return 0;
}

/* The ready context of a launch (set up now on setup_stream if needed and may_setup), or -1. */
static int ctx_index(const Sanitizer_LaunchData *d, int may_setup,
                     Sanitizer_StreamHandle setup_stream)
{
    uint32_t n = atomic_load_explicit(&cc_progress_g.nctx, memory_order_acquire);
    for (uint32_t i = 0; i < n; i++) {
        progress_ctx *c = &cc_progress_g.ctxs[i];
        if (c->ctx == d->context && c->state != 2) {
            if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) == 1) {
                return (int)i;
            }
            break;
        }
    }
    if (!may_setup) {
        return -1;
    }
    pthread_mutex_lock(&cc_progress_g.lock);
    int found = -1;
    n = atomic_load(&cc_progress_g.nctx);
    for (uint32_t i = 0; i < n && found < 0; i++) {
        if (cc_progress_g.ctxs[i].ctx == d->context && cc_progress_g.ctxs[i].state != 2) {
            found = (int)i;
        }
    }
    if (found < 0 && n < CC_PROGRESS_CONTEXTS) {
        found = (int)n;
        memset(&cc_progress_g.ctxs[n], 0, sizeof cc_progress_g.ctxs[n]);
        cc_progress_g.ctxs[n].ctx = d->context;
        atomic_store_explicit(&cc_progress_g.nctx, n + 1, memory_order_release);
    }
    int ready = -1;
    if (found >= 0) {
        progress_ctx *c = &cc_progress_g.ctxs[found];
        if (c->state == 0) {
            int rc = ctx_setup(c, setup_stream);
            __atomic_store_n(&c->state, rc == 0 ? 1 : -1, __ATOMIC_RELEASE);
            if (rc != 0) {
                cc_agent_note("progress marks: cannot set up context %p; its launches stay "
                              "unmarked", (void *)d->context);
            }
        }
        ready = c->state == 1 ? found : -1;
    }
    pthread_mutex_unlock(&cc_progress_g.lock);
    return ready;
}

/* ---- kernel functions ---- */

/* 1 if fn is bound to context index ctx in the current generation; binds it if allowed. */
static int fn_bound(CUfunction fn, CUmodule module, uint32_t ctx, int may_bind)
{
    uint32_t mask = CC_PROGRESS_FUNCS - 1, gen = atomic_load(&cc_progress_g.gen);
    uint32_t start = hash_ptr((uintptr_t)fn, mask);
    for (uint32_t i = start, n = 0; n < 64; i = (i + 1) & mask, n++) {
        bound_fn *b = &cc_progress_g.fns[i];
        uintptr_t v = atomic_load_explicit(&b->fn, memory_order_acquire);
        if (v == (uintptr_t)fn && atomic_load_explicit(&b->gen, memory_order_acquire) == gen) {
            return b->ctx == ctx;
        }
        if (v == 0) {
            break;
        }
    }
    if (!may_bind || !module_patched(module)) {
        return 0;
    }
    int ok = 0;
    pthread_mutex_lock(&cc_progress_g.lock);
    for (uint32_t i = start, n = 0; n < 64; i = (i + 1) & mask, n++) {
        bound_fn *b = &cc_progress_g.fns[i];
        uintptr_t v = atomic_load_explicit(&b->fn, memory_order_relaxed);
        if (v != 0 && v != (uintptr_t)fn) {
            continue;
        }
        if (sanitizerSetCallbackData(fn, cc_progress_g.ctxs[ctx].hdr_dev) == SANITIZER_SUCCESS) {
            b->ctx = ctx;
            atomic_store_explicit(&b->gen, gen, memory_order_release);
            atomic_store_explicit(&b->fn, (uintptr_t)fn, memory_order_release);
            cc_progress_g.bound++;
            ok = 1;
        }
        break;
    }
    pthread_mutex_unlock(&cc_progress_g.lock);
    return ok;
}

/* ---- launches ---- */

void cc_progress_on_launch(const Sanitizer_LaunchData *d, cc_event *ev, int graph_node)
{
    if (!cc_progress_g.active || d->function == NULL) {
        return;
    }
    CUstream api_stream = graph_node && d->apiStream != NULL ? d->apiStream : d->stream;
    if (maybe_captured(api_stream)) {
        return; /* captured work does not run now */
    }
    /* A graph node's own stream is the driver's: set-up work goes on the graph launch's. */
    Sanitizer_StreamHandle setup = graph_node ? d->hApiStream : d->hStream;
    int ctx = ctx_index(d, setup != NULL, setup);
    if (ctx < 0 || (cc_progress_listed.on &&
                    !launch_listed(ev->u.launch.launch_id, ev->u.launch.name)) ||
        !fn_bound(d->function, d->module, (uint32_t)ctx, 1)) {
        return;
    }
    uint64_t id = ev->u.launch.launch_id;
    ring_entry *r = &cc_progress_g.ring[id & (CC_PROGRESS_RING - 1)];
    r->grid_id = d->gridId;
    r->ctx = (uint32_t)ctx;
    atomic_store_explicit(&r->launch_id, id, memory_order_release);
    ev->u.launch.flags |= CC_LAUNCH_FLAG_PROGRESS;
}

/* ---- the report ---- */

void cc_progress_on_sticky(void)
{
    if (!cc_progress_g.active || atomic_exchange(&cc_progress_g.reported, 1) != 0) {
        return;
    }
    uint64_t last = atomic_load(&cc_agent_g.next_launch_id) - 1;
    uint64_t covered_from = last >= CC_PROGRESS_RING ? last - CC_PROGRESS_RING + 1 : 1;
    uint32_t finished = 0;
    for (uint32_t i = 0; i < CC_PROGRESS_RING; i++) {
        ring_entry *r = &cc_progress_g.ring[i];
        uint64_t id = atomic_load_explicit(&r->launch_id, memory_order_acquire);
        if (id == 0 || id < covered_from) {
            continue;
        }
        progress_ctx *c = &cc_progress_g.ctxs[r->ctx];
        if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) != 1) {
            continue; /* destroyed: its work is over */
        }
        uint64_t slot = r->grid_id & (CC_PROGRESS_SLOTS - 1);
        if (c->done[slot] == r->grid_id) {
            finished++;
            continue;
        }
        cc_event ev;
        cc_agent_event_init(&ev, CC_EV_LAUNCH_PROGRESS);
        ev.u.launch_progress.launch_id = id;
        ev.u.launch_progress.started = c->started[slot] == r->grid_id;
        cc_agent_emit(&ev);
    }
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_LAUNCH_PROGRESS);
    ev.u.launch_progress.finished = finished;
    ev.u.launch_progress.covered_from = covered_from;
    cc_agent_emit(&ev);
    cc_agent_note("progress marks: %u marked launch(es) finished; %llu module(s) patched, %llu "
                  "failed, %llu without a listed kernel; %llu kernel(s) bound%s", finished,
                  (unsigned long long)cc_progress_g.patched,
                  (unsigned long long)cc_progress_g.patch_failed,
                  (unsigned long long)cc_progress_g.modules_skipped,
                  (unsigned long long)cc_progress_g.bound,
                  cc_progress_listed.on ? " (only listed launches marked)" : "");
}
