/* Instrumentation manager, entry points (instr.h): activation with the client of the
 * process's tool (its plug-in's instr_client), the allocation and module callbacks, and per launch: at LAUNCH_BEGIN the client's
 * policy decides, a slot is taken, the allocation table (when it does not ride in the header)
 * and the header the client fills are staged in the slot's pinned buffer and uploaded on the
 * launch's stream (no wait: the launch is ordered after them), and the slot is bound with
 * sanitizerSetLaunchCallbackData. At LAUNCH_END the slot is drained (instr_drain.c: memcheck's
 * violations, readable from pinned memory even when the kernel faulted; streamcheck's access
 * ranges) into events with the launch's id: at once after waiting for the stream, or, for a
 * client with deferred_drain, later, when the launch is known to be done. A client may ask to
 * stop the program after a launch (memcheck --on-error stop; its drains are never deferred). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/instr/instr.h"
#include "agent/instr/instr_internal.h"
#include "agent/core/self_time.h"
#include "core/agent_env.h"
#include "agent/core/agent_knobs.h"

typedef struct cc_instr_current {
    int set;
    Sanitizer_LaunchHandle launch;
    CUcontext ctx;
    CUmodule module;
    int slot;
    uint64_t launch_id;
    int end_was_off; /* bound while LAUNCH_END was off: its launch call's exit ends it */
} cc_instr_current;

static _Thread_local cc_instr_current cc_cur;

static void launch_submitted(Sanitizer_StreamHandle hstream, int may_wait);

void cc_instr_init(const cc_instr_client *cl)
{
    cc_instr_state *g = &cc_instr_g;
    if (!cc_agent_g.subscribed || cl == NULL || cl->dev_bytes > CC_INSTR_HDR_MAX) {
        return;
    }
    const char *classes = cc_knob_get(CC_KNOB_PATCH_CLASSES);
    if (classes != NULL && classes[0] != '\0') {
        static cc_instr_client adjusted; /* the tool's client with the classes changed */
        char err[256];
        const cc_instr_client *a = cc_instr_classes_adjust(cl, classes, &adjusted, err,
                                                           sizeof err);
        if (a == NULL) {
            fprintf(stderr, "cucheck: CUCHECK_PATCH_CLASSES: %s; the tool's classes are kept\n",
                    err);
        } else {
            cc_agent_report_note("%s: CUCHECK_PATCH_CLASSES=%s: those instruction classes are "
                                 "patched with empty functions or not at all (a diagnostic aid)",
                                 cl->name, classes);
            cl = a;
        }
    }
    g->client = cl;
    g->active = 1;
    cc_instr_stack_init(cl->name, cl->patch_stack);
    /* Modules are unpatched and re-patched only at API exits (cc_instr_module_want). */
    g->can_defer =
        (cc_agent_g.track & (CC_TRACK_RUNTIME | CC_TRACK_DRIVER | CC_TRACK_APIWORK)) != 0;
    if (!g->can_defer) {
        cc_agent_note("%s: no API callbacks (CUCHECK_TRACK): modules stay patched after their "
                      "kernels were checked", cl->name);
    }
    const char *drain = cc_knob_get(CC_KNOB_DRAIN);
    g->deferred_drain = cl->deferred_drain && !(drain != NULL && strcmp(drain, "launch") == 0);
    const char *end = cc_knob_get(CC_KNOB_LAUNCH_END);
    g->end_always = end != NULL && strcmp(end, "always") == 0;
    if (sanitizerEnableCallback(1, cc_agent_g.subscriber, SANITIZER_CB_DOMAIN_LAUNCH,
                                SANITIZER_CBID_LAUNCH_END) != SANITIZER_SUCCESS) {
        fprintf(stderr, "cucheck: %s: cannot enable launch-end callbacks; device-side "
                        "instrumentation is off\n", cl->name);
        g->active = 0;
    }
    g->end_on = g->active;
    pthread_rwlockattr_t attr;
    if (g->can_defer && pthread_rwlockattr_init(&attr) == 0) {
        /* Writer-preferring: launches from many threads must not starve a module change. */
        pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
        g->gate_ready = pthread_rwlock_init(&g->gate, &attr) == 0;
        pthread_rwlockattr_destroy(&attr);
    }
    /* A deferred-drain client needs nothing of LAUNCH_END but the mark that its launch was
     * submitted, which the exit of the driver's launch call gives as well: such a client's
     * launches may be bound while LAUNCH_END is off, so it may be turned off (count_quiet). */
    g->ends_at_exit = g->deferred_drain && g->gate_ready &&
                      (cc_agent_g.track & (CC_TRACK_DRIVER | CC_TRACK_APIWORK)) != 0;
    g->end_may_go_off = (cl->end_dynamic || g->ends_at_exit) && !g->end_always;
}

