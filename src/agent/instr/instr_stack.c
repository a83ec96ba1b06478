/* Instrumentation manager, the patched code's stack: a patch function runs on the thread's
 * stack, past the kernel's own frames, and the driver sizes a thread's stack as the context's
 * stack limit (CU_LIMIT_STACK_SIZE, 1 KiB by default) or the kernel's own need, neither counting
 * the patch calls. Measured on the H200: racecheck's hazard path overflowed the 1 KiB default in
 * cub's kernels of a PyTorch step (illegal address in 4 runs of 4), and never did with a
 * larger limit. So, while a tool that declares it patches (cc_instr_client.patch_stack:
 * racecheck), each context's stack limit is raised at an API exit
 * to at least the default plus the patch headroom (CUCHECK_PATCH_STACK), and a launch whose
 * kernel's stack plus the headroom does not fit runs unchecked while the limit is raised for
 * its next launch. The limit is never lowered; the program's own setting is taken as the base
 * when it is larger. Driver calls only at API exits, outside launch calls (inside a launch
 * callback the driver holds its launch lock). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "agent/core/agent.h"
#include "agent/core/agent_knobs.h"
#include "agent/instr/instr_internal.h"
#include "symbols/cubin.h"

#define CC_STACK_DEFAULT_LIMIT 1024u  /* the driver's default stack limit, bytes per thread */
#define CC_STACK_GRANULE 1024u        /* raised limits are rounded up to this */
#define CC_STACK_CONTEXTS 64          /* contexts whose limit is tracked */
#define CC_STACK_KERNELS 4096         /* kernels whose stack need is cached: a power of two */

typedef CUresult (*cc_get_limit_fn)(size_t *, CUlimit);
typedef CUresult (*cc_set_limit_fn)(CUlimit, size_t);
typedef CUresult (*cc_get_current_fn)(CUcontext *);

typedef struct stack_ctx {
    CUcontext ctx;            /* NULL: free */
    uint64_t ensured;         /* the limit known to be in force (0: not read yet) */
    uint64_t want;            /* the limit this context needs */
    int failed;               /* raising failed CC_STACK_TRIES times: not tried again */
    int tries;
} stack_ctx;

typedef struct stack_kernel {
    CUfunction function;      /* NULL: free; 1: a tombstone */
    CUmodule module;
    uint32_t stack;           /* the kernel's own stack need, bytes per thread */
} stack_kernel;

static struct {
    pthread_mutex_t lock;
    pthread_once_t once;
    uint64_t headroom;        /* 0: off */
    cc_get_limit_fn get_limit;
    cc_set_limit_fn set_limit;
    cc_get_current_fn get_current;
    stack_ctx ctxs[CC_STACK_CONTEXTS];
    stack_kernel kernels[CC_STACK_KERNELS];
    int raised_noted, failed_noted, unfit_noted; /* verbose notes given */
    int helper_busy;          /* a helper thread is raising a limit */
} cc_st = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT,
           .headroom = CC_INSTR_PATCH_STACK_DEFAULT};

static atomic_uint cc_st_epoch;          /* bumped when a context's need or limit changed */
static atomic_uint cc_st_generation;     /* bumped whenever the agent set a limit */
static _Thread_local int cc_st_inside;   /* our own driver calls come back as callbacks */
static _Thread_local CUcontext cc_st_last_ctx;  /* the context this thread found in order */
static _Thread_local unsigned cc_st_last_epoch; /* at this epoch */

static void stack_resolve(void)
{
    *(void **)&cc_st.get_limit = cc_agent_driver_symbol("cuCtxGetLimit");
    *(void **)&cc_st.set_limit = cc_agent_driver_symbol("cuCtxSetLimit");
    *(void **)&cc_st.get_current = cc_agent_driver_symbol("cuCtxGetCurrent");
}

void cc_instr_stack_init(const char *tool, int enabled)
{
    if (!enabled) {
        cc_st.headroom = 0;
        return;
    }
    const char *v = cc_knob_get(CC_KNOB_PATCH_STACK);
    if (v != NULL && v[0] != '\0') {
        char *end = NULL;
        unsigned long long n = strtoull(v, &end, 10);
        if (end == v || *end != '\0' || n > (1ull << 20)) {
            cc_agent_report_note("%s: CUCHECK_PATCH_STACK=%s is not a byte count up to 1 MiB; "
                                 "%u is used", tool, v, (unsigned)CC_INSTR_PATCH_STACK_DEFAULT);
        } else {
            cc_st.headroom = n;
            if (n == 0) {
                cc_agent_report_note("%s: CUCHECK_PATCH_STACK=0: the stack limit is left as "
                                     "the program set it (patched kernels with deep stacks may "
                                     "fault)", tool);
            }
        }
    }
}

