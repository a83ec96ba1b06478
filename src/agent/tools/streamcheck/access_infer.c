/* Inferred access sets of kernel launches for streamcheck (see access_infer.h): the allocation
 * map, per-module kernel parameter layouts, the launch API's parameters (thread-local, from the
 * API enter callback to LAUNCH_BEGIN) and the scan (core/ptr_infer.h). Per launch: one mutex,
 * a direct-mapped layout cache hit, copies of the argument values into one buffer (used under
 * the mutex) and a binary search per pointer-sized word; nothing is allocated. The same
 * arguments feed the learned sets (cc_access_launch_words for sc_learn.c), and after the launch
 * event the launch's plan (sc_agent.h) says whether it needs an inferred set at all. Graph
 * kernel nodes get their arguments from the driver (cuGraphKernelNodeGetParams, checked against
 * the launch by graph_node_args.h) and always an inferred set: they are neither instrumented nor
 * learned, in every mode. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "agent/tools/streamcheck/access_infer.h"
#include "agent/core/agent.h"
#include "core/allocmap.h"
#include "core/grow.h"
#include "core/hashmap.h"
#include "core/ptr_infer.h"
#include "agent/tools/launch_args.h"
#include "agent/tools/streamcheck/graph_node_args.h"
#include "agent/core/agent_knobs.h"
#include "agent/core/self_time.h"
#include "agent/tools/streamcheck/sc_agent.h"
#include "symbols/kparams.h"

#define CC_AX_RANGES 64u       /* ranges one launch may yield (more are counted, not sent) */
#define CC_AX_CACHE 1024u      /* direct-mapped CUfunction -> layout cache */

typedef cc_launch_layout cc_ax_kernel;

typedef struct cc_ax_module {
    CUmodule module;
    cc_ax_kernel *kernels; /* sorted by name */
    size_t n;
} cc_ax_module;

static struct {
    int active;
    pthread_mutex_t lock;
    cc_allocmap *allocs;
    cc_ax_module *mods;
    size_t nmods, modcap;
    struct {
        CUfunction f;
        const cc_ax_kernel *k; /* NULL: no layout known */
    } cache[CC_AX_CACHE];
    uint64_t launches, no_layout, dropped;
    unsigned char buf[CC_LAUNCH_PARAM_MAX]; /* a launch's arguments laid out (under the lock) */
} cc_ax = {.lock = PTHREAD_MUTEX_INITIALIZER};

void cc_access_init(void)
{
    cc_ax.allocs = cc_allocmap_new();
    cc_ax.active = cc_ax.allocs != NULL;
}

/* ---- parameter layouts per module ---- */

static int cc_ax_by_name(const void *a, const void *b)
{
    return strcmp(((const cc_ax_kernel *)a)->name, ((const cc_ax_kernel *)b)->name);
}

typedef struct cc_ax_collect {
    cc_ax_kernel *k;
    size_t n, cap;
    int failed;
} cc_ax_collect;

static int cc_ax_on_kernel(const char *name, const cc_kparam *p, uint32_t n, uint32_t bytes,
                           void *user)
{
    (void)bytes;
    cc_ax_collect *c = user;
    if (CC_ARRAY_RESERVE(c->k, c->cap, c->n + 1)) {
        c->failed = 1;
        return 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (p[i].ordinal != i) {
            return 0; /* a gap in the ordinals: args[i] would not be argument i */
        }
    }
    cc_ax_kernel *k = &c->k[c->n];
    k->name = strdup(name);
    k->slots = malloc(n * sizeof *k->slots);
    if (k->name == NULL || k->slots == NULL) {
        free(k->name);
        free(k->slots);
        c->failed = 1;
        return 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        k->slots[i].offset = p[i].offset;
        k->slots[i].size = p[i].size;
    }
    k->nslots = n;
    c->n++;
    return 0;
}

static void cc_ax_free_kernels(cc_ax_kernel *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(k[i].name);
        free(k[i].slots);
    }
    free(k);
}

/* Callers hold the lock. */
static void cc_ax_module_drop(CUmodule module)
{
    for (size_t i = 0; i < cc_ax.nmods; i++) {
        if (cc_ax.mods[i].module == module) {
            cc_ax_free_kernels(cc_ax.mods[i].kernels, cc_ax.mods[i].n);
            cc_ax.mods[i] = cc_ax.mods[--cc_ax.nmods];
            memset(cc_ax.cache, 0, sizeof cc_ax.cache);
            return;
        }
    }
}

