/* Instrumentation manager, modules: the cubin of every loaded module (kept for pc -> file:line),
 * patching a module with the client's patch functions and unpatching it, and the patch policy
 * every client shares (cc_instr_module_want): a module whose recent launches needed no
 * instrumentation is unpatched, and re-patched (a bounded number of times, with back-off) when a
 * launch of it needs instrumentation again, both deferred to the next API exit
 * (cc_instr_apply_deferred; inside a launch callback the driver can deadlock). Which launches
 * need it is the client's decision (tools/memcheck/mc_client.c, tools/streamcheck/sc_client.c).
 *
 * Lock order, by design: the Sanitizer's patching calls run under cc_instr_g.patch_lock and never
 * under cc_instr_g.lock, since they wait for a driver lock that other threads hold inside their
 * callbacks while waiting for cc_instr_g.lock. A module's state changes in three steps: mark it
 * `changing` under the lock, make the call without it, record the result under it again. Only
 * API exits (which hold no driver lock) block on patch_lock; a module-load callback only tries it.
 * The functions not named otherwise run with cc_instr_g.lock held. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/self_time.h"
#include "agent/instr/instr_internal.h"
#include "core/hashmap.h"
#include "core/grow.h"

#define CC_INSTR_CUBIN_BUDGET (256ull << 20) /* bytes of cubins kept for line lookup */

static uint64_t cc_cubin_bytes;

static void forget_function_pcs(CUmodule module);

/* CUmodule -> index in cc_instr_g.mods (guarded by its lock): a launch asks for its module, and
 * a PyTorch process loads hundreds lazily (a scan of them was most of a launch's decision). */
static cc_hashmap cc_mod_index = CC_HASHMAP_INIT;

cc_instr_module *cc_instr_module_find(CUmodule m)
{
    const uint64_t *i = cc_hashmap_get(&cc_mod_index, (uint64_t)(uintptr_t)m);
    return i != NULL && *i < cc_instr_g.nmods ? &cc_instr_g.mods[*i] : NULL;
}

/* The Sanitizer calls that patch `module` of ctx with the client's functions (patch_lock held,
 * cc_instr_g.lock not). 0 on success. */
static int patch_calls(CUmodule module, CUcontext ctx)
{
    const cc_instr_client *cl = cc_instr_g.client;
    if (cc_agent_patches_load(ctx) != 0) { /* once per context */
        return -1;
    }
    for (size_t i = 0; i < cl->nclasses; i++) {
        SanitizerResult r = sanitizerPatchInstructions(cl->classes[i].id, module,
                                                       cl->classes[i].fn);
        if (r != SANITIZER_SUCCESS) {
            /* The first class (global accesses) is essential; the others only add checks. */
            cc_agent_note("%s: cannot patch %s in module %p (error %d)%s", cl->name,
                          cl->classes[i].fn, (void *)module, (int)r,
                          i == 0 ? "" : "; those checks are skipped there");
            if (i == 0) {
                return -1;
            }
        }
    }
    if (sanitizerPatchModule(module) != SANITIZER_SUCCESS) {
        cc_agent_note("%s: sanitizerPatchModule failed for module %p", cl->name, (void *)module);
        return -1;
    }
    return 0;
}

typedef enum change_kind { CHANGE_NONE, CHANGE_PATCH, CHANGE_REPATCH, CHANGE_UNPATCH } change_kind;

static _Thread_local int cc_changing; /* this thread makes a module change (no re-entry) */

/* (patch_lock held, cc_instr_g.lock not) Make one change to `module`, marked `changing` by the
 * caller: with the launch gate held for writing (no launch call in progress on any thread: a
 * change while another thread submitted a launch raised illegal-instruction errors), the call
 * without the lock, the result recorded under it. Kernels already submitted may still run:
 * measured on the H200 (tests/gpu/stress, 1 to 32 threads, every tool) the gate alone removed
 * every illegal-instruction error, and waiting for the context to be idle as well cost the
 * PyTorch step 7% in streamcheck's default mode. An unpatch marks the module unpatched before
 * the call, so no launch binds a slot to code that is being restored. A change at module load
 * needs no gate: no kernel of the module ran yet (gated 0). */