/* LAUNCH_END callbacks on or off (see cc_instr_state), without the lock. 0 on success; a
 * failed turn-off leaves them on. */
static int cc_instr_launch_end_callbacks(int on)
{
    static pthread_mutex_t end_lock = PTHREAD_MUTEX_INITIALIZER; /* the call and the flag agree */
    cc_instr_state *g = &cc_instr_g;
    pthread_mutex_lock(&end_lock);
    int rc = sanitizerEnableCallback((uint32_t)on, cc_agent_g.subscriber,
                                     SANITIZER_CB_DOMAIN_LAUNCH,
                                     SANITIZER_CBID_LAUNCH_END) == SANITIZER_SUCCESS ? 0 : -1;
    __atomic_store_n(&g->end_on, rc == 0 ? on : 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&end_lock);
    return rc;
}

/* The resource callbacks the manager reads; the others never take its lock. */
static int resource_wanted(Sanitizer_CallbackId cbid)
{
    switch (cbid) {
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC:
    case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC:
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC:
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RESERVE:
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RELEASE:
    case SANITIZER_CBID_RESOURCE_MODULE_LOADED:
    case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
    case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
    case SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING:
        return 1;
    default:
        return 0;
    }
}

void cc_instr_on_resource(Sanitizer_CallbackId cbid, const void *data)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active || !resource_wanted(cbid)) {
        return;
    }
    pthread_mutex_lock(&g->lock);
    switch (cbid) {
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC:
    case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC: {
        const Sanitizer_ResourceMemoryData *d = data;
        cc_instr_table_add(d->address, d->size, 0);
        break;
    }
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC:
        cc_instr_table_remove(((const Sanitizer_ResourceMemoryData *)data)->address);
        break;
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RESERVE: {
        /* Mapped pieces of a reserved range are not reported one by one: the range counts. */
        const Sanitizer_ResourceVirtualRange *d = data;
        cc_instr_table_add(d->address, d->size, 1);
        break;
    }
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RELEASE:
        cc_instr_table_remove(((const Sanitizer_ResourceVirtualRange *)data)->address);
        break;
    case SANITIZER_CBID_RESOURCE_MODULE_LOADED:
        cc_instr_module_loaded(data);
        break;
    case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING: {
        /* Its pending launches' lines come from the module's cubin: read them first (no wait:
         * the driver does not unload code that still runs). */
        CUmodule module = ((const Sanitizer_ResourceModuleData *)data)->module;
        cc_instr_drain(CC_DRAIN_MODULE, NULL, module, 0, 1, "module unload");
        cc_instr_module_unloading(module);
        cc_instr_stack_forget_module(module);
        break;
    }
    case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING: {
        CUcontext ctx = ((const Sanitizer_ResourceContextData *)data)->context;
        cc_instr_drain(CC_DRAIN_CONTEXT, ctx, NULL, 0, 1, "context destroy"); /* it was idle */
        cc_instr_ctx_destroy(ctx);
        cc_instr_stack_forget_context(ctx);
        break;
    }
    case SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING: {
        /* Its handle is valid only until it is destroyed; no wait inside the driver here. */
        const Sanitizer_ResourceStreamData *d = data;
        cc_instr_stream_destroyed(d->context, d->stream);
        break;
    }
    default:
        break;
    }
    pthread_mutex_unlock(&g->lock);
    if (cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED) {
        cc_instr_patch_at_load(((const Sanitizer_ResourceModuleData *)data)->module);
    }
}

