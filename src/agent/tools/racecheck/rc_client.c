/* racecheck's client of the instrumentation manager (instr_internal.h): its patches (shared,
 * distributed shared and global accesses, block barriers, __syncwarp, cluster barriers,
 * mbarriers: racecheck_patches.cuh), its launch policy (kernel include/exclude, launch
 * skip/count, --mode full: every launch, adaptive: --checks-per-kernel checked launches per
 * (kernel, grid, block)), the cc_rc_launch header (the launch's shared shadow, zeroed on its
 * stream, and the context's global table), and the drain once the launch is done: the hazard
 * records in the slot's pinned memory become CC_EV_DEVICE_RACE events (pcs -> file:line from the
 * module's cubin); global hazards between blocks of a kernel with a fence after the first access
 * are dropped (fences cannot be patched: rc_cubin.h finds them in the kernel's code). The
 * functions here run with cc_instr_g.lock held, but for rc_prepare and rc_fetch. */
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/agent_knobs.h"
#include "agent/instr/instr_internal.h"
#include "agent/tools/launch_policy.h"
#include "agent/tools/racecheck/rc_client.h"
#include "agent/tools/racecheck/rc_cubin.h"

/* The launch's shared shadow at most (bytes); past it only the first blocks are checked. */
#define RC_SHADOW_CAP (256ull << 20)
/* The context's global table: entries (a power of two), 16 bytes each. */
#define RC_GLOBAL_ENTRIES (1u << 20)
/* Shared window bytes shadowed when the launch's dynamic size is unknown. */
#define RC_DYN_SMEM_ALLOWANCE (48u * 1024u)
#define RC_SMEM_RESERVED 1024u /* the system's part of the window (sm_90 and later) */
#define RC_SMEM_MAX (228u * 1024u)

static cc_racecheck_config rc_cfg;

static cc_launch_tables rc_tables; /* the launch policy's (launch_policy.h) */

static struct {
    uint64_t capped_launches;   /* launches whose blocks were not all checked */
    uint64_t fence_dropped;     /* cross-block global hazards ordered by a fence */
    uint64_t strong_dropped;    /* global hazards between two strong accesses */
    uint64_t suppressed;        /* hazards in warps with unmodelled synchronization */
    uint64_t overflow;          /* hazards that found no record */
    uint64_t lost;              /* launches whose records could not be read */
} rc_g;

/* Per context (cc_instr_ctx.client_state). */
typedef struct rc_ctx {
    cc_rc_gentry *gtable;       /* device memory, RC_GLOBAL_ENTRIES entries */
    uint32_t tag;               /* the last launch's tag */
    int clear;                  /* the table must be zeroed before the next launch */
} rc_ctx;

/* Per slot (cc_instr_slot.extra). */
typedef struct rc_slot {
    unsigned char *smem;        /* device memory: the launch's shared shadow */
    size_t smem_cap;            /* bytes */
    size_t smem_used;           /* bytes this launch uses (zeroed in rc_prepare) */
    uint32_t grid[3], block[3];
    uint64_t nblocks_all;
    uint32_t nblocks;           /* checked */
} rc_slot;

/* The slot's host records: what the patches write, then the header's counts (rc_fetch). */
typedef struct rc_host_records {
    cc_rc_record records[CC_RC_MAX_SITES];
    unsigned int counts[CC_RC_MAX_SITES];
    unsigned int overflow, suppressed;
    unsigned int counts_valid;
} rc_host_records;

/* ---- launch policy (launch_policy.h) ---- */

static int rc_may_unpatch(const cc_instr_module *m)
{
    (void)m;
    return cc_launch_policy_may_unpatch(&rc_cfg);
}

static int rc_decide(const Sanitizer_LaunchData *d, cc_instr_module *m, const cc_event *launch)
{
    (void)launch;
    return cc_launch_policy_decide(&rc_tables, &rc_cfg, d, m);
}

/* ---- launch header ---- */

/* The wait of CUCHECK_RC_RECORD=spin[-all][:CYCLES] (4000 cycles by default). */
static uint32_t rc_spin_cycles(const char *v)
{
    const char *colon = v != NULL ? strchr(v, ':') : NULL;
    long n = colon != NULL ? strtol(colon + 1, NULL, 10) : 4000;
    return n > 0 && n < 100000000 ? (uint32_t)n : 4000u;
}