static void change_module(CUmodule module, CUcontext ctx, change_kind kind, int gated)
{
    cc_instr_state *g = &cc_instr_g;
    gated = gated && g->gate_ready;
    if (gated) {
        pthread_rwlock_wrlock(&g->gate);
        cc_changing = 1; /* callbacks the calls cause come back here */
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    int ok = kind == CHANGE_UNPATCH ? sanitizerUnpatchModule(module) == SANITIZER_SUCCESS
                                    : patch_calls(module, ctx) == 0;
    if (t0 != 0) {
        cc_self_time_add(kind == CHANGE_UNPATCH ? CC_SELF_UNPATCH : CC_SELF_PATCH, t0);
    }
    if (gated) {
        cc_changing = 0;
        pthread_rwlock_unlock(&g->gate);
    }
    pthread_mutex_lock(&g->lock);
    cc_instr_module *m = cc_instr_module_find(module); /* gone if it was unloaded meanwhile */
    if (m != NULL) {
        m->changing = 0;
        if (kind == CHANGE_UNPATCH) {
            m->patched = !ok;
        } else if (ok) {
            m->patched = 1;
            m->quiet = 0;
            m->repatches += kind == CHANGE_REPATCH;
        }
    }
    pthread_mutex_unlock(&g->lock);
    if (ok && kind == CHANGE_UNPATCH) {
        cc_agent_note("%s: module %p unpatched (its kernels were checked)", g->client->name,
                      (void *)module);
    }
}

/* (locked) The change a module waits for, taken off its flags and marked `changing`. */
static change_kind take_change(cc_instr_module *m)
{
    change_kind kind = CHANGE_NONE;
    if (m->changing) {
        return CHANGE_NONE;
    }
    if (m->unpatch_pending && (m->bound > 0 || m->wanted > 0)) {
        return CHANGE_NONE; /* again when its last bound launch is drained */
    }
    if (m->unpatch_pending) {
        m->unpatch_pending = 0;
        if (m->patched) {
            m->patched = 0;
            kind = CHANGE_UNPATCH;
        }
    } else if (m->repatch_pending || m->load_pending) {
        kind = m->load_pending ? CHANGE_PATCH : CHANGE_REPATCH;
        m->repatch_pending = 0;
        m->load_pending = 0;
        if (m->patched) {
            kind = CHANGE_NONE;
        }
    }
    m->changing = kind != CHANGE_NONE;
    if (m->changing) {
        cc_decided_invalidate(); /* before the code changes: no launch is decided without it */
    }
    return kind;
}

void cc_instr_patch_at_load(CUmodule module)
{
    cc_instr_state *g = &cc_instr_g;
    /* Without API exits nothing is ever deferred or unpatched: only other module loads hold the
     * patch lock, as they held the manager's lock before, so waiting for it is safe. */
    if (g->can_defer ? pthread_mutex_trylock(&g->patch_lock) != 0
                     : pthread_mutex_lock(&g->patch_lock) != 0) {
        __atomic_store_n(&g->deferred_due, 1, __ATOMIC_RELEASE); /* load_pending stays set */
        return;
    }
    pthread_mutex_lock(&g->lock);
    cc_instr_module *m = cc_instr_module_find(module);
    change_kind kind = m != NULL && m->load_pending ? take_change(m) : CHANGE_NONE;
    CUcontext ctx = m != NULL ? m->ctx : NULL;
    pthread_mutex_unlock(&g->lock);
    if (kind != CHANGE_NONE) {
        change_module(module, ctx, kind, 0);
    }
    pthread_mutex_unlock(&g->patch_lock);
}

void cc_instr_module_loaded(const Sanitizer_ResourceModuleData *d)
{
    cc_instr_state *g = &cc_instr_g;
    cc_instr_module *known = cc_instr_module_find(d->module);
    if (known != NULL) { /* a handle reused without an unload we saw: the old one is gone */
        cc_instr_module_unloading(d->module);
    }
    if (cc_hashmap_reserve(&cc_mod_index, g->nmods + 1) != 0) {
        return;
    }
    cc_instr_module *m = CC_ARRAY_PUSH(g->mods, g->nmods, g->modcap);
    if (m == NULL) {
        return;
    }
    (void)cc_hashmap_put(&cc_mod_index, (uint64_t)(uintptr_t)d->module, g->nmods - 1);
    memset(m, 0, sizeof *m);
    m->heap_user = -1;
    m->module = d->module;
    m->ctx = d->context;
    if (d->pCubin != NULL && d->cubinSize > 0 && cc_cubin_bytes + d->cubinSize <= CC_INSTR_CUBIN_BUDGET) {
        m->cubin = malloc(d->cubinSize);
        if (m->cubin != NULL) {
            memcpy(m->cubin, d->pCubin, d->cubinSize);
            m->cubin_size = d->cubinSize;
            cc_cubin_bytes += d->cubinSize;
        }
    }
    m->load_pending = 1; /* patched right after the lock is released (cc_instr_patch_at_load) */
    cc_decided_invalidate();
}

void cc_instr_module_unloading(CUmodule module)
{
    cc_instr_state *g = &cc_instr_g;
    if (g->client != NULL && g->client->module_unloading != NULL) {
        g->client->module_unloading(module);
    }
    forget_function_pcs(module);
    cc_decided_invalidate(); /* its function handles may come back for another module */
    cc_instr_module *m = cc_instr_module_find(module);
    if (m == NULL) {
        return;
    }
    if (m->lines != NULL) {
        cc_line_table_free(m->lines);
    }
    if (m->cubin != NULL) {
        cc_cubin_bytes -= m->cubin_size;
        free(m->cubin);
    }
    (void)cc_hashmap_remove(&cc_mod_index, (uint64_t)(uintptr_t)module, NULL);
    size_t last = --g->nmods;
    if (m != &g->mods[last]) {
        *m = g->mods[last];
        (void)cc_hashmap_put(&cc_mod_index, (uint64_t)(uintptr_t)m->module,
                             (uint64_t)(m - g->mods));
    }
}

static void defer(int *flag)
{
    *flag = 1;
    __atomic_store_n(&cc_instr_g.deferred_due, 1, __ATOMIC_RELEASE);
}

int cc_instr_module_want(cc_instr_module *m, int want, int may_unpatch)
{
    cc_instr_state *g = &cc_instr_g;
    if (m == NULL) {
        return 0; /* a module we never saw load: not patched */
    }
    if (!want) {
        if (m->wanted > 0 && --m->wanted == 0 && m->unpatch_pending && m->bound == 0) {
            __atomic_store_n(&g->deferred_due, 1, __ATOMIC_RELEASE); /* no longer held back */
        }
        if (m->patched && may_unpatch && g->can_defer && !m->unpatch_pending &&
            ++m->quiet >= (1ull << m->repatches)) {
            defer(&m->unpatch_pending);
        }
        return 0;
    }
    m->quiet = 0;
    m->unpatch_pending = 0; /* still patched: wanted again before the deferred unpatch */
    if (!m->patched) {
        cc_decided_invalidate(); /* its launches go through the policy until it is patched */
        m->wanted = CC_INSTR_WANTED_QUIET;
        if (m->repatches >= CC_INSTR_MAX_REPATCH) {
            return 0;
        }
        if (!m->repatch_pending) {
            defer(&m->repatch_pending);
        }
        return 0;
    }
    return 1;
}

void cc_instr_module_bound(CUmodule module, int delta)
{
    cc_instr_module *m = cc_instr_module_find(module);
    if (m == NULL) {
        return;
    }
    m->bound += delta;
    if (delta > 0) {
        m->wanted = 0;
    }
    if (m->bound == 0 && m->unpatch_pending) {
        __atomic_store_n(&cc_instr_g.deferred_due, 1, __ATOMIC_RELEASE);
    }
}

/* (g->lock held) 1 if a module waits to be unpatched only for launches of it that are bound to
 * slots and not read back yet. */
static int unpatch_waits_for_reads(void)
{
    cc_instr_state *g = &cc_instr_g;
    for (size_t i = 0; i < g->nmods; i++) {
        const cc_instr_module *m = &g->mods[i];
        if (m->unpatch_pending && m->patched && !m->changing && m->bound > 0 && m->wanted == 0) {
            return 1;
        }
    }
    return 0;
}

/* (g->lock held) A module whose checks are done is unpatched once its checked launches are read
 * back; with deferred reading, that waited for the program's next synchronization or for the
 * slots to run short, and a training loop that never synchronizes kept such modules patched,
 * every launch of their kernels paying the patched code (a cuDNN CNN step: 25x native in
 * memcheck's adaptive mode, as much as with empty patches, with 204 of 11,749 launches checked).
 * So this thread's pending launches are read back here, waiting for their streams (once per
 * such module change: the program's queued work, not a check, is what is waited for); other
 * threads' launches are read at their own next API exit (deferred_due stays set for them). */
static void read_back_for_unpatch(void)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->deferred_drain || cc_agent_captures_open() || !unpatch_waits_for_reads()) {
        return; /* during a capture: at the first API exit after it (deferred_due stays set) */
    }
    uintptr_t self = (uintptr_t)pthread_self();
    int mine = 0;
    for (size_t i = 0; i < g->nctx && !mine; i++) {
        const cc_instr_ctx *c = g->ctxs[i];
        for (int k = 0; k < CC_INSTR_SLOTS && c->nbusy > 0 && !mine; k++) {
            const cc_instr_slot *sl = &c->slots[k];
            mine = sl->busy && sl->pending && !sl->draining && sl->thread == self;
        }
    }
    if (mine) {
        g->unpatch_reads++;
        uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
        cc_instr_drain(CC_DRAIN_THREAD, NULL, (const void *)self, 1, 1,
                       "a module's checks are done");
        if (t0 != 0) {
            cc_self_time_add(CC_SELF_UNPATCH_READS, t0);
        }
    }
    if (unpatch_waits_for_reads()) {
        __atomic_store_n(&g->deferred_due, 1, __ATOMIC_RELEASE); /* another thread's launches */
    }
}