/* A slot taken for a launch: what bind_finish does without the lock. */
typedef struct cc_instr_binding {
    int slot;
    size_t hdr_bytes;
    size_t table_ranges;           /* ranges of the staged table to upload (0: none) */
    int function_pc_known;         /* the kernel's code range came from the cache */
} cc_instr_binding;

/* (locked) Take a slot and stage what the launch needs of the manager's shared state: the table
 * (when the header cannot carry it and the slot's device copy is stale) and the header the client
 * fills, both host-side. 0 with *b set, or -1 (no slot, or fill failed). */
static int bind_begin(cc_instr_ctx *c, const Sanitizer_LaunchData *d, const cc_ev_launch *launch,
                      cc_instr_binding *b)
{
    cc_instr_state *g = &cc_instr_g;
    const cc_instr_client *cl = g->client;
    int slot = cc_instr_slot_take(c);
    if (slot < 0) {
        g->no_slot++;
        return -1;
    }
    cc_instr_slot *s = &c->slots[slot];
    size_t hdr_bytes = (cl->dev_bytes + 15u) & ~(size_t)15u;
    cc_instr_table_ready(); /* the clients and the device read live ranges, all changes in */
    size_t nt = g->table.n > cl->header_ranges ? g->table.n : 0;
    /* Growing past the context's first blocks allocates (rare: tables of over
     * CC_INSTR_TABLE_FIRST ranges). */
    if (cc_instr_slot_reserve(c, slot, hdr_bytes + nt * sizeof(cc_mc_range), nt) != 0) {
        goto unbound;
    }
    b->table_ranges = 0;
    if (nt > 0 && s->table_version != g->table.version) {
        /* The slot's previous launch was drained, so nothing reads its table any more. */
        memcpy(s->stage + hdr_bytes, g->table.r, nt * sizeof(cc_mc_range));
        s->table_version = g->table.version;
        b->table_ranges = nt;
    }
    memset(s->stage, 0, cl->dev_bytes);
    if (cl->fill(c, slot, d, s->stage) != 0) {
        goto unbound;
    }
    cc_instr_module_bound(d->module, +1);
    s->launch_id = launch->launch_id;
    s->order = g->bind_order++;
    s->stream = d->stream;
    s->hstream = d->hStream;
    s->module = d->module;
    s->thread = (uintptr_t)pthread_self();
    s->function_name = launch->name; /* the module's own string may go first */
    b->function_pc_known =
        cc_instr_function_pc_cached(d->module, d->function, &s->function_pc, &s->function_size);
    s->pending = 0;
    s->draining = 0;
    s->stream_gone = 0;
    b->slot = slot;
    b->hdr_bytes = hdr_bytes;
    return 0;
unbound:
    s->busy = 0;
    c->nbusy--;
    return -1;
}

/* Without the lock, the slot being this launch's: the client's device-side preparation, the
 * uploads on the launch's stream (no wait: the launch is ordered after them) and the binding.
 * Driver and Sanitizer calls wait for driver locks that other threads hold inside their
 * callbacks while they wait for the manager's lock: none is made under it (streamcheck --mode
 * full hung with four launching threads when the upload ran under it). 0 ok. */