static void cc_ax_module_loaded(const Sanitizer_ResourceModuleData *d)
{
    if (d->pCubin == NULL || d->cubinSize == 0) {
        return;
    }
    cc_ax_collect c = {NULL, 0, 0, 0};
    char err[256];
    if (cc_cubin_kparams(d->pCubin, d->cubinSize, cc_ax_on_kernel, &c, err, sizeof err) < 0 ||
        c.failed) {
        cc_agent_note("streamcheck: no parameter layouts for a module: %s",
                      c.failed ? "out of memory" : err);
        cc_ax_free_kernels(c.k, c.n);
        return;
    }
    qsort(c.k, c.n, sizeof *c.k, cc_ax_by_name);
    pthread_mutex_lock(&cc_ax.lock);
    cc_ax_module_drop(d->module); /* a handle reused without an unload we saw */
    cc_ax_module *m = CC_ARRAY_PUSH(cc_ax.mods, cc_ax.nmods, cc_ax.modcap);
    if (m == NULL) {
        pthread_mutex_unlock(&cc_ax.lock);
        cc_ax_free_kernels(c.k, c.n);
        return;
    }
    *m = (cc_ax_module){d->module, c.k, c.n};
    pthread_mutex_unlock(&cc_ax.lock);
}

/* Callers hold the lock. */
static const cc_ax_kernel *cc_ax_layout(const Sanitizer_LaunchData *d)
{
    size_t h = (size_t)(((uintptr_t)d->function >> 4) * 0x9e3779b97f4a7c15ull >> 54) &
               (CC_AX_CACHE - 1);
    if (d->function != NULL && cc_ax.cache[h].f == d->function) {
        return cc_ax.cache[h].k;
    }
    const cc_ax_kernel *found = NULL;
    for (size_t i = 0; d->functionName != NULL && i < cc_ax.nmods; i++) {
        if (cc_ax.mods[i].module == d->module) {
            cc_ax_kernel key = {(char *)d->functionName, NULL, 0};
            found = bsearch(&key, cc_ax.mods[i].kernels, cc_ax.mods[i].n,
                            sizeof key, cc_ax_by_name);
            break;
        }
    }
    if (found == NULL && d->module == NULL) {
        /* the CUPTI source: no module, no cubin */
        found = cc_launch_layout_from_driver(d->function, "streamcheck");
    }
    if (d->function != NULL) {
        cc_ax.cache[h].f = d->function;
        cc_ax.cache[h].k = found;
    }
    return found;
}

/* ---- allocations ---- */

static void cc_ax_alloc(const Sanitizer_ResourceMemoryData *d, uint32_t kind)
{
    cc_alloc_rec r;
    memset(&r, 0, sizeof r);
    r.base = d->address;
    r.size = d->size;
    r.mem_kind = kind;
    r.device = (int32_t)d->device;
    r.context = cc_agent_handle_id(d->context);
    pthread_mutex_lock(&cc_ax.lock);
    cc_allocmap_add(cc_ax.allocs, &r);
    pthread_mutex_unlock(&cc_ax.lock);
}

static void cc_ax_free(const Sanitizer_ResourceMemoryData *d)
{
    cc_alloc_rec gone;
    pthread_mutex_lock(&cc_ax.lock);
    cc_allocmap_remove(cc_ax.allocs, d->address, 0, &gone);
    pthread_mutex_unlock(&cc_ax.lock);
}

void cc_access_on_resource(Sanitizer_CallbackId cbid, const void *data)
{
    if (!cc_ax.active) {
        return;
    }
    switch (cbid) {
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC: /* pinned host memory is device-visible */
        cc_ax_alloc(data, cbid == SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC
                              ? CC_MEM_DEVICE : CC_MEM_HOST_PINNED);
        break;
    case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC:
        cc_ax_alloc(data, CC_MEM_DEVICE_ASYNC);
        break;
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC:
        cc_ax_free(data);
        break;
    case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING: {
        const Sanitizer_ResourceContextData *d = data;
        pthread_mutex_lock(&cc_ax.lock);
        cc_allocmap_drop_context(cc_ax.allocs, cc_agent_handle_id(d->context));
        pthread_mutex_unlock(&cc_ax.lock);
        break;
    }
    case SANITIZER_CBID_RESOURCE_MODULE_LOADED:
        cc_ax_module_loaded(data);
        break;
    case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING: {
        const Sanitizer_ResourceModuleData *d = data;
        pthread_mutex_lock(&cc_ax.lock);
        cc_ax_module_drop(d->module);
        pthread_mutex_unlock(&cc_ax.lock);
        break;
    }
    default:
        break;
    }
}

