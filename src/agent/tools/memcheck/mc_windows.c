/* memcheck's shared/local windows and device heap, agent side (mc_windows.h): a direct-mapped
 * cache CUfunction -> cubin facts (tools/memcheck/memcheck_windows.h), the launch header's
 * window fields, and one device-heap table per context (device memory, created at the first
 * checked launch there, kept across launches, released with the context). */
#include <pthread.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/tools/memcheck/mc_windows.h"
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
    } cache[CC_MCW_CACHE];
    struct {
        CUcontext ctx;
        cc_mc_heap *heap;    /* NULL with failed = 1: could not be created */
        int failed;
    } heaps[CC_MCW_CONTEXTS];
    size_t nheaps;
    unsigned long long no_window;
} cc_mcw = {.lock = PTHREAD_MUTEX_INITIALIZER};

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

/* Called with the lock held. 1 and *w if the kernel's windows are known.
 * Own code, not hashmap.h: direct-mapped, a newcomer replaces its slot's (hashmap.h refuses). */
static int windows_of(const Sanitizer_LaunchData *d, const void *cubin, size_t cubin_size,
                      cc_mc_kernel_windows *w)
{
    size_t h = ((uintptr_t)d->function >> 4) % CC_MCW_CACHE;
    if (cc_mcw.cache[h].fn == d->function && cc_mcw.cache[h].module == d->module) {
        *w = cc_mcw.cache[h].w;
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
    return found;
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
    pthread_mutex_lock(&cc_mcw.lock);
    int found = windows_of(d, cubin, cubin_size, &w);
    if (!found) {
        cc_mcw.no_window++;
    }
    hdr->heap = heap_of(d->context, d->hStream);
    pthread_mutex_unlock(&cc_mcw.lock);
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
     * where the stack grows down from the initial stack pointer the driver sets. Measured on the
     * H200 (sm_90, driver 580) with CUCHECK_MC_LOCAL_PROBE: that top is not one constant - the
     * same kernel's frame ended at 0xfffc30 when JIT-compiled from PTX and above 0xfffc40 when
     * built as sm_90 SASS - and a patch cannot read it, so local accesses are checked for
     * alignment only. Diagnostics: CUCHECK_MC_LOCAL_TOP=0x... checks every local access against
     * a top the user measured for the program; CUCHECK_MC_LOCAL_PROBE=N reports every local
     * access at or past offset N, to show the offsets a GPU hands out. */
    int probe = 0;
    uint32_t top = local_top(&probe);
    if (top != 0u || probe) {
        hdr->flags |= CC_MC_FLAG_LOCAL_WINDOW;
        hdr->local_end = top;
    }
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
