/* memcheck's shared/local windows and device heap, agent side (mc_windows.h): a direct-mapped
 * cache CUfunction -> cubin facts and stack need (tools/memcheck/memcheck_windows.h), the
 * contexts' stack limits (read from the driver at API exits, again after the program sets a
 * limit), the launch header's window fields, and one device-heap table per context (device
 * memory, created at the first checked launch there, kept across launches, released with the
 * context). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/tools/memcheck/mc_windows.h"
#include "agent/instr/instr.h"
#include "tools/memcheck/memcheck_windows.h"
#include "agent/core/agent_knobs.h"

#define CC_MCW_CACHE 2048u   /* functions whose windows are remembered */
#define CC_MCW_CONTEXTS 64u  /* contexts with a device-heap table */

static const cc_mc_patch_class cc_mcw_classes[] = {
    {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, CC_PATCH_FN_MC_GLOBAL},
    {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, CC_PATCH_FN_MC_SHARED},
    {SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, CC_PATCH_FN_MC_LOCAL},
    {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, CC_PATCH_FN_MC_MEMCPY_ASYNC},
    {SANITIZER_INSTRUCTION_DEVICE_SIDE_MALLOC, CC_PATCH_FN_MC_DEVICE_MALLOC},
    {SANITIZER_INSTRUCTION_DEVICE_ALIGNED_MALLOC, CC_PATCH_FN_MC_DEVICE_MALLOC},
    {SANITIZER_INSTRUCTION_DEVICE_SIDE_FREE, CC_PATCH_FN_MC_DEVICE_FREE},
};

/* The leading fields of cc_mc_heap (the table itself is too large for a stack). */
typedef struct cc_mcw_heap_header {
    uint32_t magic, cap;
    unsigned int next, overflow;
    unsigned long long lo, hi;
} cc_mcw_heap_header;
_Static_assert(sizeof(cc_mcw_heap_header) == offsetof(cc_mc_heap, blocks) &&
                   offsetof(cc_mcw_heap_header, lo) == offsetof(cc_mc_heap, lo),
               "cc_mc_heap header layout");

static struct {
    pthread_mutex_t lock;
    struct {
        CUfunction fn;       /* NULL = empty */
        CUmodule module;
        int found;           /* 0: the cubin did not describe the kernel */
        cc_mc_kernel_windows w;
        uint64_t stack;      /* the kernel's stack need, UINT64_MAX: unknown */
        int stack_known;     /* 0: the driver has not been asked yet */
    } cache[CC_MCW_CACHE];
    struct {
        CUcontext ctx;       /* NULL = empty */
        uint64_t limit;      /* CU_LIMIT_STACK_SIZE, UINT64_MAX: could not be read */
        unsigned gen;        /* limit_gen when read */
    } limits[CC_MCW_CONTEXTS];
    struct {
        CUcontext ctx;
        cc_mc_heap *heap;    /* NULL with failed = 1: could not be created */
        int failed;
    } heaps[CC_MCW_CONTEXTS];
    size_t nheaps;
    unsigned long long no_window;
} cc_mcw = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Bumped when the program sets a context limit: every cached stack limit is read again. */
static atomic_uint limit_gen;

/* ---- driver facts: a kernel's local size, a context's stack limit ---- */

typedef CUresult (*cc_mcw_get_limit_fn)(size_t *, CUlimit);
typedef CUresult (*cc_mcw_get_current_fn)(CUcontext *);

static struct {
    pthread_once_t once;
    cc_mcw_get_limit_fn get_limit;
    cc_mcw_get_current_fn get_current;
} cc_mcw_drv = {.once = PTHREAD_ONCE_INIT};

static void drv_resolve(void)
{
    *(void **)&cc_mcw_drv.get_limit = cc_agent_driver_symbol("cuCtxGetLimit");
    *(void **)&cc_mcw_drv.get_current = cc_agent_driver_symbol("cuCtxGetCurrent");
    if (cc_mcw_drv.get_limit == NULL || cc_mcw_drv.get_current == NULL) {
        cc_agent_note("memcheck: cuCtxGetLimit not found: local accesses below a thread's stack "
                      "are not checked");
    }
}

