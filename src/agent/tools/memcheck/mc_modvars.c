/* memcheck's module variables (mc_modvars.h): a module's variables listed from its cubin at
 * load, their addresses asked of the driver at a later API exit, one CC_EV_MODULE_VAR each. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/tools/memcheck/mc_modvars.h"
#include "core/grow.h"
#include "symbols/modvars.h"

typedef struct mv_var {
    char *name;
    uint64_t size;  /* from the cubin (the driver's answer wins) */
    uint32_t flags; /* CC_MODVAR_FLAG_* */
} mv_var;

typedef struct mv_module {
    CUmodule module;
    CUcontext ctx;
    mv_var *vars;
    size_t n, cap;
} mv_module;

static pthread_mutex_t mv_lock = PTHREAD_MUTEX_INITIALIZER;
static mv_module *mv_queue; /* under mv_lock */
static size_t mv_nqueue, mv_queue_cap;
static atomic_size_t mv_queued; /* mv_nqueue, read without the lock at every API exit */
static _Thread_local int mv_resolving;

typedef CUresult (*get_global_fn)(CUdeviceptr *, size_t *, CUmodule, const char *);
typedef CUresult (*ctx_push_fn)(CUcontext);
typedef CUresult (*ctx_pop_fn)(CUcontext *);
static get_global_fn mv_get_global;
static ctx_push_fn mv_ctx_push;
static ctx_pop_fn mv_ctx_pop;
static pthread_once_t mv_once = PTHREAD_ONCE_INIT;

static void mv_resolve_symbols(void)
{
    *(void **)&mv_get_global = cc_agent_driver_symbol("cuModuleGetGlobal_v2");
    *(void **)&mv_ctx_push = cc_agent_driver_symbol("cuCtxPushCurrent_v2");
    *(void **)&mv_ctx_pop = cc_agent_driver_symbol("cuCtxPopCurrent_v2");
    if (mv_get_global == NULL || mv_ctx_push == NULL || mv_ctx_pop == NULL) {
        cc_agent_note("memcheck: cuModuleGetGlobal or cuCtxPush/PopCurrent not found: module "
                      "variables are not named");
    }
}

static void mv_module_free(mv_module *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->vars[i].name);
    }
    free(m->vars);
}

static int mv_collect(const cc_cubin_var *v, void *user)
{
    mv_module *m = user;
    mv_var *slot = CC_ARRAY_PUSH(m->vars, m->n, m->cap);
    if (slot == NULL) {
        return 1;
    }
    slot->name = strdup(v->name);
    if (slot->name == NULL) {
        m->n--;
        return 1;
    }
    slot->size = v->size;
    slot->flags = ((v->flags & CC_CUBIN_VAR_CONSTANT) ? CC_MODVAR_FLAG_CONSTANT : 0) |
                  ((v->flags & CC_CUBIN_VAR_MANAGED) ? CC_MODVAR_FLAG_MANAGED : 0);
    return 0;
}

void cc_mc_modvars_module_loaded(const Sanitizer_ResourceModuleData *d)
{
    if (d->pCubin == NULL || d->cubinSize == 0) {
        return;
    }
    mv_module m = {d->module, d->context, NULL, 0, 0};
    char err[256];
    if (cc_cubin_vars(d->pCubin, d->cubinSize, mv_collect, &m, err, sizeof err) < 0) {
        cc_agent_note("memcheck: module %p: no variables read: %s", (void *)d->module, err);
    }
    if (m.n == 0) {
        mv_module_free(&m);
        return;
    }
    pthread_mutex_lock(&mv_lock);
    mv_module *slot = CC_ARRAY_PUSH(mv_queue, mv_nqueue, mv_queue_cap);
    if (slot != NULL) {
        *slot = m;
        atomic_store(&mv_queued, mv_nqueue);
    }
    pthread_mutex_unlock(&mv_lock);
    if (slot == NULL) {
        mv_module_free(&m);
    }
}

/* Drop the queued modules that match (module, or every module of ctx). */
static void mv_forget(CUmodule module, CUcontext ctx)
{
    if (atomic_load(&mv_queued) == 0) {
        return;
    }
    pthread_mutex_lock(&mv_lock);
    size_t kept = 0;
    for (size_t i = 0; i < mv_nqueue; i++) {
        int gone = module != NULL ? mv_queue[i].module == module : mv_queue[i].ctx == ctx;
        if (gone) {
            mv_module_free(&mv_queue[i]);
        } else {
            mv_queue[kept++] = mv_queue[i];
        }
    }
    mv_nqueue = kept;
    atomic_store(&mv_queued, mv_nqueue);
    pthread_mutex_unlock(&mv_lock);
}

void cc_mc_modvars_module_unloading(CUmodule module)
{
    mv_forget(module, NULL);
}

void cc_mc_modvars_context_destroying(CUcontext ctx)
{
    mv_forget(NULL, ctx);
}

/* The driver calls of one module (no lock held); returns the events emitted. */
static unsigned mv_resolve_module(const mv_module *m)
{
    unsigned emitted = 0;
    if (mv_ctx_push(m->ctx) != CUDA_SUCCESS) {
        return 0; /* the context is gone */
    }
    for (size_t i = 0; i < m->n; i++) {
        CUdeviceptr address = 0;
        size_t bytes = 0;
        if (mv_get_global(&address, &bytes, m->module, m->vars[i].name) != CUDA_SUCCESS ||
            address == 0) {
            continue;
        }
        cc_event ev;
        cc_agent_event_init(&ev, CC_EV_MODULE_VAR);
        ev.u.module_var.context = cc_agent_handle_id(m->ctx);
        ev.u.module_var.module = cc_agent_handle_id(m->module);
        ev.u.module_var.address = (uint64_t)address;
        ev.u.module_var.size = bytes != 0 ? (uint64_t)bytes : m->vars[i].size;
        ev.u.module_var.flags = m->vars[i].flags;
        ev.u.module_var.name = m->vars[i].name;
        cc_agent_emit(&ev);
        emitted++;
    }
    CUcontext popped = NULL;
    mv_ctx_pop(&popped);
    return emitted;
}

unsigned cc_mc_modvars_resolve(void)
{
    if (atomic_load(&mv_queued) == 0 || mv_resolving) {
        return 0;
    }
    pthread_once(&mv_once, mv_resolve_symbols);
    pthread_mutex_lock(&mv_lock);
    mv_module *work = mv_queue;
    size_t n = mv_nqueue;
    mv_queue = NULL;
    mv_nqueue = mv_queue_cap = 0;
    atomic_store(&mv_queued, 0);
    pthread_mutex_unlock(&mv_lock);
    unsigned emitted = 0;
    mv_resolving = 1; /* the driver calls below come back through the API callbacks */
    for (size_t i = 0; i < n; i++) {
        if (mv_get_global != NULL && mv_ctx_push != NULL && mv_ctx_pop != NULL) {
            emitted += mv_resolve_module(&work[i]);
        }
        mv_module_free(&work[i]);
    }
    mv_resolving = 0;
    free(work);
    return emitted;
}