/* CUCHECK_RC_RECORD's values but spin[-all][:CYCLES]: diagnostic aids, each said once. */
static const struct {
    const char *value;
    uint32_t flags;
    const char *what;
} rc_record_modes[] = {
    {"off", CC_RC_FLAG_NO_RECORD,
     "hazards are looked for on the device but none is recorded or reported"},
    {"no-value", CC_RC_FLAG_NO_VALUE,
     "hazards are recorded without reading the bytes a write replaces"},
    {"count-only", CC_RC_FLAG_COUNT_ONLY, "hazards are counted but their sides are not written"},
    {"sys-fence", CC_RC_FLAG_SYS_FENCE, "each record is fenced at system scope"},
    {"full-path", CC_RC_FLAG_FULL_PATH,
     "every shared access takes the full path (no fast path for the common cases)"},
    {"write-cas", CC_RC_FLAG_WRITE_CAS,
     "a global write updates its entry by load and compare-and-swap, not one exchange"},
};

static uint32_t rc_spin; /* cycles of the spin modes, set with the flags */

/* The launch header's record flags from CUCHECK_RC_RECORD (read once; rc_spin set with them). */
static uint32_t rc_record_flags(void)
{
    static int known;
    static uint32_t flags;
    if (known) {
        return flags;
    }
    known = 1;
    const char *v = cc_knob_get(CC_KNOB_RC_RECORD);
    rc_spin = rc_spin_cycles(v);
    if (v == NULL) {
        return flags;
    }
    for (size_t i = 0; i < sizeof rc_record_modes / sizeof rc_record_modes[0]; i++) {
        if (strcmp(v, rc_record_modes[i].value) == 0) {
            flags = rc_record_modes[i].flags;
            cc_agent_report_note("racecheck: CUCHECK_RC_RECORD=%s: %s (a diagnostic aid)", v,
                                 rc_record_modes[i].what);
            return flags;
        }
    }
    if (strncmp(v, "spin", 4) == 0) {
        flags = (strncmp(v, "spin-all", 8) == 0 ? CC_RC_FLAG_SPIN_ALL : CC_RC_FLAG_SPIN) |
                CC_RC_FLAG_NO_RECORD;
        cc_agent_report_note("racecheck: CUCHECK_RC_RECORD=%s: %s costs a wait of %u cycles "
                             "instead of a record (a diagnostic aid)", v,
                             (flags & CC_RC_FLAG_SPIN_ALL) ? "every global access"
                                                           : "a global hazard",
                             rc_spin);
    }
    return flags;
}

/* CUCHECK_RC_SPACES=shared|global: one space's shadow only (a diagnostic aid, said once). */
static uint32_t rc_space_flags(void)
{
    static int known;
    static uint32_t flags = CC_RC_FLAG_SHARED | CC_RC_FLAG_GLOBAL;
    if (!known) {
        const char *v = cc_knob_get(CC_KNOB_RC_SPACES);
        known = 1;
        if (v != NULL && (strcmp(v, "shared") == 0 || strcmp(v, "global") == 0)) {
            flags = v[0] == 's' ? CC_RC_FLAG_SHARED : CC_RC_FLAG_GLOBAL;
            cc_agent_report_note("racecheck: CUCHECK_RC_SPACES=%s: only %s memory is checked (a "
                                 "diagnostic aid)", v, v);
        }
    }
    return flags;
}

/* Bytes of the block's shared window to shadow: up to the end of the kernel's static shared
 * memory (its cubin's .nv.shared.<kernel> section, the system's 1 KiB included from sm_90 on; a
 * kernel without static shared memory: that 1 KiB, which costs older GPUs 2 KiB of shadow per
 * block), then the launch's dynamic shared memory (from the launch call, else an allowance).
 * None for a launch with neither static nor dynamic shared memory (the kernel's code found in
 * its cubin, so that "no static shared memory" is known): it holds nothing of the program's
 * to race on, and the 2 KiB of shadow per block would be zeroed for every checked
 * launch (measured on the H200: 2.7 ms of a vector add's 25 ms, and its shadow cap then left
 * more than half of its blocks unchecked). */