/* The kernel's stack need: the larger of its frame and stack sizes in the cubin (found);
 * UINT64_MAX if unknown. No driver call: this runs inside the launch callback, where the driver
 * holds its launch lock (cuCtxGetLimit there waited forever on the H200 for that lock:
 * tests/gpu/memcheck/mc_use_after_free.cu hung). */
static uint64_t kernel_stack_of(int found, const cc_mc_kernel_windows *w)
{
    if (!found) {
        return UINT64_MAX;
    }
    return w->frame_bytes > w->stack_bytes ? w->frame_bytes : w->stack_bytes;
}

/* Called with the lock held: 1 and *limit if ctx's stack limit is cached and current. */
static int cached_stack_limit(CUcontext ctx, uint64_t *limit)
{
    unsigned gen = atomic_load(&limit_gen) + cc_instr_stack_generation();
    for (size_t i = 0; i < CC_MCW_CONTEXTS; i++) {
        if (ctx != NULL && cc_mcw.limits[i].ctx == ctx && cc_mcw.limits[i].gen == gen) {
            *limit = cc_mcw.limits[i].limit;
            return 1;
        }
    }
    return 0;
}

/* Called with the lock held: remember ctx's stack limit as read at generation gen. */
static void cache_stack_limit(CUcontext ctx, uint64_t limit, unsigned gen)
{
    size_t slot = CC_MCW_CONTEXTS;
    for (size_t i = 0; i < CC_MCW_CONTEXTS && ctx != NULL; i++) {
        if (cc_mcw.limits[i].ctx == ctx) {
            slot = i;
            break;
        }
        if (cc_mcw.limits[i].ctx == NULL && slot == CC_MCW_CONTEXTS) {
            slot = i;
        }
    }
    if (ctx == NULL) {
        return;
    }
    if (slot == CC_MCW_CONTEXTS) {
        slot = ((uintptr_t)ctx >> 4) % CC_MCW_CONTEXTS; /* full: replace one */
    }
    cc_mcw.limits[slot].ctx = ctx;
    cc_mcw.limits[slot].limit = limit;
    cc_mcw.limits[slot].gen = gen;
}

/* Called without the lock, at an API exit (a driver call): ctx's stack limit when ctx is the
 * calling thread's current context, else UINT64_MAX. */
static uint64_t read_stack_limit(CUcontext ctx)
{
    pthread_once(&cc_mcw_drv.once, drv_resolve);
    CUcontext cur = NULL;
    size_t limit = 0;
    if (cc_mcw_drv.get_limit == NULL || cc_mcw_drv.get_current == NULL ||
        cc_mcw_drv.get_current(&cur) != CUDA_SUCCESS || cur != ctx || ctx == NULL ||
        cc_mcw_drv.get_limit(&limit, CU_LIMIT_STACK_SIZE) != CUDA_SUCCESS) {
        return UINT64_MAX;
    }
    return limit;
}

/* The context whose stack limit was read last, at which generation: most API exits return
 * after comparing them, without the lock. */
static _Atomic(CUcontext) limit_last_ctx;
static atomic_uint limit_last_gen;
static _Thread_local int limit_reading; /* the driver calls below come back as callbacks */

void cc_mc_windows_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                          CUcontext ctx)
{
    /* cuCtxSetLimit, cudaDeviceSetLimit: a new stack limit (the ids, not the names: this runs at
     * every API exit). */
    if ((domain == SANITIZER_CB_DOMAIN_DRIVER_API &&
         cbid == SANITIZER_CBID_DRIVER_API_cuCtxSetLimit) ||
        (domain == SANITIZER_CB_DOMAIN_RUNTIME_API &&
         cbid == SANITIZER_CBID_RUNTIME_API_cudaDeviceSetLimit)) {
        atomic_fetch_add(&limit_gen, 1u);
    }
    unsigned gen = atomic_load(&limit_gen) + cc_instr_stack_generation();
    if (ctx == NULL || limit_reading ||
        (atomic_load(&limit_last_ctx) == ctx && atomic_load(&limit_last_gen) == gen)) {
        return;
    }
    uint64_t cached = 0;
    pthread_mutex_lock(&cc_mcw.lock);
    int known = cached_stack_limit(ctx, &cached);
    pthread_mutex_unlock(&cc_mcw.lock);
    if (!known) {
        limit_reading = 1;
        uint64_t limit = read_stack_limit(ctx);
        limit_reading = 0;
        if (limit == UINT64_MAX) {
            return; /* not this thread's current context: another exit reads it */
        }
        pthread_mutex_lock(&cc_mcw.lock);
        if (!cached_stack_limit(ctx, &cached)) {
            cache_stack_limit(ctx, limit, gen);
        }
        pthread_mutex_unlock(&cc_mcw.lock);
    }
    atomic_store(&limit_last_ctx, ctx);
    atomic_store(&limit_last_gen, gen);
}