static int bind_finish(cc_instr_ctx *c, const Sanitizer_LaunchData *d, const cc_instr_binding *b)
{
    const cc_instr_client *cl = cc_instr_g.client;
    cc_instr_slot *s = &c->slots[b->slot];
    if (cl->prepare != NULL && cl->prepare(c, b->slot, d, s->stage) != 0) {
        return -1;
    }
    if (b->table_ranges > 0 &&
        sanitizerMemcpyHostToDeviceAsync(s->table_dev, s->stage + b->hdr_bytes,
                                         b->table_ranges * sizeof(cc_mc_range),
                                         d->hStream) != SANITIZER_SUCCESS) {
        return -1;
    }
    if (sanitizerMemcpyHostToDeviceAsync(s->dev, s->stage, cl->dev_bytes, d->hStream) !=
            SANITIZER_SUCCESS ||
        sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream, s->dev) !=
            SANITIZER_SUCCESS) {
        return -1;
    }
    if (!b->function_pc_known) {
        cc_instr_function_pc_ask(d->module, d->function, d->functionName, &s->function_pc,
                                 &s->function_size);
    }
    return 0;
}

/* (locked) A binding that bind_finish could not complete: the slot is free again. */
static void bind_undo(cc_instr_ctx *c, int slot)
{
    cc_instr_state *g = &cc_instr_g;
    c->slots[slot].busy = 0;
    c->slots[slot].table_version = UINT64_MAX; /* its device copy may be half-written */
    cc_instr_module_bound(c->slots[slot].module, -1);
    c->nbusy--;
    g->inflight--;
    g->checked_launches--;
}

/* Whether a launch is being captured into a graph rather than run: such a launch must not be
 * instrumented (the per-launch upload and wait on its stream would end the capture with an
 * error); its kernel runs later as a graph node. */
static int cc_launch_captured(const Sanitizer_LaunchData *d)
{
    return cc_agent_stream_capturing(d->stream) == 1;
}

/* (locked) Whether the manager has seen ctx (its buffers exist, or could not be made). */
static int ctx_known(CUcontext ctx)
{
    for (size_t i = 0; i < cc_instr_g.nctx; i++) {
        if (cc_instr_g.ctxs[i]->ctx == ctx) {
            return 1;
        }
    }
    return 0;
}

/* (locked) The quiet count after a launch, and whether launch-end callbacks should go off now
 * (see cc_instr_state; end_on is cleared here, the callbacks turned off by the caller). */
static int count_quiet(int bound)
{
    cc_instr_state *g = &cc_instr_g;
    g->quiet_launches = bound ? 0 : g->quiet_launches + 1;
    if (g->end_on && g->end_may_go_off && g->inflight == 0 &&
        g->quiet_launches >= CC_INSTR_END_QUIET) {
        g->end_on = 0;
        return 1;
    }
    return 0;
}

static void launch_begin(cc_instr_state *g, const Sanitizer_LaunchData *d, cc_event *ev);

/* (locked) Whether m's launches that need no check can skip the lock from now on
 * (decided_cache.h): unpatched, no change of it waiting or running, and modules are changed
 * only under the launch gate. */
static int module_settled(const cc_instr_module *m)
{
    const cc_instr_state *g = &cc_instr_g;
    return m != NULL && !m->patched && !m->changing && !m->load_pending && !m->repatch_pending &&
           !m->unpatch_pending && m->wanted == 0 && g->can_defer && g->gate_ready;
}

void cc_instr_on_launch_begin(const Sanitizer_LaunchData *d, cc_event *ev)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active) {
        return;
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    launch_begin(g, d, ev);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_LAUNCH_GATE, t0);
    }
}

