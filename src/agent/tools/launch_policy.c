/* The launch policy shared by the instrumentation clients (launch_policy.h): its tables' setup,
 * the selection cache's insertion, the demangling buffer, and the decision of racecheck's,
 * synccheck's and initcheck's clients (memcheck's adds its device-heap rule to the same steps). */
#include "agent/tools/launch_policy.h"
#include "agent/instr/instr_internal.h"
#include "symbols/demangle.h"
#include "tools/instr_options.h"

void cc_launch_tables_init(cc_launch_tables *t)
{
    cc_hashmap_init_fixed(&t->shapes, t->shape_slots, t->shape_used, CC_LAUNCH_SHAPES);
    cc_hashmap_init_fixed(&t->funcs, t->func_slots, t->func_used, CC_LAUNCH_FUNCS);
    t->ready = 1;
}

void cc_launch_func_remember(cc_launch_tables *t, CUfunction fn, int selected)
{
    (void)cc_hashmap_put(&t->funcs, (uint64_t)(uintptr_t)fn, (uint64_t)selected);
}

/* fn's selection by cfg's globs, cached per function. */
static int func_selected(cc_launch_tables *t, const cc_instr_config *cfg, CUfunction fn,
                         const char *name)
{
    if (cfg->kernel_include[0] == '\0' && cfg->kernel_exclude[0] == '\0') {
        return 1;
    }
    int known = cc_launch_func_known(t, fn);
    if (known >= 0) {
        return known;
    }
    const char *dem = cc_launch_demangled(name); /* once per function */
    int selected = cc_instr_kernel_selected(cfg->kernel_include, cfg->kernel_exclude, name, dem);
    cc_launch_func_remember(t, fn, selected);
    return selected;
}

int cc_launch_window_may_unpatch(int full, uint64_t launch_count)
{
    return !full || (launch_count != 0 && cc_instr_g.checked_launches >= launch_count);
}

int cc_launch_policy_may_unpatch(const cc_instr_config *cfg)
{
    return cc_launch_window_may_unpatch(cfg->full, cfg->launch_count);
}

int cc_launch_policy_decide(cc_launch_tables *t, const cc_instr_config *cfg,
                            const Sanitizer_LaunchData *d, cc_instr_module *m)
{
    cc_instr_state *g = &cc_instr_g;
    int want = 0;
    uint64_t *shape = NULL;
    cc_launch_tables_ready(t);
    int windowless = cc_launch_window_none(cfg->launch_skip, cfg->launch_count);
    if (!func_selected(t, cfg, d->function, d->functionName)) {
        cc_decided_mark_steady();
    } else {
        g->selected_launches++;
        int in_window = g->selected_launches > cfg->launch_skip &&
                        (cfg->launch_count == 0 || g->checked_launches < cfg->launch_count);
        if (in_window && cfg->full) {
            want = 1;
        } else if (in_window) {
            shape = cc_launch_shape_of(t, d);
            want = shape != NULL && *shape < cfg->checks_per_kernel;
            if (shape != NULL && !want && windowless) {
                cc_decided_mark_steady();
            }
        }
    }
    if (!cc_instr_module_want(m, want, cc_launch_policy_may_unpatch(cfg))) {
        return 0;
    }
    if (shape != NULL) {
        (*shape)++;
    }
    return 1;
}

const char *cc_launch_demangled(const char *name)
{
    static char dem[16384];
    cc_demangle(name != NULL ? name : "", dem, sizeof dem);
    return dem;
}