/* CUCHECK_MC_PATCH=floor: the memory-access classes patched with empty functions (no check,
 * no report; a measuring aid, docs/memcheck.md "How it works", bench/memcheck_floor.sh). */

static const cc_mc_patch_class cc_mcw_floor_classes[] = {
    {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, CC_PATCH_FN_FLOOR_ACCESS},
    {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, CC_PATCH_FN_FLOOR_ACCESS},
    {SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, CC_PATCH_FN_FLOOR_ACCESS},
    {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, CC_PATCH_FN_FLOOR_MEMCPY_ASYNC},
};

size_t cc_mc_patch_classes(const cc_mc_patch_class **out)
{
    const char *v = cc_knob_get(CC_KNOB_MC_PATCH);
    if (v != NULL && strcmp(v, "floor") == 0) {
        cc_agent_note("memcheck: CUCHECK_MC_PATCH=floor: memory accesses are patched with empty "
                      "functions; nothing is checked");
        *out = cc_mcw_floor_classes;
        return sizeof cc_mcw_floor_classes / sizeof cc_mcw_floor_classes[0];
    }
    *out = cc_mcw_classes;
    return sizeof cc_mcw_classes / sizeof cc_mcw_classes[0];
}

int cc_mc_module_needs_every_launch(const void *cubin, size_t cubin_size)
{
    return cubin != NULL && cc_mc_cubin_uses_device_heap(cubin, cubin_size) == 1;
}

/* Called with the lock held. 1 and *w if the kernel's windows are known; *stack: its stack
 * need (kernel_stack_of), UINT64_MAX - 1 while the driver has not been asked.
 * Own code, not hashmap.h: direct-mapped, a newcomer replaces its slot's (hashmap.h refuses). */
static int windows_of(const Sanitizer_LaunchData *d, const void *cubin, size_t cubin_size,
                      cc_mc_kernel_windows *w, uint64_t *stack)
{
    size_t h = ((uintptr_t)d->function >> 4) % CC_MCW_CACHE;
    if (cc_mcw.cache[h].fn == d->function && cc_mcw.cache[h].module == d->module) {
        *w = cc_mcw.cache[h].w;
        *stack = cc_mcw.cache[h].stack_known ? cc_mcw.cache[h].stack : UINT64_MAX - 1;
        return cc_mcw.cache[h].found;
    }
    char err[160];
    int found = cubin != NULL && d->functionName != NULL &&
                cc_mc_kernel_windows_of(cubin, cubin_size, d->functionName, w, err,
                                        sizeof err) == 1;
    if (!found) {
        memset(w, 0, sizeof *w);
    }
    cc_mcw.cache[h].fn = d->function;
    cc_mcw.cache[h].module = d->module;
    cc_mcw.cache[h].found = found;
    cc_mcw.cache[h].w = *w;
    cc_mcw.cache[h].stack = UINT64_MAX;
    cc_mcw.cache[h].stack_known = 0;
    *stack = UINT64_MAX - 1;
    return found;
}

/* Called with the lock held: the kernel's stack need, once the driver was asked. */
static void cache_kernel_stack(const Sanitizer_LaunchData *d, uint64_t stack)
{
    size_t h = ((uintptr_t)d->function >> 4) % CC_MCW_CACHE;
    if (cc_mcw.cache[h].fn == d->function && cc_mcw.cache[h].module == d->module) {
        cc_mcw.cache[h].stack = stack;
        cc_mcw.cache[h].stack_known = 1;
    }
}

