/* The tables of the adaptive launch policy that memcheck's and racecheck's instrumentation
 * clients share in form (each client keeps its own instance and its own options): a
 * per-function cache of the kernel selection (include/exclude), and the checked-launch counter
 * of each (kernel, grid, block). Fixed storage (core/hashmap.h with these arrays): no allocation
 * on a launch. Nothing here locks: the clients' decide runs with cc_instr_g.lock held. */
#ifndef CUCHECK_AGENT_TOOLS_LAUNCH_POLICY_H
#define CUCHECK_AGENT_TOOLS_LAUNCH_POLICY_H

#include <stdint.h>
#include <sanitizer.h>
#include "core/hash.h"
#include "core/hashmap.h"

#define CC_LAUNCH_SHAPES 16384 /* (kernel, grid, block) counters */
#define CC_LAUNCH_FUNCS 8192   /* per-function selection cache */

/* shapes: cc_hash_combine of (kernel, grid, block) -> checked launches; funcs: CUfunction ->
 * selected (0/1). Zero-initialized storage; set up by cc_launch_tables_ready. */
typedef struct cc_launch_tables {
    int ready;
    cc_hashmap shapes, funcs;
    cc_hashmap_slot shape_slots[CC_LAUNCH_SHAPES], func_slots[CC_LAUNCH_FUNCS];
    uint64_t shape_used[CC_HASHMAP_USED_WORDS(CC_LAUNCH_SHAPES)];
    uint64_t func_used[CC_HASHMAP_USED_WORDS(CC_LAUNCH_FUNCS)];
} cc_launch_tables;

void cc_launch_tables_init(cc_launch_tables *t);

static inline void cc_launch_tables_ready(cc_launch_tables *t)
{
    if (!t->ready) {
        cc_launch_tables_init(t);
    }
}

/* The cached selection of fn: 0 or 1, or -1 when it was not decided yet. */
static inline int cc_launch_func_known(const cc_launch_tables *t, CUfunction fn)
{
    const uint64_t *known = cc_hashmap_get(&t->funcs, (uint64_t)(uintptr_t)fn);
    return known != NULL ? (int)*known : -1;
}

/* Caches fn's selection (table full: decided again at each launch). */
void cc_launch_func_remember(cc_launch_tables *t, CUfunction fn, int selected);

/* name (NULL: "") demangled whole (CUTLASS-style names run to several KiB) into a static
 * buffer, valid until the next call: called under the manager's lock, once per function. */
const char *cc_launch_demangled(const char *name);

/* The checked-launch counter of the launch's (kernel, grid, block), or NULL when the table is
 * full (later new shapes are not checked). Valid until the next insertion. */
static inline uint64_t *cc_launch_shape_of(cc_launch_tables *t, const Sanitizer_LaunchData *d)
{
    /* Dimensions two to a word: two cc_hash_pair side by side, joined by one combiner step. */
    uint64_t k = cc_hash_combine(
        cc_hash_pair((uint64_t)(uintptr_t)d->function,
                     d->gridDim_x | (uint64_t)d->gridDim_y << 32),
        cc_hash_pair(d->gridDim_z | (uint64_t)d->blockDim_x << 32,
                     d->blockDim_y | (uint64_t)d->blockDim_z << 32));
    return cc_hashmap_get_or_add(&t->shapes, k, 0, NULL);
}

struct cc_instr_config;
struct cc_instr_module;
/* The whole adaptive policy for one launch under a tool's shared options (tools/instr_options.h),
 * for a client's decide (racecheck, synccheck, initcheck): a kernel passing --kernel-include/
 * -exclude (cached per function) inside the launch window (--launch-skip/--launch-count) runs
 * instrumented on every launch in --mode full, else on the first checks_per_kernel launches of
 * each (kernel, grid, block); the module is patched or unpatched through cc_instr_module_want.
 * 1: the launch runs instrumented (its shape's count taken). */
int cc_launch_policy_decide(cc_launch_tables *t, const struct cc_instr_config *cfg,
                            const Sanitizer_LaunchData *d, struct cc_instr_module *m);

/* Whether a module may be unpatched when a launch of it needs no instrumentation: in adaptive
 * mode, or in --mode full once --launch-count launches were checked (a client's may_unpatch).
 * The rule from the two options, for a client whose config is its own (memcheck). */
int cc_launch_window_may_unpatch(int full, uint64_t launch_count);
/* Whether no launch window is set (neither --launch-skip nor --launch-count): only then may a
 * "no" for a kernel left out or a shape whose checks are done be marked steady
 * (core/decided_cache.h); a window's counters need every launch. */
static inline int cc_launch_window_none(uint64_t launch_skip, uint64_t launch_count)
{
    return launch_skip == 0 && launch_count == 0;
}
int cc_launch_policy_may_unpatch(const struct cc_instr_config *cfg);

#endif