static _Thread_local int cc_applying; /* this thread runs cc_instr_apply_deferred (no re-entry
                                       * from the callbacks of a call it makes) */

void cc_instr_apply_deferred(void)
{
    cc_instr_state *g = &cc_instr_g;
    if (cc_changing || cc_applying) {
        return;
    }
    cc_applying = 1;
    pthread_mutex_lock(&g->patch_lock);
    __atomic_store_n(&g->deferred_due, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&g->lock);
    read_back_for_unpatch();
    pthread_mutex_unlock(&g->lock);
    /* Launches pending on a module need nothing of its patched state: their kernels' code
     * ranges were taken when they were bound (cc_instr_function_pc_*). One module at a time, the
     * manager's lock released around each call; modules may come and go meanwhile, so the scan
     * restarts and is bounded by the number of modules seen at the start. */
    pthread_mutex_lock(&g->lock);
    size_t rounds = g->nmods;
    pthread_mutex_unlock(&g->lock);
    for (size_t r = 0; r <= rounds; r++) {
        CUmodule module = NULL;
        CUcontext ctx = NULL;
        change_kind kind = CHANGE_NONE;
        pthread_mutex_lock(&g->lock);
        for (size_t i = 0; i < g->nmods && kind == CHANGE_NONE; i++) {
            kind = take_change(&g->mods[i]);
            module = g->mods[i].module;
            ctx = g->mods[i].ctx;
        }
        pthread_mutex_unlock(&g->lock);
        if (kind == CHANGE_NONE) {
            break;
        }
        /* A module never patched yet (load_pending) had no kernel run patched, but others of
         * it may run: every later change waits for the gate. */
        change_module(module, ctx, kind, 1);
    }
    pthread_mutex_unlock(&g->patch_lock);
    cc_applying = 0;
}

