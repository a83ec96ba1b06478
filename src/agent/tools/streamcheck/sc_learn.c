/* streamcheck, learned access sets in the agent (sc_agent.h): the per-kernel and per-shape
 * facts (core/access_learn.h) in two bounded tables, the decision for each launch of the default
 * mode, learning from instrumented launches, and the thread's plan for its current launch that
 * access_infer.c consults after the launch event (learned events are emitted from here). */
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/tools/streamcheck/sc_agent.h"
#include "agent/core/agent_knobs.h"
#include "core/hashmap.h"

#define CC_SC_KERNELS 8192  /* kernels (functions) with learning state */
#define CC_SC_SHAPES 16384  /* launch shapes with facts */

/* Two fixed tables (core/hashmap.h, caller storage: no allocation in the table on a launch):
 * kernels: CUfunction -> index into kernel_state; shapes: cc_al_shape_key -> cc_al_shape *
 * (calloc'd the first time the shape is seen). Full: the launch is inferred (no_room). */
static struct {
    uint32_t mode;
    cc_al_policy policy;
    int tables_ready;
    cc_hashmap kernels, shapes;
    cc_hashmap_slot kernel_slots[CC_SC_KERNELS], shape_slots[CC_SC_SHAPES];
    uint64_t kernel_used[CC_HASHMAP_USED_WORDS(CC_SC_KERNELS)];
    uint64_t shape_used[CC_HASHMAP_USED_WORDS(CC_SC_SHAPES)];
    cc_al_kernel kernel_state[CC_SC_KERNELS];
    uint8_t kernel_nccl[CC_SC_KERNELS]; /* 0: not looked at, 1: not NCCL's, 2: NCCL's */
    size_t nkernels;
    uint64_t no_room, learned_dropped;
} cc_sc = {.mode = CC_SC_MODE_API};

_Thread_local cc_sc_plan cc_sc_plan_cur;

/* CUCHECK_SC_UNTOUCHED=0: a pointer argument whose allocation no instrumented access touched is
 * taken as not accessed (by default it gets the inferred range: TMA loads and stores are
 * invisible to the patches; see core/access_learn.h). */

void cc_sc_learn_init(uint32_t mode)
{
    cc_sc.mode = mode;
    cc_al_policy_default(&cc_sc.policy);
    const char *v = cc_knob_get(CC_KNOB_SC_UNTOUCHED);
    if (v != NULL && strcmp(v, "0") == 0) {
        cc_sc.policy.untouched_inferred = 0;
    }
}

int cc_sc_untouched_inferred(void)
{
    return cc_sc.policy.untouched_inferred != 0;
}

uint32_t cc_sc_mode_get(void)
{
    return cc_sc.mode;
}

static void tables_ready(void)
{
    if (!cc_sc.tables_ready) {
        cc_hashmap_init_fixed(&cc_sc.kernels, cc_sc.kernel_slots, cc_sc.kernel_used,
                              CC_SC_KERNELS);
        cc_hashmap_init_fixed(&cc_sc.shapes, cc_sc.shape_slots, cc_sc.shape_used, CC_SC_SHAPES);
        cc_sc.tables_ready = 1;
    }
}

static cc_al_kernel *kernel_of(CUfunction fn)
{
    if (fn == NULL) {
        return NULL;
    }
    int added = 0;
    uint64_t *index = cc_hashmap_get_or_add(&cc_sc.kernels, (uint64_t)(uintptr_t)fn,
                                            (uint64_t)cc_sc.nkernels, &added);
    if (index == NULL) {
        return NULL; /* CC_SC_KERNELS kernels already have state */
    }
    if (added) {
        memset(&cc_sc.kernel_state[cc_sc.nkernels], 0, sizeof cc_sc.kernel_state[0]);
        cc_sc.kernel_nccl[cc_sc.nkernels] = 0;
        cc_sc.nkernels++;
    }
    return &cc_sc.kernel_state[*index];
}

/* Whether the launch runs an NCCL kernel, by its name, looked at once per kernel (a mangled
 * name runs to hundreds of characters). */
static int is_nccl(const cc_al_kernel *k, const char *name)
{
    uint8_t *known = k != NULL ? &cc_sc.kernel_nccl[k - cc_sc.kernel_state] : NULL;
    if (known != NULL && *known != 0) {
        return *known == 2;
    }
    int nccl = name != NULL && strstr(name, "nccl") != NULL;
    if (known != NULL) {
        *known = nccl ? 2 : 1;
    }
    return nccl;
}