static uint32_t window_bytes(const cc_instr_module *m, const char *kernel)
{
    uint64_t stat = m != NULL ? cc_rc_static_shared(m->cubin, m->cubin_size, kernel) : 0;
    uint64_t dyn = 0;
    if (!cc_rc_launch_dynamic_shared(&dyn)) {
        dyn = RC_DYN_SMEM_ALLOWANCE;
    }
    cc_elf_section code;
    if (stat == 0 && dyn == 0 && m != NULL &&
        cc_rc_cubin_section(m->cubin, m->cubin_size, ".text.", kernel, &code)) {
        return 0;
    }
    uint64_t total = ((stat > 0 ? stat : RC_SMEM_RESERVED) + 15u) / 16u * 16u + dyn;
    return (uint32_t)(total < RC_SMEM_MAX ? total : RC_SMEM_MAX);
}

static int rc_fill(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    rc_ctx *rx = c->client_state;
    if (rx == NULL) {
        rx = calloc(1, sizeof *rx);
        if (rx == NULL) {
            return -1;
        }
        __atomic_store_n(&rx->clear, 1, __ATOMIC_RELEASE);
        c->client_state = rx;
    }
    rc_slot *x = c->slots[slot].extra;
    if (x == NULL) {
        x = calloc(1, sizeof *x);
        if (x == NULL) {
            return -1;
        }
        c->slots[slot].extra = x;
    }
    cc_rc_launch *hdr = out;
    const cc_instr_module *m = cc_instr_module_find(d->module);
    uint32_t words = window_bytes(m, d->functionName) / 4u;
    uint64_t region = CC_RC_WARPS * sizeof(uint32_t) + (uint64_t)words * 8u;
    x->grid[0] = d->gridDim_x, x->grid[1] = d->gridDim_y, x->grid[2] = d->gridDim_z;
    x->block[0] = d->blockDim_x, x->block[1] = d->blockDim_y, x->block[2] = d->blockDim_z;
    x->nblocks_all = (uint64_t)d->gridDim_x * d->gridDim_y * d->gridDim_z;
    uint64_t fit = RC_SHADOW_CAP / region;
    if (fit > (1ull << CC_RC_KEY_BLOCK_BITS)) { /* a global entry names blocks below it */
        fit = 1ull << CC_RC_KEY_BLOCK_BITS;
    }
    x->nblocks = (uint32_t)(x->nblocks_all < fit ? x->nblocks_all : fit);
    x->smem_used = (size_t)(x->nblocks * region);
    if (x->nblocks < x->nblocks_all && rc_g.capped_launches++ == 0) {
        cc_agent_report_note("racecheck: kernel %s: only the first %u of its %llu blocks are "
                             "checked (the shadow of a launch is kept under %llu MiB)",
                             d->functionName != NULL ? d->functionName : "?", x->nblocks,
                             (unsigned long long)x->nblocks_all, RC_SHADOW_CAP >> 20);
    }
    if (++rx->tag > CC_RC_TAG_MAX) { /* tags wrap: old entries could pass for this launch's */
        rx->tag = 1;
        __atomic_store_n(&rx->clear, 1, __ATOMIC_RELEASE);
    }
    hdr->magic = CC_RC_LAUNCH_MAGIC;
    hdr->flags = rc_space_flags() | rc_record_flags();
    hdr->spin_cycles = rc_spin; /* set by rc_record_flags */
    hdr->nblocks = x->nblocks;
    hdr->region_words = words;
    hdr->region_bytes = region;
    hdr->gmask = RC_GLOBAL_ENTRIES - 1u;
    hdr->tag = rx->tag;
    hdr->records = c->slots[slot].host;
    return 0;
}

