/* Instrumentation manager, modules: the cubin of every loaded module (kept for pc -> file:line),
 * patching a module with memcheck's device checks and unpatching it, and the per-launch policy:
 * kernel include/exclude, launch skip/count, and in adaptive mode --checks-per-kernel checked
 * launches per (kernel, grid, block); a module whose recent launches needed no check is
 * unpatched, and re-patched (a bounded number of times, with back-off) when a new kernel or
 * shape of it shows up. Every function here runs with cc_instr_g.lock held; that lock also serializes
 * the Sanitizer patching calls this file makes. */
#include <stdlib.h>
#include <string.h>
#include "agent.h"
#include "instr_internal.h"
#include "symbols/demangle.h"

#define CC_INSTR_CUBIN_BUDGET (256ull << 20) /* bytes of cubins kept for line lookup */
#define CC_INSTR_SHAPES 16384                /* (kernel, grid, block) counters */
#define CC_INSTR_FUNCS 8192                  /* per-function selection cache */

typedef struct shape_entry {
    uint64_t key; /* 0 = empty */
    uint32_t checks;
} shape_entry;

typedef struct func_entry {
    CUfunction fn; /* NULL = empty */
    int selected;
} func_entry;

static shape_entry cc_shapes[CC_INSTR_SHAPES];
static func_entry cc_funcs[CC_INSTR_FUNCS];
static uint64_t cc_cubin_bytes;

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
    /* Global accesses only: shared and local accesses can only be checked for alignment today
     * (their window sizes are unknown), which the hardware traps anyway, while patching them
     * doubles the cost of shared-memory kernels (research/instrumentation_floor.md). The
     * cc_mc_shared/local_access patches exist for when window checks come. */
    static const struct {
        Sanitizer_InstructionId id;
        const char *fn;
    } classes[] = {
        {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, CC_PATCH_FN_MC_GLOBAL},
    };
    if (cc_agent_patches_load(m->ctx) != 0) { /* once per context */
        return -1;
    }
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        SanitizerResult r = sanitizerPatchInstructions(classes[i].id, m->module, classes[i].fn);
        if (r != SANITIZER_SUCCESS) {
            cc_agent_note("memcheck: cannot patch module %p (error %d)", (void *)m->module, (int)r);
            return -1;
        }
    }
    if (sanitizerPatchModule(m->module) != SANITIZER_SUCCESS) {
        cc_agent_note("memcheck: sanitizerPatchModule failed for module %p", (void *)m->module);
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
        cc_agent_note("memcheck: module %p unpatched (its kernels were checked)", (void *)m->module);
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

static int func_selected(CUfunction fn, const char *name)
{
    const cc_memcheck_config *cfg = &cc_instr_g.cfg;
    if (cfg->kernel_include[0] == '\0' && cfg->kernel_exclude[0] == '\0') {
        return 1;
    }
    size_t h = ((uintptr_t)fn >> 4) % CC_INSTR_FUNCS;
    for (size_t i = 0; i < CC_INSTR_FUNCS; i++) {
        func_entry *e = &cc_funcs[(h + i) % CC_INSTR_FUNCS];
        if (e->fn == fn) {
            return e->selected;
        }
        if (e->fn == NULL) {
            char dem[1024];
            cc_demangle(name != NULL ? name : "", dem, sizeof dem);
            e->fn = fn;
            e->selected = cc_memcheck_kernel_selected(cfg, name, dem);
            return e->selected;
        }
    }
    char dem[1024];
    cc_demangle(name != NULL ? name : "", dem, sizeof dem);
    return cc_memcheck_kernel_selected(cfg, name, dem);
}

static shape_entry *shape_of(const Sanitizer_LaunchData *d)
{
    uint64_t k = 1469598103934665603ull;
    uint64_t parts[7] = {(uint64_t)(uintptr_t)d->function, d->gridDim_x, d->gridDim_y,
                         d->gridDim_z, d->blockDim_x, d->blockDim_y, d->blockDim_z};
    for (int i = 0; i < 7; i++) {
        k = (k ^ parts[i]) * 1099511628211ull;
    }
    k = k != 0 ? k : 1;
    for (size_t i = 0; i < CC_INSTR_SHAPES; i++) {
        shape_entry *e = &cc_shapes[(k + i) % CC_INSTR_SHAPES];
        if (e->key == k || e->key == 0) {
            e->key = k;
            return e;
        }
    }
    return NULL; /* table full: later new shapes are not checked */
}

int cc_instr_should_check(const Sanitizer_LaunchData *d, cc_instr_module *m)
{
    cc_instr_state *g = &cc_instr_g;
    const cc_memcheck_config *cfg = &g->cfg;
    int want = 0;
    shape_entry *shape = NULL;
    if (func_selected(d->function, d->functionName)) {
        g->selected_launches++;
        int in_window = g->selected_launches > cfg->launch_skip &&
                        (cfg->launch_count == 0 || g->checked_launches < cfg->launch_count);
        if (in_window && cfg->full) {
            want = 1;
        } else if (in_window) {
            shape = shape_of(d);
            want = shape != NULL && shape->checks < cfg->checks_per_kernel;
        }
    }
    if (m == NULL) {
        return 0; /* a module we never saw load: not patched */
    }
    if (!want) {
        int may_unpatch = !cfg->full || (cfg->launch_count != 0 &&
                                         g->checked_launches >= cfg->launch_count);
        if (m->patched && may_unpatch && ++m->quiet >= (1ull << m->repatches)) {
            cc_instr_module_unpatch(m);
        }
        return 0;
    }
    m->quiet = 0;
    if (!m->patched) {
        if (m->repatches >= CC_INSTR_MAX_REPATCH || cc_instr_module_patch(m) != 0) {
            return 0;
        }
        m->repatches++;
    }
    if (shape != NULL) {
        shape->checks++;
    }
    return 1;
}

void cc_instr_resolve_pc(cc_instr_module *m, const char *kernel, uint64_t pc, uint64_t *offset,
                         const char **file, uint32_t *line)
{
    *offset = pc;
    *file = "";
    *line = 0;
    if (m == NULL || kernel == NULL) {
        return;
    }
    uint64_t fpc = 0, fsize = 0;
    if (sanitizerGetFunctionPcAndSize(m->module, kernel, &fpc, &fsize) == SANITIZER_SUCCESS &&
        pc >= fpc && pc - fpc < fsize) {
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