static cc_al_shape *shape_of(uint64_t key)
{
    uint64_t *known = cc_hashmap_get(&cc_sc.shapes, key);
    if (known != NULL) {
        return (cc_al_shape *)(uintptr_t)*known;
    }
    if (cc_sc.shapes.count == CC_SC_SHAPES) {
        return NULL; /* full: the shape is not learned */
    }
    cc_al_shape *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    s->key = key;
    (void)cc_hashmap_put(&cc_sc.shapes, key, (uint64_t)(uintptr_t)s); /* room checked above */
    return s;
}

cc_al_action cc_sc_learn_decide(const Sanitizer_LaunchData *d)
{
    cc_sc_plan *p = &cc_sc_plan_cur;
    p->set = 1;
    p->bound = 0;
    p->kernel = NULL;
    p->shape = NULL;
    p->nwords = 0;
    p->nacc = 0;
    tables_ready();
    cc_al_kernel *k = kernel_of(d->function);
    /* NCCL kernels wait for their peers: waiting for one at LAUNCH_END (as an instrumented
     * launch does) can hang a process that drives several GPUs from one thread. */
    if (is_nccl(k, d->functionName)) {
        p->action = CC_AL_INFER;
        return p->action;
    }
    if (cc_sc.mode == CC_SC_MODE_FULL) {
        /* The pointer arguments too: allocations they point into that no access touched get
         * inferred ranges at LAUNCH_END (a truncated list just covers fewer). */
        int truncated = 0;
        if (cc_sc.policy.untouched_inferred &&
            !cc_access_launch_words(d, p->words, CC_AL_MAX_WORDS, &p->nwords, &truncated)) {
            p->nwords = 0;
        }
        p->action = CC_AL_INSTRUMENT;
        return p->action;
    }
    int truncated = 0;
    p->action = CC_AL_INFER;
    if (!cc_access_launch_words(d, p->words, CC_AL_MAX_WORDS, &p->nwords, &truncated) ||
        truncated) {
        p->nwords = 0;
        return p->action; /* arguments unknown (or too many pointers): inferred */
    }
    uint32_t grid[3] = {d->gridDim_x, d->gridDim_y, d->gridDim_z};
    uint32_t block[3] = {d->blockDim_x, d->blockDim_y, d->blockDim_z};
    cc_al_shape *s = k != NULL ? shape_of(cc_al_shape_key((uint64_t)(uintptr_t)d->function,
                                                          grid, block, p->words, p->nwords))
                               : NULL;
    if (k == NULL || s == NULL) {
        cc_sc.no_room++;
    }
    p->action = cc_al_decide(k, s, &cc_sc.policy);
    if (p->action == CC_AL_LEARNED) {
        uint32_t dropped = 0;
        p->nacc = cc_al_apply(s, p->words, p->nwords, p->acc, CC_SC_MAX_ACC, &dropped);
        cc_sc.learned_dropped += dropped;
    }
    p->kernel = k;
    p->shape = s;
    return p->action;
}

void cc_sc_learn_observe(cc_al_kernel *k, cc_al_shape *s, const char *kernel_name,
                         const cc_al_word *words, size_t nwords, const cc_al_range *ranges,
                         size_t nranges, uint64_t outside, uint64_t outside_first)
{
    uint32_t was_fallback = k->fallback;
    uint64_t stray_at = 0;
    if (cc_al_observe(k, s, &cc_sc.policy, words, nwords, ranges, nranges, outside,
                      &stray_at) == CC_AL_OBS_STRAY &&
        k->fallback && !was_fallback) {
        cc_agent_note("streamcheck: kernel %s cannot be learned: it accessed memory outside its "
                      "pointer arguments' allocations (e.g. 0x%llx; %llu accesses in no "
                      "allocation): its later launches get inferred access sets",
                      kernel_name != NULL ? kernel_name : "?",
                      (unsigned long long)(stray_at != 0 ? stray_at : outside_first),
                      (unsigned long long)outside);
    }
}

int cc_sc_after_launch(const cc_event *launch, const cc_al_word **words, size_t *nwords)
{
    cc_sc_plan *p = &cc_sc_plan_cur;
    int full = cc_sc.mode == CC_SC_MODE_FULL;
    *words = p->words;
    *nwords = 0;
    if (!p->set) {
        return full; /* no decision was made (no client): inferred, except in --mode full */
    }
    p->set = 0;
    if (p->action == CC_AL_INSTRUMENT && p->bound) {
        return 1; /* its events come at LAUNCH_END */
    }
    if (p->action != CC_AL_LEARNED) {
        *nwords = p->nwords; /* inferred: from the words the decision scanned */
        return full; /* --mode full uses instrumented sets only: nothing for this launch */
    }
    cc_agent_emit_accesses(launch->u.launch.launch_id, CC_ACCESS_SRC_LEARNED, p->acc, p->nacc);
    return 1;
}