/* Called with the lock held: the context's heap table, created on first use. */
static cc_mc_heap *heap_of(CUcontext ctx, Sanitizer_StreamHandle stream)
{
    for (size_t i = 0; i < cc_mcw.nheaps; i++) {
        if (cc_mcw.heaps[i].ctx == ctx) {
            return cc_mcw.heaps[i].heap;
        }
    }
    if (cc_mcw.nheaps == CC_MCW_CONTEXTS) {
        return NULL;
    }
    void *p = NULL;
    cc_mcw_heap_header hdr = {CC_MC_HEAP_MAGIC, CC_MC_HEAP_CAP, 0u, 0u, ~0ull, 0ull};
    int ok = sanitizerAlloc(ctx, &p, sizeof(cc_mc_heap)) == SANITIZER_SUCCESS;
    ok = ok && sanitizerMemset(p, 0, sizeof(cc_mc_heap), stream) == SANITIZER_SUCCESS;
    ok = ok && sanitizerMemcpyHostToDeviceAsync(p, &hdr, sizeof hdr, stream) ==
                   SANITIZER_SUCCESS;
    ok = ok && sanitizerStreamSynchronize(stream) == SANITIZER_SUCCESS;
    if (!ok) {
        if (p != NULL) {
            sanitizerFree(ctx, p);
        }
        p = NULL;
        cc_agent_note("memcheck: cannot allocate the device-heap table in context %p: "
                      "device-side malloc/free are not checked there", (void *)ctx);
    }
    cc_mcw.heaps[cc_mcw.nheaps].ctx = ctx;
    cc_mcw.heaps[cc_mcw.nheaps].heap = p;
    cc_mcw.heaps[cc_mcw.nheaps].failed = !ok;
    cc_mcw.nheaps++;
    return p;
}

static struct {
    uint32_t override;  /* CUCHECK_MC_LOCAL_TOP */
    uint32_t probe_top; /* CUCHECK_MC_LOCAL_PROBE */
    int probing;
} local_env;

static void local_env_read(void)
{
    const char *v = cc_knob_get(CC_KNOB_MC_LOCAL_TOP);
    local_env.override = v != NULL ? (uint32_t)strtoul(v, NULL, 0) : 0u;
    v = cc_knob_get(CC_KNOB_MC_LOCAL_PROBE);
    local_env.probing = v != NULL && *v != '\0';
    local_env.probe_top = local_env.probing ? (uint32_t)strtoul(v, NULL, 0) : 0u;
}

/* The top of the thread's local window the user gave (CUCHECK_MC_LOCAL_TOP, see
 * cc_mc_launch_fill_windows), or 0; *probe is set under CUCHECK_MC_LOCAL_PROBE (the top is then
 * its value, 0 included). The environment is read once. */
static uint32_t local_top(int *probe)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, local_env_read);
    *probe = local_env.probing;
    if (local_env.probing) {
        return local_env.probe_top;
    }
    return local_env.override;
}

