/* Instrumentation manager, modules: the cubin of every loaded module (kept for pc -> file:line),
 * patching a module with the client's patch functions and unpatching it, and the patch policy
 * every client shares (cc_instr_module_want): a module whose recent launches needed no
 * instrumentation is unpatched, and re-patched (a bounded number of times, with back-off) when a
 * launch of it needs instrumentation again, both deferred to the next API exit
 * (cc_instr_apply_deferred; inside a launch callback the driver can deadlock). Which launches
 * need it is the client's decision (instr_mc.c, sc_client.c). Every function here runs with
 * cc_instr_g.lock held; that lock also serializes the Sanitizer patching calls this file
 * makes. */
#include <stdlib.h>
#include <string.h>
#include "agent.h"
#include "instr_internal.h"

#define CC_INSTR_CUBIN_BUDGET (256ull << 20) /* bytes of cubins kept for line lookup */

static uint64_t cc_cubin_bytes;

static void forget_function_pcs(CUmodule module);

cc_instr_module *cc_instr_module_find(CUmodule m)
{
    for (size_t i = 0; i < cc_instr_g.nmods; i++) {
        if (cc_instr_g.mods[i].module == m) {
            return &cc_instr_g.mods[i];
        }
    }
    return NULL;
}

int cc_instr_module_patch(cc_instr_module *m)
{
    /* memcheck patches global accesses only: shared and local accesses can only be checked for
     * alignment today (their window sizes are unknown), which the hardware traps anyway, while
     * patching them doubles the cost of shared-memory kernels
     * (research/instrumentation_floor.md); streamcheck needs global accesses only. */
    const cc_instr_client *cl = cc_instr_g.client;
    if (cc_agent_patches_load(m->ctx) != 0) { /* once per context */
        return -1;
    }
    for (size_t i = 0; i < cl->nclasses; i++) {
        SanitizerResult r = sanitizerPatchInstructions(cl->classes[i].id, m->module,
                                                       cl->classes[i].fn);
        if (r != SANITIZER_SUCCESS) {
            /* The first class (global accesses) is essential; the others only add checks. */
            cc_agent_note("%s: cannot patch %s in module %p (error %d)%s", cl->name,
                          cl->classes[i].fn, (void *)m->module, (int)r,
                          i == 0 ? "" : "; those checks are skipped there");
            if (i == 0) {
                return -1;
            }
        }
    }
    if (sanitizerPatchModule(m->module) != SANITIZER_SUCCESS) {
        cc_agent_note("%s: sanitizerPatchModule failed for module %p", cl->name,
                      (void *)m->module);
        return -1;
    }
    m->patched = 1;
    m->quiet = 0;
    return 0;
}

void cc_instr_module_unpatch(cc_instr_module *m)
{
    if (m->patched && sanitizerUnpatchModule(m->module) == SANITIZER_SUCCESS) {
        m->patched = 0;
        cc_agent_note("%s: module %p unpatched (its kernels were checked)",
                      cc_instr_g.client->name, (void *)m->module);
    }
}

void cc_instr_module_loaded(const Sanitizer_ResourceModuleData *d)
{
    cc_instr_state *g = &cc_instr_g;
    if (g->nmods == g->modcap) {
        size_t cap = g->modcap ? g->modcap * 2 : 64;
        cc_instr_module *p = realloc(g->mods, cap * sizeof *p);
        if (p == NULL) {
            return;
        }
        g->mods = p;
        g->modcap = cap;
    }
    cc_instr_module *m = &g->mods[g->nmods++];
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
    cc_instr_module_patch(m);
}

void cc_instr_module_unloading(CUmodule module)
{
    cc_instr_state *g = &cc_instr_g;
    if (g->client != NULL && g->client->module_unloading != NULL) {
        g->client->module_unloading(module);
    }
    forget_function_pcs(module);
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
    *m = g->mods[--g->nmods];
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
        if (m->patched && may_unpatch && g->can_defer && !m->unpatch_pending &&
            ++m->quiet >= (1ull << m->repatches)) {
            defer(&m->unpatch_pending);
        }
        return 0;
    }
    m->quiet = 0;
    m->unpatch_pending = 0; /* still patched: wanted again before the deferred unpatch */
    if (!m->patched) {
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

void cc_instr_apply_deferred(void)
{
    cc_instr_state *g = &cc_instr_g;
    __atomic_store_n(&g->deferred_due, 0, __ATOMIC_RELEASE);
    /* Launches pending on a module need nothing of its patched state: their kernels' code
     * ranges were taken when they were bound (cc_instr_function_pc). */
    for (size_t i = 0; i < g->nmods; i++) {
        cc_instr_module *m = &g->mods[i];
        if (m->unpatch_pending) {
            m->unpatch_pending = 0;
            cc_instr_module_unpatch(m);
        }
        if (m->repatch_pending) {
            m->repatch_pending = 0;
            if (!m->patched && cc_instr_module_patch(m) == 0) {
                m->repatches++;
            }
        }
    }
}

#define CC_FN_PCS 8192 /* functions whose code range is cached: a power of two */

typedef struct fn_pc_entry {
    CUfunction function; /* NULL: empty */
    CUmodule module;
    uint64_t pc, size;
} fn_pc_entry;

static fn_pc_entry cc_fn_pcs[CC_FN_PCS];

static void ask_function_pc(CUmodule module, const char *name, uint64_t *pc, uint64_t *size)
{
    if (name == NULL ||
        sanitizerGetFunctionPcAndSize(module, name, pc, size) != SANITIZER_SUCCESS) {
        *pc = 0;
        *size = 0;
    }
}

void cc_instr_function_pc(CUmodule module, CUfunction function, const char *name,
                          uint64_t *pc, uint64_t *size)
{
    size_t h = ((uintptr_t)function >> 4) * 0x9e3779b97f4a7c15ull >> 51; /* 13 bits */
    for (size_t i = 0; i < 16; i++) {
        fn_pc_entry *e = &cc_fn_pcs[(h + i) & (CC_FN_PCS - 1)];
        if (e->function == function && e->module == module) {
            *pc = e->pc;
            *size = e->size;
            return;
        }
        if (e->function == NULL) {
            ask_function_pc(module, name, pc, size);
            *e = (fn_pc_entry){function, module, *pc, *size};
            return;
        }
    }
    ask_function_pc(module, name, pc, size); /* a full neighbourhood: ask each time */
}

/* A module is going: its functions' handles may be reused. */
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