/* ---- the launch call's parameters ---- */

/* The launch's parameter buffer, laid out (callers hold the lock). NULL if unknown: an args
 * array without a layout (its length is unknown). */
static const unsigned char *cc_ax_param_buffer(const cc_ax_kernel *k, void **params,
                                               void **extra, size_t *len)
{
    return cc_launch_args_lay_out(k, params, extra, cc_ax.buf, sizeof cc_ax.buf, len);
}

void cc_access_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                      const Sanitizer_CallbackData *d)
{
    if (cc_ax.active) {
        cc_launch_args_on_api(domain, cbid, d);
    }
}

int cc_access_launch_words(const Sanitizer_LaunchData *d, cc_al_word *out, size_t cap,
                           size_t *n, int *truncated)
{
    *n = 0;
    *truncated = 0;
    void **params, **extra;
    if (!cc_ax.active || !cc_launch_args_current(&params, &extra)) {
        return 0;
    }
    pthread_mutex_lock(&cc_ax.lock);
    const cc_ax_kernel *k = cc_ax_layout(d);
    size_t len = 0;
    const unsigned char *buf = cc_ax_param_buffer(k, params, extra, &len);
    if (buf != NULL) {
        *n = cc_al_scan(buf, len, k != NULL ? k->slots : NULL, k != NULL ? k->nslots : 0,
                        cc_ax.allocs, out, cap, truncated);
    }
    pthread_mutex_unlock(&cc_ax.lock);
    return buf != NULL;
}

/* The inferred access events of a launch, right after its launch event. */
static void cc_ax_emit(const cc_event *launch, const cc_ptr_range *ranges, size_t n)
{
    cc_al_access acc[CC_AX_RANGES];
    if (n > CC_AX_RANGES) {
        n = CC_AX_RANGES;
    }
    for (size_t i = 0; i < n; i++) {
        acc[i].address = ranges[i].address;
        acc[i].size = ranges[i].size;
        acc[i].flags = CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE;
    }
    cc_agent_emit_accesses(launch->u.launch.launch_id, CC_ACCESS_SRC_INFERRED, acc, n);
}

static void cc_access_after_launch_timed(const Sanitizer_LaunchData *d, const cc_event *launch);

void cc_access_after_launch(const Sanitizer_LaunchData *d, const cc_event *launch)
{
    if (!cc_ax.active) {
        return; /* not streamcheck */
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    cc_access_after_launch_timed(d, launch);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_ACCESS, t0);
    }
}

static void cc_access_after_launch_timed(const Sanitizer_LaunchData *d, const cc_event *launch)
{
    const cc_al_word *words = NULL;
    size_t nwords = 0;
    int handled = cc_sc_after_launch(launch, &words, &nwords); /* learned, instrumented, full */
    void **params, **extra;
    int set = cc_launch_args_current(&params, &extra);
    cc_launch_args_consume(); /* one launch per call */
    if (handled || !set) {
        return; /* or a launch call whose parameters we do not read */
    }
    cc_ptr_range ranges[CC_AX_RANGES];
    cc_ptr_infer_stats st = {0, 0, 0};
    size_t n = 0;
    if (nwords > 0) { /* the default mode's decision already found the pointer arguments */
        for (size_t i = 0; i < nwords; i++) {
            if (cc_ptr_range_add(ranges, &n, CC_AX_RANGES, words[i].value,
                                 words[i].end - words[i].value) != 0) {
                st.dropped++;
            }
        }
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    pthread_mutex_lock(&cc_ax.lock);
    cc_ax.launches++;
    if (nwords == 0) {
        const cc_ax_kernel *k = cc_ax_layout(d);
        size_t len = 0;
        const unsigned char *buf = cc_ax_param_buffer(k, params, extra, &len);
        if (buf != NULL) {
            n = cc_ptr_infer(buf, len, k != NULL ? k->slots : NULL, k != NULL ? k->nslots : 0,
                             cc_ax.allocs, CC_PTR_TO_END, ranges, CC_AX_RANGES, &st);
        } else {
            cc_ax.no_layout++; /* an args array without a layout: its length is unknown */
        }
    }
    cc_ax.dropped += st.dropped;
    pthread_mutex_unlock(&cc_ax.lock);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_ACCESS_INFER, t0);
    }
    cc_ax_emit(launch, ranges, n);
}

/* ---- graph kernel nodes ---- */