void cc_mc_launch_fill_windows(cc_mc_launch *hdr, const Sanitizer_LaunchData *d,
                               const void *cubin, size_t cubin_size)
{
    cc_mc_kernel_windows w;
    uint64_t kernel_stack = UINT64_MAX;
    pthread_mutex_lock(&cc_mcw.lock);
    int found = windows_of(d, cubin, cubin_size, &w, &kernel_stack);
    if (!found) {
        cc_mcw.no_window++;
    }
    uint64_t stack_limit = UINT64_MAX;
    int limit_cached = cached_stack_limit(d->context, &stack_limit);
    hdr->heap = heap_of(d->context, d->hStream);
    pthread_mutex_unlock(&cc_mcw.lock);
    /* No driver call here (see kernel_stack_of): the context's stack limit is read at API
     * exits (cc_mc_windows_on_api); until then the window has no bottom. */
    unsigned gen = atomic_load(&limit_gen) + cc_instr_stack_generation();
    int asked = kernel_stack == UINT64_MAX - 1;
    if (asked) {
        kernel_stack = kernel_stack_of(found, &w);
    }
    /* The driver raises the context's stack limit to a kernel's need at its launch (measured:
     * an 8 KiB frame under the 1 KiB default left the limit at 8 KiB), and later launches of
     * other kernels get that stack too. */
    uint64_t effective = stack_limit;
    if (stack_limit != UINT64_MAX && kernel_stack != UINT64_MAX && kernel_stack > stack_limit) {
        effective = kernel_stack;
    }
    if (asked || (!limit_cached && stack_limit != UINT64_MAX) || effective != stack_limit) {
        pthread_mutex_lock(&cc_mcw.lock);
        if (asked) {
            cache_kernel_stack(d, kernel_stack);
        }
        if (effective != UINT64_MAX) {
            cache_stack_limit(d->context, effective, gen);
        }
        pthread_mutex_unlock(&cc_mcw.lock);
    }
    stack_limit = effective;
    /* Cluster launches address shared memory through the cluster's window (the CTA's rank in
     * the high bits); on the H200 cuBLAS's clustered nvjet kernels read far past the window
     * computed here without any error, so their shared accesses get the alignment check only. */
    uint64_t cluster = (uint64_t)d->clusterDim_x * (d->clusterDim_y ? d->clusterDim_y : 1) *
                       (d->clusterDim_z ? d->clusterDim_z : 1);
    if (found && cluster <= 1) {
        hdr->flags |= CC_MC_FLAG_SHARED_WINDOW;
        hdr->smem_lo = w.smem_lo;
        hdr->smem_end = w.smem_lo + w.smem_static;
    }
    /* Local window: the Sanitizer API hands local accesses as offsets in the thread's window,
     * where the stack grows down from an initial stack pointer a little under 16 MiB. Measured
     * on the H200 (sm_90, driver 580) with CUCHECK_MC_LOCAL_PROBE: that pointer is not one
     * constant (the same kernel's frame ended at 0xfffc30 when JIT-compiled from PTX and at
     * 0xfffc40 as sm_90 SASS) and a patch cannot read it, so the window's end is 16 MiB and
     * its bottom is the kernel's stack plus the context's stack limit plus the reserve under
     * the end (cc_mc_local_window_of). Diagnostics: CUCHECK_MC_LOCAL_TOP=0x... moves the end to
     * a top the user measured for the program; CUCHECK_MC_LOCAL_PROBE=N reports every local
     * access at or past offset N (no bottom), to show the offsets a GPU hands out. */
    int probe = 0;
    uint32_t top = local_top(&probe);
    cc_mc_local_window lw = cc_mc_local_window_of(kernel_stack, probe ? UINT64_MAX : stack_limit,
                                                  top);
    if (probe) {
        lw.end = top;
    }
    hdr->flags |= CC_MC_FLAG_LOCAL_WINDOW;
    hdr->local_lo = lw.lo;
    hdr->local_end = lw.end;
}

void cc_mc_windows_on_module_unload(CUmodule module)
{
    pthread_mutex_lock(&cc_mcw.lock);
    for (size_t i = 0; i < CC_MCW_CACHE; i++) {
        if (cc_mcw.cache[i].fn != NULL && cc_mcw.cache[i].module == module) {
            cc_mcw.cache[i].fn = NULL;
        }
    }
    pthread_mutex_unlock(&cc_mcw.lock);
}

void cc_mc_heap_on_context_destroy(CUcontext ctx)
{
    pthread_mutex_lock(&cc_mcw.lock);
    for (size_t i = 0; i < cc_mcw.nheaps; i++) {
        if (cc_mcw.heaps[i].ctx == ctx) {
            cc_mcw.heaps[i] = cc_mcw.heaps[--cc_mcw.nheaps];
            break;
        }
    }
    pthread_mutex_unlock(&cc_mcw.lock);
}

void cc_mc_windows_stats(size_t *heaps, unsigned long long *no_window)
{
    pthread_mutex_lock(&cc_mcw.lock);
    *heaps = cc_mcw.nheaps;
    *no_window = cc_mcw.no_window;
    pthread_mutex_unlock(&cc_mcw.lock);
}