static void launch_begin(cc_instr_state *g, const Sanitizer_LaunchData *d, cc_event *ev)
{
    if (cc_cur.set && cc_cur.end_was_off) {
        launch_submitted(NULL, 0); /* bound with LAUNCH_END off, and no launch call's exit came */
    }
    /* A kernel and shape this thread saw decided for good, in an unpatched module: no lock.
     * While launch-end callbacks may still go off, the quiet launches are counted below. */
    cc_decided_key key = {d->function,
                          {d->gridDim_x, d->gridDim_y, d->gridDim_z},
                          {d->blockDim_x, d->blockDim_y, d->blockDim_z}};
    if ((!__atomic_load_n(&g->end_on, __ATOMIC_RELAXED) || !g->end_may_go_off) &&
        cc_decided_hit(&key)) {
        return;
    }
    /* One round trip through the lock for the decision and the host-side binding (a checked
     * launch in --mode full pays for every one). */
    cc_instr_ctx *c = NULL;
    cc_instr_binding b = {.slot = -1};
    pthread_mutex_lock(&g->lock);
    cc_instr_module *m = cc_instr_module_find(d->module);
    int want = g->client->decide(d, m, ev);
    if (cc_decided_take_steady() && !want && module_settled(m)) {
        cc_decided_remember(&key);
    }
    int patched = m != NULL && m->patched;
    /* With LAUNCH_END off this launch's end would not be seen: turn it on for the next ones and
     * let this one run unbound, unless its launch call's exit will say it was submitted. */
    int end_on = g->end_on;
    int end_ready = end_on || g->ends_at_exit;
    int captured = -1; /* not asked yet */
    if (want && end_ready && !ctx_known(d->context)) {
        /* The context's buffers are allocated at its first checked launch, never inside a
         * capture (an allocation there would end it with an error): asked first, outside the
         * lock. */
        pthread_mutex_unlock(&g->lock);
        captured = cc_launch_captured(d);
        pthread_mutex_lock(&g->lock);
    }
    /* A kernel whose stack and the patch headroom do not fit the context's limit runs
     * unchecked; the limit is raised for its next launch. */
    if (want && end_ready && captured != 1 && cc_instr_stack_fits(d, m)) {
        c = cc_instr_ctx_get(d->context);
        if (c != NULL && bind_begin(c, d, &ev->u.launch, &b) == 0) {
            g->inflight++;
            g->checked_launches++;
        } else {
            b.slot = -1;
        }
    }
    int end_off = count_quiet(b.slot >= 0);
    pthread_mutex_unlock(&g->lock);
    if (want && !end_on) {
        cc_instr_launch_end_callbacks(1);
    }
    /* Asked of the driver only for a bound launch, outside the lock: a launch being captured
     * into a graph runs uninstrumented, like one that finds no free slot. */
    if (b.slot >= 0 &&
        ((captured < 0 && cc_launch_captured(d)) || bind_finish(c, d, &b) != 0)) {
        pthread_mutex_lock(&g->lock);
        bind_undo(c, b.slot);
        pthread_mutex_unlock(&g->lock);
        b.slot = -1;
    }
    if (end_off && cc_instr_launch_end_callbacks(0) == 0 &&
        !__atomic_exchange_n(&g->end_off_noted, 1, __ATOMIC_RELAXED)) {
        cc_agent_note("%s: launch-end callbacks off after %u launches without instrumentation "
                      "(on again when one needs it)", g->client->name, CC_INSTR_END_QUIET);
    }
    if (b.slot >= 0) {
        cc_cur.set = 1;
        cc_cur.launch = d->hLaunch;
        cc_cur.ctx = d->context;
        cc_cur.module = d->module;
        cc_cur.slot = b.slot;
        cc_cur.launch_id = ev->u.launch.launch_id;
        cc_cur.end_was_off = !end_on;
        ev->u.launch.flags |= CC_LAUNCH_FLAG_INSTRUMENTED;
        return;
    }
    if (want && g->client->unbound != NULL) {
        g->client->unbound(d);
    }
    if (patched) {
        uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
        __atomic_fetch_add(&g->patched_unchecked, 1, __ATOMIC_RELAXED);
        sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream, NULL);
        if (t0 != 0) {
            cc_self_time_add(CC_SELF_PATCHED_UNCHECKED, t0);
        }
    }
}

/* A kernel node of a graph launch: never bound (it runs unchecked). In a patched module it pays
 * the patched calls, so for the patch policy it is a launch that needed no instrumentation: a
 * module whose kernels, checked on their eager launches, then run only as graph nodes
 * (torch.compile's mode="reduce-overhead" replays every step as CUDA graphs) is unpatched like
 * one whose eager launches stopped needing checks. It tripled the H200 compiled_step's time per
 * step under streamcheck and memcheck while it stayed patched. */