/* Without the manager's lock: the shadow buffers, zeroed on the launch's stream. */
static int rc_prepare(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    cc_rc_launch *hdr = out;
    rc_ctx *rx = c->client_state;
    rc_slot *x = c->slots[slot].extra;
    cc_rc_gentry *table = __atomic_load_n(&rx->gtable, __ATOMIC_ACQUIRE);
    if (table == NULL) { /* the context's first checked launch; another thread may race us */
        void *p = NULL;
        if (sanitizerAlloc(c->ctx, &p, (size_t)RC_GLOBAL_ENTRIES * sizeof(cc_rc_gentry)) !=
            SANITIZER_SUCCESS) {
            return -1;
        }
        if (__atomic_compare_exchange_n(&rx->gtable, &table, (cc_rc_gentry *)p, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            table = p;
        } else {
            sanitizerFree(c->ctx, p); /* the other thread's table (in `table`) is kept */
        }
    }
    if (__atomic_exchange_n(&rx->clear, 0, __ATOMIC_ACQ_REL) &&
        sanitizerMemset(table, 0, (size_t)RC_GLOBAL_ENTRIES * sizeof(cc_rc_gentry),
                        d->hStream) != SANITIZER_SUCCESS) {
        return -1;
    }
    if (x->smem_cap < x->smem_used || x->smem == NULL) {
        size_t cap = x->smem_used > 4096 ? x->smem_used : 4096;
        void *p = NULL;
        if (sanitizerAlloc(c->ctx, &p, cap) != SANITIZER_SUCCESS) {
            return -1;
        }
        if (x->smem != NULL) {
            sanitizerFree(c->ctx, x->smem); /* the slot's last launch was drained */
        }
        x->smem = p;
        x->smem_cap = cap;
    }
    if (x->smem_used > 0 &&
        sanitizerMemset(x->smem, 0, x->smem_used, d->hStream) != SANITIZER_SUCCESS) {
        return -1;
    }
    hdr->smem = x->smem;
    hdr->gtable = table;
    return 0;
}

/* ---- drain ---- */

/* Without the manager's lock, the launch done: the per-record counts and the header's overflow
 * and suppressed counts into the slot's host records. */
static void rc_fetch(void *dev, void *host, void *extra, Sanitizer_StreamHandle hstream)
{
    (void)extra;
    rc_host_records *r = host;
    cc_rc_launch *hdr = dev;
    r->counts_valid = 0;
    r->counts_valid =
        sanitizerMemcpyDeviceToHost(r->counts, hdr->counts, sizeof r->counts, hstream) ==
            SANITIZER_SUCCESS &&
        sanitizerMemcpyDeviceToHost(&r->overflow, &hdr->overflow, 2 * sizeof(unsigned int),
                                    hstream) == SANITIZER_SUCCESS;
    /* A launch that finds this header later without a binding of its own must not use it. */
    sanitizerMemset(dev, 0, sizeof(uint32_t), hstream);
}

static uint32_t access_flags_of(uint32_t f)
{
    uint32_t out = 0;
    if (f & CC_PATCH_ACCESS_READ) {
        out |= CC_ACCESS_FLAG_READ;
    }
    if (f & CC_PATCH_ACCESS_WRITE) {
        out |= CC_ACCESS_FLAG_WRITE;
    }
    return out;
}

/* A linear id -> x, y, z in dims. */
static void unflatten(uint32_t id, const uint32_t dims[3], uint32_t out[3])
{
    uint32_t dx = dims[0] ? dims[0] : 1, dy = dims[1] ? dims[1] : 1;
    out[0] = id % dx;
    out[1] = (id / dx) % dy;
    out[2] = id / (dx * dy);
}

static void side_of(cc_ev_race_side *s, cc_instr_module *m, const cc_instr_slot *slot,
                    const char *kernel, const rc_slot *x, uint64_t pc, uint32_t block,
                    uint32_t thread, uint32_t size, uint32_t access)
{
    cc_instr_resolve_pc(m, kernel, slot->function_pc, slot->function_size, pc, &s->pc, &s->file,
                        &s->line);
    unflatten(block, x->grid, s->block);
    unflatten(thread, x->block, s->thread);
    s->size = size;
    s->flags = access_flags_of(access);
}

/* 1 if both global accesses are strong at a scope that holds both threads (the GPU's for threads
 * of different blocks): morally strong accesses, not a data race. */
static int both_strong(const cc_instr_module *m, const char *kernel, uint64_t pc1, uint64_t pc2,
                       int cross_block)
{
    cc_rc_order need = cross_block ? CC_RC_ORDER_STRONG_GPU : CC_RC_ORDER_STRONG_BLOCK;
    return cc_rc_access_order(m->cubin, m->cubin_size, kernel, pc1) >= need &&
           cc_rc_access_order(m->cubin, m->cubin_size, kernel, pc2) >= need;
}

static int rc_drain(cc_instr_ctx *c, int slot_index, cc_instr_done *l, cc_instr_module *m,
                    int device_ok)
{
    cc_instr_slot *slot = &c->slots[slot_index];
    rc_host_records *rec = slot->host;
    rc_slot *x = slot->extra;
    const char *kernel = l->function_name != NULL ? l->function_name : "";
    int have_counts = device_ok && rec->counts_valid;
    if (!device_ok && rc_g.lost++ == 0) {
        cc_agent_report_note("racecheck: the hazards of launch #%llu (kernel %s) could not be "
                             "read back (it or a later launch may have faulted)",
                             (unsigned long long)l->launch_id, kernel[0] ? kernel : "?");
    }
    if (have_counts) {
        if (rec->suppressed > 0 && rc_g.suppressed == 0) {
            cc_agent_report_note("racecheck: kernel %s: hazards in warps that passed a named or "
                                 "partial barrier or used an mbarrier are not reported (that "
                                 "ordering is not modelled)", kernel);
        }
        if (rec->overflow > 0 && rc_g.overflow == 0) {
            cc_agent_report_note("racecheck: kernel %s: more than %d distinct pairs of racing "
                                 "instructions in one launch; the rest are not reported",
                                 kernel, CC_RC_MAX_SITES);
        }
        rc_g.overflow += rec->overflow;
        rc_g.suppressed += rec->suppressed;
    }
    uint32_t n = 0;
    for (int i = 0; i < CC_RC_MAX_SITES; i++) {
        cc_rc_record *r = &rec->records[i];
        if (!r->valid || x == NULL) {
            memset(r, 0, sizeof *r);
            continue;
        }
        cc_event ev;
        cc_agent_event_init(&ev, CC_EV_DEVICE_RACE);
        cc_ev_device_race *e = &ev.u.device_race;
        e->launch_id = l->launch_id;
        e->kernel = kernel;
        e->space = r->space;
        e->kind = r->kind;
        e->flags = r->flags & (CC_RACE_FLAG_SAME_VALUE | CC_RACE_FLAG_INTRA_WARP |
                               CC_RACE_FLAG_CLUSTER);
        e->address = r->address;
        side_of(&e->first, m, slot, kernel, x, r->pc[0], r->block[0], r->thread[0], 4u,
                r->access[0]);
        side_of(&e->second, m, slot, kernel, x, r->pc[1], r->block[1], r->thread[1], r->size,
                r->access[1]);
        e->count = have_counts && rec->counts[i] > 0 ? rec->counts[i] : 1u;
        int fenced = (r->flags & CC_RC_REC_CROSS_BLOCK) && m != NULL &&
                     cc_rc_fence_after(m->cubin, m->cubin_size, kernel, e->first.pc) == 1;
        int strong = !fenced && r->space == CC_PATCH_SPACE_GLOBAL && m != NULL &&
                     both_strong(m, kernel, e->first.pc, e->second.pc,
                                 (r->flags & CC_RC_REC_CROSS_BLOCK) != 0);
        memset(r, 0, sizeof *r);
        if (strong) { /* e.g. a flag or a scan's tile status written and polled with them */
            if (rc_g.strong_dropped == 0) {
                cc_agent_note("racecheck: kernel %s: global accesses that are both strong "
                              "(volatile, relaxed, acquire or release) are not taken as races",
                              kernel);
            }
            rc_g.strong_dropped += e->count;
            continue;
        }
        if (fenced) { /* a fence after the first access: taken as a release/acquire pairing */
            if (rc_g.fence_dropped == 0) {
                cc_agent_note("racecheck: kernel %s: global hazards between blocks are taken as "
                              "ordered by the fence that follows the first access", kernel);
            }
            rc_g.fence_dropped += e->count;
            continue;
        }
        cc_agent_emit(&ev);
        n++;
    }
    rec->counts_valid = 0;
    l->errors = n;
    return 0;
}

static void rc_ctx_destroy(cc_instr_ctx *c)
{
    for (size_t i = 0; i < CC_INSTR_SLOTS; i++) {
        free(c->slots[i].extra); /* device memory goes with the context */
        c->slots[i].extra = NULL;
    }
    free(c->client_state);
    c->client_state = NULL;
}

static const cc_instr_client rc_client = {
    .name = "racecheck",
    .patch_stack = 1,
    .classes = {{SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, CC_PATCH_FN_RC_SHARED},
                {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, CC_PATCH_FN_RC_GLOBAL},
                {SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS, CC_PATCH_FN_RC_REMOTE_SHARED},
                {SANITIZER_INSTRUCTION_BARRIER, CC_PATCH_FN_RC_BARRIER},
                {SANITIZER_INSTRUCTION_SYNCWARP_RELEASE, CC_PATCH_FN_RC_SYNCWARP},
                {SANITIZER_INSTRUCTION_CLUSTER_BARRIER_WAIT, CC_PATCH_FN_RC_CLUSTER_WAIT},
                {SANITIZER_INSTRUCTION_CUDA_BARRIER, CC_PATCH_FN_RC_CUDA_BARRIER}},
    .nclasses = 7,
    .dev_bytes = sizeof(cc_rc_launch),
    .host_bytes = sizeof(rc_host_records),
    .deferred_drain = 1,
    .decide = rc_decide,
    .may_unpatch = rc_may_unpatch,
    .fill = rc_fill,
    .prepare = rc_prepare,
    .fetch = rc_fetch,
    .drain = rc_drain,
    .ctx_destroy = rc_ctx_destroy,
};

int cc_rc_config_load(const char *encoded_options, char *err, size_t errlen)
{
    return cc_instr_shared_config_parse(&rc_cfg, encoded_options, err, errlen);
}

/* CUCHECK_RC_PATCH=floor: the same instruction classes patched with functions that return at
 * once and no shadow prepared (a measuring aid: what the patched calls alone cost,
 * bench/racecheck_floor.sh, docs/racecheck.md); =state-floor: the same with the shadow prepared
 * as for a check (what preparing it costs). */
static int rc_prepare_floor(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    (void)c, (void)slot, (void)d;
    cc_rc_launch *hdr = out;
    hdr->flags = 0;
    hdr->smem = NULL;
    hdr->gtable = NULL;
    return 0;
}

/* CUCHECK_RC_PATCH=shadow-floor: the shadow prepared as for a check, the memory accesses
 * patched with functions that exchange each word's shadow slot and check nothing (a measuring
 * aid: the least an exact per-word shadow costs); synchronization patched as racecheck does. */
static const cc_instr_client *rc_shadow_floor_client(void)
{
    static cc_instr_client shadow;
    shadow = rc_client;
    for (size_t i = 0; i < shadow.nclasses; i++) {
        switch (shadow.classes[i].id) {
        case SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS:
        case SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS:
            shadow.classes[i].fn = CC_PATCH_FN_RC_SHADOW_FLOOR_SHARED;
            break;
        case SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS:
            shadow.classes[i].fn = CC_PATCH_FN_RC_SHADOW_FLOOR_GLOBAL;
            break;
        default:
            break;
        }
    }
    cc_agent_note("racecheck: CUCHECK_RC_PATCH=shadow-floor: each word a shared or global access "
                  "touches costs one atomic exchange of its shadow slot; nothing is checked");
    return &shadow;
}

const cc_instr_client *cc_rc_client_init(void)
{
    const char *v = cc_knob_get(CC_KNOB_RC_PATCH);
    if (v != NULL && strcmp(v, "shadow-floor") == 0) {
        return rc_shadow_floor_client();
    }
    if (v != NULL && strcmp(v, "state-floor") == 0) {
        static cc_instr_client state; /* empty patches, the shadow prepared */
        cc_agent_note("racecheck: CUCHECK_RC_PATCH=state-floor: the shadow prepared as for a "
                      "check, the instructions patched with empty functions; nothing is checked");
        return cc_instr_floor_client(&rc_client, NULL, &state);
    }
    if (v != NULL && strcmp(v, "floor") == 0) {
        static cc_instr_client floor; /* racecheck's client with empty patches, no shadow */
        cc_agent_note("racecheck: CUCHECK_RC_PATCH=floor: shared and global accesses and "
                      "synchronization are patched with empty functions; nothing is checked");
        return cc_instr_floor_client(&rc_client, rc_prepare_floor, &floor);
    }
    return &rc_client;
}