#define CC_FN_PCS 8192 /* functions whose code range is cached: a power of two */

typedef struct fn_pc_entry {
    CUfunction function; /* NULL: empty */
    CUmodule module;
    uint64_t pc, size;
} fn_pc_entry;

static fn_pc_entry cc_fn_pcs[CC_FN_PCS]; /* under cc_instr_g.lock */

/* (locked) The entry of function, or the free one to fill, or NULL (a full neighbourhood).
 * *found says which. */
static fn_pc_entry *fn_pc_slot(CUmodule module, CUfunction function, int *found)
{
    size_t h = ((uintptr_t)function >> 4) * 0x9e3779b97f4a7c15ull >> 51; /* 13 bits */
    for (size_t i = 0; i < 16; i++) {
        fn_pc_entry *e = &cc_fn_pcs[(h + i) & (CC_FN_PCS - 1)];
        if (e->function == function && e->module == module) {
            *found = 1;
            return e;
        }
        if (e->function == NULL) {
            *found = 0;
            return e;
        }
    }
    *found = 0;
    return NULL;
}

int cc_instr_function_pc_cached(CUmodule module, CUfunction function, uint64_t *pc,
                                uint64_t *size)
{
    int found;
    const fn_pc_entry *e = fn_pc_slot(module, function, &found);
    *pc = found ? e->pc : 0;
    *size = found ? e->size : 0;
    return found;
}