void cc_instr_on_graph_kernel_node(const Sanitizer_LaunchData *d)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active || d->hLaunch == NULL) {
        return;
    }
    pthread_mutex_lock(&g->lock);
    cc_instr_module *m = cc_instr_module_find(d->module);
    int patched = m != NULL && m->patched;
    if (patched) {
        int may_unpatch = g->client->may_unpatch != NULL && g->client->may_unpatch(m);
        (void)cc_instr_module_want(m, 0, may_unpatch);
    }
    pthread_mutex_unlock(&g->lock);
    if (patched) {
        __atomic_fetch_add(&g->patched_unchecked, 1, __ATOMIC_RELAXED);
        sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream, NULL);
    }
}

/* Driver calls that launch kernels: they hold the launch gate (cc_instr_state.gate). */
static int is_launch_call(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid)
{
    if (domain != SANITIZER_CB_DOMAIN_DRIVER_API) {
        return 0;
    }
    switch (cbid) {
    case SANITIZER_CBID_DRIVER_API_cuLaunch:
    case SANITIZER_CBID_DRIVER_API_cuLaunchGrid:
    case SANITIZER_CBID_DRIVER_API_cuLaunchGridAsync:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx:
    case SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz:
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel:
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernel_ptsz:
    case SANITIZER_CBID_DRIVER_API_cuLaunchCooperativeKernelMultiDevice:
    case SANITIZER_CBID_DRIVER_API_cuGraphLaunch:
    case SANITIZER_CBID_DRIVER_API_cuGraphLaunch_ptsz:
        return 1;
    default:
        return 0;
    }
}

static _Thread_local int cc_gate_depth; /* launch calls of this thread inside the gate */

/* This thread's instrumented launch whose results are read at once (a client without deferred
 * drains), from its LAUNCH_END to the exit of its launch call. */
typedef struct cc_instr_launch_done {
    int set;
    CUcontext ctx;
    int slot;
    uint64_t launch_id;
    Sanitizer_StreamHandle hstream;
} cc_instr_launch_done;

static _Thread_local cc_instr_launch_done cc_done;

/* Wait for cc_done's launch, read its results without the lock (the client's fetch), drain its
 * slot under it. */
static void read_back_done(void)
{
    cc_instr_state *g = &cc_instr_g;
    cc_instr_launch_done l = cc_done;
    cc_done.set = 0;
    /* The launch's results are complete once its stream is idle; a kernel that faulted still
     * left memcheck's records in pinned host memory. */
    int device_ok = sanitizerStreamSynchronize(l.hstream) == SANITIZER_SUCCESS;
    if (device_ok && g->client->fetch != NULL) {
        /* The slot is this launch's until it is drained: its buffers stay put. */
        pthread_mutex_lock(&g->lock);
        cc_instr_ctx *c0 = cc_instr_ctx_get(l.ctx);
        void *dev = c0 != NULL ? c0->slots[l.slot].dev : NULL;
        void *host = c0 != NULL ? c0->slots[l.slot].host : NULL;
        void *extra = c0 != NULL ? c0->slots[l.slot].extra : NULL;
        pthread_mutex_unlock(&g->lock);
        if (dev != NULL) {
            g->client->fetch(dev, host, extra, l.hstream);
        }
    }
    pthread_mutex_lock(&g->lock);
    cc_instr_ctx *c = cc_instr_ctx_get(l.ctx);
    int stop = 0;
    if (c != NULL && c->slots[l.slot].busy) {
        uint32_t errors = 0;
        stop = cc_instr_drain_slot(c, l.slot, device_ok, &errors);
        cc_instr_emit_checked(l.launch_id, 0, errors, CC_CHECKED_READ);
    }
    pthread_mutex_unlock(&g->lock);
    if (stop) {
        cc_instr_stop_program(l.launch_id);
    }
}