/* A graph node's launch callback carries no parameter buffer: the node's arguments are read
 * from the driver (cuGraphKernelNodeGetParams, resolved from the libcuda.so.1 the program
 * already loaded; the agent never links it). The call runs inside the Sanitizer callback: the
 * callbacks it causes are ignored (sanitizer_subscribe.c drops nested ones), and it is made
 * once per node launch. CUCHECK_SC_GRAPH_ARGS=0 turns it off (graph kernel nodes then get no
 * access set, as before). */

typedef CUresult (*cc_gx_get_params_fn)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS_v2 *);

static struct {
    pthread_once_t once;
    cc_gx_get_params_fn get;      /* NULL: unavailable or turned off */
    atomic_int said_failed, said_unusable; /* each said once (verbose notes) */
} cc_gx = {.once = PTHREAD_ONCE_INIT};

static void cc_gx_resolve(void)
{
    const char *off = cc_knob_get(CC_KNOB_SC_GRAPH_ARGS);
    if (off != NULL && strcmp(off, "0") == 0) {
        cc_agent_note("streamcheck: %s=0: graph kernel nodes get no access sets",
                      cc_knob_name(CC_KNOB_SC_GRAPH_ARGS));
        return;
    }
    /* The _v2 entry (CUDA 12+) fills the whole struct; the first one fills its leading fields
     * (same layout up to `extra`), the rest stays zero. */
    void *f = cc_agent_driver_symbol("cuGraphKernelNodeGetParams_v2");
    if (f == NULL) {
        f = cc_agent_driver_symbol("cuGraphKernelNodeGetParams");
    }
    if (f == NULL) {
        cc_agent_note("streamcheck: libcuda is not loaded or has no cuGraphKernelNodeGetParams: "
                      "graph kernel nodes get no access sets");
    }
    *(void **)&cc_gx.get = f;
}

void cc_access_after_graph_node(const Sanitizer_GraphNodeLaunchData *d, const cc_event *launch)
{
    if (!cc_ax.active || d->nodeType != CU_GRAPH_NODE_TYPE_KERNEL || d->node == NULL) {
        return;
    }
    pthread_once(&cc_gx.once, cc_gx_resolve);
    if (cc_gx.get == NULL) {
        return; /* no set: the closing note counts the node as without one */
    }
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    memset(&p, 0, sizeof p);
    CUresult r = cc_gx.get(d->node, &p);
    if (r != CUDA_SUCCESS) {
        if (atomic_exchange(&cc_gx.said_failed, 1) == 0) {
            cc_agent_note("streamcheck: cuGraphKernelNodeGetParams failed (error %d) for a node "
                          "of kernel %s: such nodes get no access set", (int)r,
                          d->launchData.functionName != NULL ? d->launchData.functionName : "?");
        }
        return;
    }
    const Sanitizer_LaunchData *l = &d->launchData;
    cc_gna_view node = {(const void *)p.func,
                        {p.gridDimX, p.gridDimY, p.gridDimZ},
                        {p.blockDimX, p.blockDimY, p.blockDimZ},
                        p.kernelParams != NULL, p.extra != NULL};
    cc_gna_view run = {(const void *)l->function,
                       {l->gridDim_x, l->gridDim_y, l->gridDim_z},
                       {l->blockDim_x, l->blockDim_y, l->blockDim_z}, 0, 0};
    cc_gna_verdict v = cc_gna_check(&node, &run);
    if (v != CC_GNA_USE) {
        if (atomic_exchange(&cc_gx.said_unusable, 1) == 0) {
            cc_agent_note("streamcheck: the arguments of a graph node of kernel %s are not used "
                          "(%s): such nodes get no access set",
                          l->functionName != NULL ? l->functionName : "?",
                          cc_gna_verdict_name(v));
        }
        return;
    }
    cc_ptr_range ranges[CC_AX_RANGES];
    cc_ptr_infer_stats st = {0, 0, 0};
    size_t n = 0;
    pthread_mutex_lock(&cc_ax.lock);
    cc_ax.launches++;
    const cc_ax_kernel *k = cc_ax_layout(l);
    size_t len = 0;
    const unsigned char *buf = cc_ax_param_buffer(k, p.kernelParams, p.extra, &len);
    if (buf != NULL) {
        n = cc_ptr_infer(buf, len, k != NULL ? k->slots : NULL, k != NULL ? k->nslots : 0,
                         cc_ax.allocs, CC_PTR_TO_END, ranges, CC_AX_RANGES, &st);
    } else {
        cc_ax.no_layout++;
    }
    cc_ax.dropped += st.dropped;
    pthread_mutex_unlock(&cc_ax.lock);
    cc_ax_emit(launch, ranges, n);
}