void cc_instr_function_pc_ask(CUmodule module, CUfunction function, const char *name,
                              uint64_t *pc, uint64_t *size)
{
    if (name == NULL ||
        sanitizerGetFunctionPcAndSize(module, name, pc, size) != SANITIZER_SUCCESS) {
        *pc = 0;
        *size = 0;
    }
    pthread_mutex_lock(&cc_instr_g.lock);
    int found;
    fn_pc_entry *e = fn_pc_slot(module, function, &found);
    if (e != NULL && !found) { /* a full neighbourhood: asked each time */
        *e = (fn_pc_entry){function, module, *pc, *size};
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
}

/* (locked) A module is going: its functions' handles may be reused. */
static void forget_function_pcs(CUmodule module)
{
    for (size_t i = 0; i < CC_FN_PCS; i++) {
        if (cc_fn_pcs[i].function != NULL && cc_fn_pcs[i].module == module) {
            /* Keep probing chains intact: a tombstone that matches no real function. */
            cc_fn_pcs[i].function = (CUfunction)(uintptr_t)1;
            cc_fn_pcs[i].module = NULL;
        }
    }
}

void cc_instr_resolve_pc(cc_instr_module *m, const char *kernel, uint64_t fpc, uint64_t fsize,
                         uint64_t pc, uint64_t *offset, const char **file, uint32_t *line)
{
    *offset = pc;
    *file = "";
    *line = 0;
    if (m == NULL || kernel == NULL) {
        return;
    }
    if (fsize > 0 && pc >= fpc && pc - fpc < fsize) {
        *offset = pc - fpc;
    }
    if (m->cubin == NULL) {
        return;
    }
    if (m->lines == NULL && !m->lines_tried) {
        char err[256];
        m->lines_tried = 1;
        m->lines = cc_line_table_open(m->cubin, m->cubin_size, CC_LINES_SOURCE, err, sizeof err);
        if (m->lines == NULL) {
            cc_agent_note("memcheck: no line information for module %p: %s", (void *)m->module,
                          err);
        }
    }
    const cc_line_row *row = NULL;
    if (m->lines != NULL && cc_line_table_lookup(m->lines, kernel, *offset, &row) == 1 &&
        row != NULL && row->file != NULL) {
        *file = row->file;
        *line = row->line;
    }
}