unsigned cc_instr_stack_generation(void)
{
    return atomic_load(&cc_st_generation);
}

static uint64_t round_up(uint64_t n)
{
    return (n + CC_STACK_GRANULE - 1) / CC_STACK_GRANULE * CC_STACK_GRANULE;
}

/* (cc_st.lock) ctx's entry, made if missing; NULL when the table is full. */
static stack_ctx *ctx_entry(CUcontext ctx)
{
    stack_ctx *free_slot = NULL;
    for (size_t i = 0; i < CC_STACK_CONTEXTS; i++) {
        if (cc_st.ctxs[i].ctx == ctx) {
            return &cc_st.ctxs[i];
        }
        if (cc_st.ctxs[i].ctx == NULL && free_slot == NULL) {
            free_slot = &cc_st.ctxs[i];
        }
    }
    if (free_slot != NULL) {
        *free_slot = (stack_ctx){.ctx = ctx,
                                 .want = CC_STACK_DEFAULT_LIMIT + round_up(cc_st.headroom)};
    }
    return free_slot;
}

/* (cc_st.lock) The cached stack need of function, or the free slot to fill (*found 0), or NULL. */
static stack_kernel *kernel_slot(CUmodule module, CUfunction function, int *found)
{
    size_t h = ((uintptr_t)function >> 4) * 0x9e3779b97f4a7c15ull >> 52; /* 12 bits */
    for (size_t i = 0; i < 16; i++) {
        stack_kernel *e = &cc_st.kernels[(h + i) & (CC_STACK_KERNELS - 1)];
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

/* A kernel's own stack need from its cubin: its frame, or its frames with its callees'. */
static uint32_t kernel_stack_of(const cc_instr_module *m, const char *name)
{
    if (m == NULL || m->cubin == NULL || name == NULL) {
        return 0;
    }
    cc_kernel_info k;
    char err[128];
    if (cc_cubin_kernel(m->cubin, m->cubin_size, name, &k, err, sizeof err) != 1) {
        return 0;
    }
    uint32_t s = k.local_bytes;
    s = k.min_stack_bytes > s ? k.min_stack_bytes : s;
    return k.max_stack_bytes > s ? k.max_stack_bytes : s;
}

int cc_instr_stack_fits(const Sanitizer_LaunchData *d, const cc_instr_module *m)
{
    if (cc_st.headroom == 0) {
        return 1;
    }
    pthread_mutex_lock(&cc_st.lock);
    int found;
    stack_kernel *e = kernel_slot(d->module, d->function, &found);
    uint32_t kstack = found ? e->stack : kernel_stack_of(m, d->functionName);
    if (e != NULL && !found) {
        *e = (stack_kernel){d->function, d->module, kstack};
    }
    stack_ctx *c = ctx_entry(d->context);
    uint64_t need = kstack + cc_st.headroom;
    int fits = c == NULL || c->failed || c->ensured >= need;
    if (!fits) {
        uint64_t want = round_up(need);
        if (want < CC_STACK_DEFAULT_LIMIT + round_up(cc_st.headroom)) {
            want = CC_STACK_DEFAULT_LIMIT + round_up(cc_st.headroom);
        }
        c->want = want > c->want ? want : c->want;
        atomic_fetch_add(&cc_st_epoch, 1u);
    }
    uint64_t ensured = c != NULL ? c->ensured : 0, ctx_want = c != NULL ? c->want : 0;
    int note = !fits && cc_st.unfit_noted++ < 16;
    pthread_mutex_unlock(&cc_st.lock);
    if (note) {
        cc_agent_note("launch of %s runs unchecked: its stack (%u bytes) and the patch headroom "
                      "need %llu bytes per thread, the context's limit in force is %llu; %llu "
                      "asked for at the next API exit", d->functionName != NULL ?
                      d->functionName : "?", kstack, (unsigned long long)need,
                      (unsigned long long)ensured, (unsigned long long)ctx_want);
    }
    return fits;
}

/* One raise of a context's limit to `want` from the calling thread, ctx current: 0 and *was,
 * *now on success, else the CUDA error. */
static int set_stack_limit(uint64_t want, size_t *was, size_t *now)
{
    size_t limit = 0;
    CUresult r = cc_st.get_limit(&limit, CU_LIMIT_STACK_SIZE);
    *was = limit;
    if (r == CUDA_SUCCESS && limit < want) {
        r = cc_st.set_limit(CU_LIMIT_STACK_SIZE, (size_t)want);
        if (r == CUDA_SUCCESS) {
            atomic_fetch_add(&cc_st_generation, 1u);
            r = cc_st.get_limit(&limit, CU_LIMIT_STACK_SIZE);
        }
    }
    *now = limit;
    return r == CUDA_SUCCESS && limit >= want ? 0 : (r != CUDA_SUCCESS ? (int)r : -1);
}

/* The same from a thread of the agent's own, outside any callback of the program's thread (the
 * driver may refuse the call inside one), waited for a bounded time. */
typedef struct stack_helper {
    CUcontext ctx;
    uint64_t want;
    size_t was, now;
    int rc;
} stack_helper;

typedef CUresult (*cc_set_current_fn)(CUcontext);

static void *stack_helper_main(void *arg)
{
    stack_helper *h = arg;
    cc_set_current_fn set_current = (cc_set_current_fn)cc_agent_driver_symbol("cuCtxSetCurrent");
    cc_st_inside = 1;
    cc_agent_ignore_callbacks_here(); /* its calls are not the program's: no events, no sync */
    h->rc = set_current == NULL ? -1 : (int)set_current(h->ctx);
    if (h->rc == CUDA_SUCCESS) {
        h->rc = set_stack_limit(h->want, &h->was, &h->now);
    }
    return NULL;
}

static int set_stack_limit_helper(CUcontext ctx, uint64_t want, size_t *was, size_t *now)
{
    static stack_helper h; /* one helper at a time (cc_st.helper_busy) */
    pthread_mutex_lock(&cc_st.lock);
    int busy = cc_st.helper_busy;
    cc_st.helper_busy = 1;
    pthread_mutex_unlock(&cc_st.lock);
    if (busy) {
        return -1;
    }
    h = (stack_helper){.ctx = ctx, .want = want, .rc = -1};
    pthread_t t;
    if (pthread_create(&t, NULL, stack_helper_main, &h) != 0) {
        pthread_mutex_lock(&cc_st.lock);
        cc_st.helper_busy = 0;
        pthread_mutex_unlock(&cc_st.lock);
        return -1;
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    if (pthread_timedjoin_np(t, NULL, &until) != 0) {
        pthread_detach(t); /* it may still finish; the limit is read again later */
        return -2;         /* helper_busy stays set: no second helper */
    }
    *was = h.was;
    *now = h.now;
    pthread_mutex_lock(&cc_st.lock);
    cc_st.helper_busy = 0;
    pthread_mutex_unlock(&cc_st.lock);
    return h.rc;
}

/* ctx's limit raised to its want if it is the calling thread's current context (cc_st.lock not
 * held: these driver calls may wait for the device). A failure is tried again at later exits
 * (inside the runtime's first calls a context may not be ready), CC_STACK_TRIES times. */
#define CC_STACK_TRIES 32
static void raise_limit(CUcontext ctx)
{
    pthread_once(&cc_st.once, stack_resolve);
    CUcontext cur = NULL;
    if (cc_st.get_limit == NULL || cc_st.set_limit == NULL || cc_st.get_current == NULL ||
        cc_st.get_current(&cur) != CUDA_SUCCESS || cur != ctx) {
        return; /* another thread's exit in that context does it */
    }
    pthread_mutex_lock(&cc_st.lock);
    stack_ctx *c = ctx_entry(ctx);
    uint64_t want = c != NULL && !c->failed ? c->want : 0;
    pthread_mutex_unlock(&cc_st.lock);
    if (want == 0) {
        return;
    }
    size_t before = 0, limit = 0;
    int rc = set_stack_limit(want, &before, &limit), rc_thread = rc, how = 0;
    if (rc != 0) {
        how = 1;
        rc = set_stack_limit_helper(ctx, want, &before, &limit);
    }
    pthread_mutex_lock(&cc_st.lock);
    c = ctx_entry(ctx);
    int note_raised = 0, note_failed = 0;
    if (c != NULL) {
        if (rc == 0) {
            c->ensured = limit;
            note_raised = limit > before && cc_st.raised_noted++ < 16; /* each raise, a few */
        } else if (++c->tries >= CC_STACK_TRIES) {
            c->failed = 1;
            note_failed = !cc_st.failed_noted++;
        }
    }
    pthread_mutex_unlock(&cc_st.lock);
    if (note_raised) {
        cc_agent_note("the per-thread stack limit of context %p raised from %zu to %zu bytes%s "
                      "(patched code runs on the kernels' stacks; CUCHECK_PATCH_STACK)",
                      (void *)ctx, before, limit, how ? " by a helper thread" : "");
    }
    if (rc != 0) {
        cc_agent_note("raising the stack limit of context %p to %llu bytes failed (error %d in "
                      "the callback, %d from a helper thread); tried again later", (void *)ctx,
                      (unsigned long long)want, rc_thread, rc);
    }
    if (note_failed) {
        cc_agent_report_note("cannot raise the per-thread stack limit to %llu bytes (CUDA error "
                             "%d, %d from a helper thread): kernels with deep stacks may fault "
                             "while patched", (unsigned long long)want, rc_thread, rc);
    }
}

void cc_instr_stack_on_api_exit(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                                CUcontext ctx)
{
    if (cc_st.headroom == 0 || cc_st_inside || ctx == NULL) {
        return;
    }
    /* The program set a limit: read it again (it may have lowered ours). */
    if ((domain == SANITIZER_CB_DOMAIN_DRIVER_API &&
         cbid == SANITIZER_CBID_DRIVER_API_cuCtxSetLimit) ||
        (domain == SANITIZER_CB_DOMAIN_RUNTIME_API &&
         cbid == SANITIZER_CBID_RUNTIME_API_cudaDeviceSetLimit)) {
        pthread_mutex_lock(&cc_st.lock);
        for (size_t i = 0; i < CC_STACK_CONTEXTS; i++) {
            cc_st.ctxs[i].ensured = 0;
        }
        pthread_mutex_unlock(&cc_st.lock);
        atomic_fetch_add(&cc_st_epoch, 1u);
    }
    /* Most exits: this thread found this context's limit in force, and nothing changed since. */
    unsigned epoch = atomic_load(&cc_st_epoch);
    if (ctx == cc_st_last_ctx && epoch == cc_st_last_epoch) {
        return;
    }
    pthread_mutex_lock(&cc_st.lock);
    const stack_ctx *c = ctx_entry(ctx);
    int ok = c == NULL || c->failed || c->ensured >= c->want;
    pthread_mutex_unlock(&cc_st.lock);
    if (!ok) {
        cc_st_inside = 1;
        raise_limit(ctx);
        cc_st_inside = 0;
        pthread_mutex_lock(&cc_st.lock);
        c = ctx_entry(ctx);
        ok = c == NULL || c->failed || c->ensured >= c->want;
        pthread_mutex_unlock(&cc_st.lock);
    }
    if (ok) {
        cc_st_last_ctx = ctx;
        cc_st_last_epoch = epoch;
    }
}

void cc_instr_stack_forget_module(CUmodule module)
{
    pthread_mutex_lock(&cc_st.lock);
    for (size_t i = 0; i < CC_STACK_KERNELS; i++) {
        if (cc_st.kernels[i].function != NULL && cc_st.kernels[i].module == module) {
            cc_st.kernels[i].function = (CUfunction)(uintptr_t)1; /* keep probe chains */
            cc_st.kernels[i].module = NULL;
        }
    }
    pthread_mutex_unlock(&cc_st.lock);
}

void cc_instr_stack_forget_context(CUcontext ctx)
{
    pthread_mutex_lock(&cc_st.lock);
    for (size_t i = 0; i < CC_STACK_CONTEXTS; i++) {
        if (cc_st.ctxs[i].ctx == ctx) {
            cc_st.ctxs[i].ctx = NULL;
        }
    }
    pthread_mutex_unlock(&cc_st.lock);
    atomic_fetch_add(&cc_st_epoch, 1u); /* a new context may come at the same address */
}