void cc_instr_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, int enter,
                     CUcontext ctx)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active) {
        return;
    }
    if (g->gate_ready && is_launch_call(domain, cbid)) {
        if (enter) {
            if (cc_gate_depth++ == 0) {
                pthread_rwlock_rdlock(&g->gate);
            }
            return;
        }
        if (cc_gate_depth > 0 && --cc_gate_depth == 0) {
            pthread_rwlock_unlock(&g->gate);
            if (cc_cur.set && cc_cur.end_was_off) {
                launch_submitted(NULL, 1); /* bound with LAUNCH_END off: it ended in this call */
            }
        }
    }
    if (enter) {
        return;
    }
    if (cc_gate_depth == 0) {
        cc_instr_stack_on_api_exit(domain, cbid, ctx); /* thread-local compare when in order */
    }
    cc_instr_after_synchronized(); /* a thread-local flag when there is nothing to read */
    if (cc_done.set && cc_gate_depth == 0) {
        read_back_done(); /* this thread's launch, at its launch call's exit */
    }
    if (cc_gate_depth > 0 || !__atomic_load_n(&g->deferred_due, __ATOMIC_ACQUIRE)) {
        return; /* inside a launch call of this thread: at its exit */
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    cc_instr_apply_deferred(); /* takes its locks itself: patching runs outside g->lock */
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_DEFERRED, t0);
    }
}

/* This thread's bound launch (cc_cur) was submitted. With deferred reading its slot waits to
 * be read (and when slots run short and may_wait, this thread's launches are read now, waiting
 * for their streams: not inside LAUNCH_BEGIN, where a wait risks a deadlock in the driver when
 * several threads launch); else it is read at its launch call's exit. */
static void launch_submitted(Sanitizer_StreamHandle hstream, int may_wait)
{
    cc_instr_state *g = &cc_instr_g;
    cc_cur.set = 0;
    if (g->deferred_drain) {
        /* Read later (instr_drain.c): the host thread goes on while the kernel runs. */
        pthread_mutex_lock(&g->lock);
        cc_instr_ctx *c = cc_instr_ctx_get(cc_cur.ctx);
        if (c != NULL && c->slots[cc_cur.slot].busy) {
            c->slots[cc_cur.slot].pending = 1;
            /* Slots running short: read back the launches this thread made, waiting for their
             * streams here, at LAUNCH_END or the launch call's exit, where the agent always
             * waited. A launch that finds no free slot runs unchecked (the report's "launches
             * instrumented" says so). */
            if (may_wait && c->nbusy >= CC_INSTR_DRAIN_AT) {
                g->drain_waits++;
                cc_instr_drain(CC_DRAIN_THREAD, NULL, (const void *)(uintptr_t)pthread_self(), 1,
                               1, "slots running short");
            }
        }
        pthread_mutex_unlock(&g->lock);
        cc_instr_exit_hook_once();
        return;
    }
    /* Read at once: at the exit of this launch call where API callbacks come (the thread holds
     * no driver lock there), else here. Waiting for the stream and reading the device inside
     * LAUNCH_END, while other threads launch, hung streamcheck --mode full in the driver
     * (tests/gpu/stress, four launching threads: copies and stream waits that never returned). */
    cc_done = (cc_instr_launch_done){1, cc_cur.ctx, cc_cur.slot, cc_cur.launch_id, hstream};
    if (!g->can_defer || cc_gate_depth == 0) {
        read_back_done();
    }
}

void cc_instr_on_launch_end(Sanitizer_CallbackId cbid, const void *data)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active || cbid != SANITIZER_CBID_LAUNCH_END || !cc_cur.set) {
        return;
    }
    const Sanitizer_LaunchData *d = data;
    if (d->hLaunch != cc_cur.launch) {
        return;
    }
    launch_submitted(d->hStream, 1);
}

void cc_instr_stop_program(uint64_t launch_id)
{
    fprintf(stderr, "cucheck: %s stops the program after an invalid access in launch "
                    "#%llu (--on-error stop)\n", cc_instr_g.client->name,
            (unsigned long long)launch_id);
    cc_agent_close_outputs(CC_EXIT_FAST, 1);
    _exit(1);
}
