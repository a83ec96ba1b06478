/* synccheck's client of the instrumentation manager (instr_internal.h): its patches (block
 * barriers, warp syncs before and after their release, shuffles, thread exits:
 * synccheck_patches.cuh), its launch policy (kernel include/exclude, launch skip/count, --mode
 * full: every launch, adaptive: --checks-per-kernel checked launches per (kernel, grid, block)),
 * the cc_sy_launch header (per-block regions, zeroed on the launch's stream only where the
 * slot's last launch did not leave them zero: each block clears its own at its last exit), and
 * the drain once the launch is done: the misuse records in the slot's pinned memory become
 * CC_EV_DEVICE_SYNC_ERROR events (pcs -> file:line from the module's cubin); a warp sync whose
 * misuse a shuffle right after it took over is reported once, as the shuffle's. The functions
 * here run with cc_instr_g.lock held, but for sy_prepare and sy_fetch. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/agent_knobs.h"
#include "agent/instr/instr_internal.h"
#include "agent/tools/launch_policy.h"
#include "agent/tools/synccheck/sy_client.h"
#include "symbols/cubin.h"

/* A launch's block regions at most (bytes); past it only the first blocks are checked. */
#define SY_REGIONS_CAP (256ull << 20)

static cc_synccheck_config sy_cfg;

static cc_launch_tables sy_tables; /* the launch policy's (launch_policy.h) */
static cc_launch_tables sy_sync_tables; /* funcs: CUfunction -> holds synchronization (1/0) */

static struct {
    uint64_t capped_launches;   /* launches whose blocks were not all checked */
    uint64_t unmodelled;        /* named or partial barriers passed */
    uint64_t overflow;          /* misuses that found no record */
    uint64_t lost;              /* launches whose records could not be read */
    int nosync_noted;           /* a kernel without synchronization was said */
} sy_g;

/* Per slot (cc_instr_slot.extra). */
typedef struct sy_slot {
    cc_sy_block *blocks;        /* device memory: the launch's regions */
    size_t cap;                 /* bytes */
    size_t used;                /* bytes this launch uses (zero before it: sy_prepare) */
    size_t zeroed;              /* bytes from the start known to be zero */
    uint32_t grid[3], block[3];
    uint64_t nblocks_all;
    uint32_t nblocks;           /* checked */
} sy_slot;

_Static_assert(offsetof(cc_sy_launch, unmodelled) == offsetof(cc_sy_launch, overflow) + 4 &&
                   offsetof(cc_sy_launch, cleaned) == offsetof(cc_sy_launch, overflow) + 8,
               "sy_fetch copies the header's overflow, unmodelled and cleaned at once");

/* The slot's host records: what the patches write, then the header's counts (sy_fetch). */
typedef struct sy_host_records {
    cc_sy_record records[CC_SY_MAX_SITES];
    unsigned int counts[CC_SY_MAX_SITES];
    unsigned int overflow, unmodelled, cleaned; /* as in the header, in its order */
    unsigned int counts_valid;
} sy_host_records;

/* ---- launch policy (launch_policy.h) ---- */

/* 0 when the kernel's cubin says it holds no block barrier (EIATTR_NUM_BARRIERS) and no
 * warp-synchronous instruction (EIATTR_COOP_GROUP_INSTR_OFFSETS: shuffles, votes, warp syncs;
 * both cover the functions it calls): nothing synccheck looks at can happen in it. 1 otherwise,
 * and when the cubin or the kernel cannot be read. Cached per function. */
static int sy_kernel_syncs(const Sanitizer_LaunchData *d, const cc_instr_module *m)
{
    cc_launch_tables_ready(&sy_sync_tables);
    int known = cc_launch_func_known(&sy_sync_tables, d->function);
    if (known >= 0) {
        return known;
    }
    int syncs = 1;
    cc_kernel_info k;
    char err[128];
    if (m != NULL && m->cubin != NULL && d->functionName != NULL &&
        cc_cubin_kernel(m->cubin, m->cubin_size, d->functionName, &k, err, sizeof err) == 1) {
        syncs = k.barriers != 0 || k.warp_sync_ops;
    }
    cc_launch_func_remember(&sy_sync_tables, d->function, syncs);
    if (!syncs && !sy_g.nosync_noted++) {
        cc_agent_report_note("synccheck: kernel %s holds no barrier, warp sync or shuffle (its "
                             "cubin says so): its launches, and those of every such kernel, are "
                             "not checked, as nothing synccheck looks for can happen in them",
                             d->functionName);
    }
    return syncs;
}

static int sy_may_unpatch(const cc_instr_module *m)
{
    (void)m;
    return cc_launch_policy_may_unpatch(&sy_cfg);
}

static int sy_decide(const Sanitizer_LaunchData *d, cc_instr_module *m, const cc_event *launch)
{
    (void)launch;
    if (!sy_kernel_syncs(d, m)) {
        /* Like a kernel the include/exclude globs leave out: its module may be unpatched. */
        cc_decided_mark_steady();
        (void)cc_instr_module_want(m, 0, !sy_cfg.full);
        return 0;
    }
    return cc_launch_policy_decide(&sy_tables, &sy_cfg, d, m);
}

/* ---- launch header ---- */

static int sy_fill(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    sy_slot *x = c->slots[slot].extra;
    if (x == NULL) {
        x = calloc(1, sizeof *x);
        if (x == NULL) {
            return -1;
        }
        c->slots[slot].extra = x;
    }
    cc_sy_launch *hdr = out;
    x->grid[0] = d->gridDim_x, x->grid[1] = d->gridDim_y, x->grid[2] = d->gridDim_z;
    x->block[0] = d->blockDim_x, x->block[1] = d->blockDim_y, x->block[2] = d->blockDim_z;
    x->nblocks_all = (uint64_t)d->gridDim_x * d->gridDim_y * d->gridDim_z;
    uint64_t threads = (uint64_t)d->blockDim_x * d->blockDim_y * d->blockDim_z;
    uint32_t warps = (uint32_t)((threads + 31) / 32);
    uint32_t region = CC_SY_REGION_BYTES(warps > 0 && warps <= CC_SY_WARPS ? warps : CC_SY_WARPS);
    uint64_t fit = SY_REGIONS_CAP / region;
    x->nblocks = (uint32_t)(x->nblocks_all < fit ? x->nblocks_all : fit);
    x->used = (size_t)x->nblocks * region;
    if (x->nblocks < x->nblocks_all && sy_g.capped_launches++ == 0) {
        cc_agent_report_note("synccheck: kernel %s: only the first %u of its %llu blocks are "
                             "checked (a launch's block state is kept under %llu MiB)",
                             d->functionName != NULL ? d->functionName : "?", x->nblocks,
                             (unsigned long long)x->nblocks_all, SY_REGIONS_CAP >> 20);
    }
    hdr->magic = CC_SY_LAUNCH_MAGIC;
    hdr->nblocks = x->nblocks;
    hdr->region_bytes = region;
    hdr->records = c->slots[slot].host;
    return 0;
}

/* Without the manager's lock: the block regions, zero before the launch: the bytes past what
 * the slot's earlier launches left zero are zeroed on the launch's stream (all of a new buffer;
 * none after a launch whose blocks all cleared their regions). */
static int sy_prepare(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    cc_sy_launch *hdr = out;
    sy_slot *x = c->slots[slot].extra;
    if (x->cap < x->used || x->blocks == NULL) {
        size_t cap = x->used > 4096 ? x->used : 4096;
        void *p = NULL;
        if (sanitizerAlloc(c->ctx, &p, cap) != SANITIZER_SUCCESS) {
            return -1;
        }
        if (x->blocks != NULL) {
            sanitizerFree(c->ctx, x->blocks); /* the slot's last launch was drained */
        }
        x->blocks = p;
        x->cap = cap;
        x->zeroed = 0;
    }
    if (x->used > x->zeroed) {
        if (sanitizerMemset((char *)x->blocks + x->zeroed, 0, x->used - x->zeroed,
                            d->hStream) != SANITIZER_SUCCESS) {
            x->zeroed = 0;
            return -1;
        }
        x->zeroed = x->used;
    }
    hdr->blocks = x->blocks;
    return 0;
}

/* ---- drain ---- */

/* Without the manager's lock, the launch done: the per-record counts and the header's overflow
 * and unmodelled counts into the slot's host records. */
static void sy_fetch(void *dev, void *host, void *extra, Sanitizer_StreamHandle hstream)
{
    (void)extra;
    sy_host_records *r = host;
    cc_sy_launch *hdr = dev;
    r->counts_valid = 0;
    r->counts_valid =
        sanitizerMemcpyDeviceToHost(r->counts, hdr->counts, sizeof r->counts, hstream) ==
            SANITIZER_SUCCESS &&
        sanitizerMemcpyDeviceToHost(&r->overflow, &hdr->overflow, 3 * sizeof(unsigned int),
                                    hstream) == SANITIZER_SUCCESS;
    /* A launch that finds this header later without a binding of its own must not use it. */
    sanitizerMemset(dev, 0, sizeof(uint32_t), hstream);
}

/* A linear id -> x, y, z in dims. */
static void unflatten(uint32_t id, const uint32_t dims[3], uint32_t out[3])
{
    uint32_t dx = dims[0] ? dims[0] : 1, dy = dims[1] ? dims[1] : 1;
    out[0] = id % dx;
    out[1] = (id / dx) % dy;
    out[2] = id / (dx * dy);
}

/* 1 if record i is a warp sync's misuse that the shuffle right after it took over (reported
 * once, as the shuffle's: the shuffle's implicit warp sync). */
static int taken_by_shuffle(const sy_host_records *rec, int i)
{
    const cc_sy_record *r = &rec->records[i];
    if (r->kind != CC_SY_SYNCWARP_MASK) {
        return 0;
    }
    for (int j = 0; j < CC_SY_MAX_SITES; j++) {
        const cc_sy_record *s = &rec->records[j];
        if (s->valid && s->kind == CC_SY_SHFL_MASK && !(s->flags & CC_SY_F_MASK_UNKNOWN) &&
            s->block == r->block && s->pc > r->pc &&
            s->pc - r->pc <= 16u * CC_SY_SHFL_WINDOW) {
            return 1;
        }
    }
    return 0;
}

static void emit_record(cc_instr_module *m, const cc_instr_slot *slot, const sy_slot *x,
                        const char *kernel, uint64_t launch_id, const cc_sy_record *r,
                        uint64_t count)
{
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_DEVICE_SYNC_ERROR);
    cc_ev_device_sync_error *e = &ev.u.device_sync_error;
    e->launch_id = launch_id;
    e->kernel = kernel;
    e->kind = r->kind;
    e->flags = r->flags;
    cc_instr_resolve_pc(m, kernel, slot->function_pc, slot->function_size, r->pc, &e->pc,
                        &e->file, &e->line);
    e->other_file = "";
    if (r->kind == CC_SY_BLOCK_DIVERGENT) {
        cc_instr_resolve_pc(m, kernel, slot->function_pc, slot->function_size, r->other_pc,
                            &e->other_pc, &e->other_file, &e->other_line);
        unflatten(r->other_thread, x->block, e->other_thread);
    }
    unflatten(r->block, x->grid, e->block);
    unflatten(r->thread, x->block, e->thread);
    e->mask = r->mask;
    e->lanes = r->lanes;
    e->exited = r->exited;
    e->count = count;
    cc_agent_emit(&ev);
}

static int sy_drain(cc_instr_ctx *c, int slot_index, cc_instr_done *l, cc_instr_module *m,
                    int device_ok)
{
    cc_instr_slot *slot = &c->slots[slot_index];
    sy_host_records *rec = slot->host;
    sy_slot *x = slot->extra;
    const char *kernel = l->function_name != NULL ? l->function_name : "";
    int have_counts = device_ok && rec->counts_valid;
    if (x != NULL && !(have_counts && rec->cleaned == x->nblocks)) {
        x->zeroed = 0; /* a region may be left dirty: zero them all before the next launch */
    }
    if (!device_ok && sy_g.lost++ == 0) {
        cc_agent_report_note("synccheck: the results of launch #%llu (kernel %s) could not be "
                             "read back (it or a later launch may have faulted)",
                             (unsigned long long)l->launch_id, kernel[0] ? kernel : "?");
    }
    if (have_counts) {
        if (rec->unmodelled > 0 && sy_g.unmodelled == 0) {
            cc_agent_report_note("synccheck: kernel %s: named or partial barriers (bar.sync with "
                                 "an id or a thread count) are not checked", kernel);
        }
        if (rec->overflow > 0 && sy_g.overflow == 0) {
            cc_agent_report_note("synccheck: kernel %s: more than %d distinct misuses in one "
                                 "launch; the rest are not reported", kernel, CC_SY_MAX_SITES);
        }
        sy_g.overflow += rec->overflow;
        sy_g.unmodelled += rec->unmodelled;
    }
    uint32_t n = 0;
    for (int i = 0; i < CC_SY_MAX_SITES; i++) {
        const cc_sy_record *r = &rec->records[i];
        if (r->valid && x != NULL && !taken_by_shuffle(rec, i)) {
            emit_record(m, slot, x, kernel, l->launch_id, r,
                        have_counts && rec->counts[i] > 0 ? rec->counts[i] : 1u);
            n++;
        }
    }
    memset(rec->records, 0, sizeof rec->records);
    rec->counts_valid = 0;
    l->errors = n;
    return 0;
}

static void sy_ctx_destroy(cc_instr_ctx *c)
{
    for (size_t i = 0; i < CC_INSTR_SLOTS; i++) {
        free(c->slots[i].extra); /* device memory goes with the context */
        c->slots[i].extra = NULL;
    }
}

static const cc_instr_client sy_client = {
    .name = "synccheck",
    .classes = {{SANITIZER_INSTRUCTION_BARRIER, CC_PATCH_FN_SY_BARRIER},
                {SANITIZER_INSTRUCTION_SYNCWARP, CC_PATCH_FN_SY_SYNCWARP},
                {SANITIZER_INSTRUCTION_SYNCWARP_RELEASE, CC_PATCH_FN_SY_SYNCWARP_RELEASE},
                {SANITIZER_INSTRUCTION_SHFL, CC_PATCH_FN_SY_SHFL},
                {SANITIZER_INSTRUCTION_BLOCK_EXIT, CC_PATCH_FN_SY_BLOCK_EXIT}},
    .nclasses = 5,
    .dev_bytes = sizeof(cc_sy_launch),
    .host_bytes = sizeof(sy_host_records),
    .deferred_drain = 1,
    .decide = sy_decide,
    .may_unpatch = sy_may_unpatch,
    .fill = sy_fill,
    .prepare = sy_prepare,
    .fetch = sy_fetch,
    .drain = sy_drain,
    .ctx_destroy = sy_ctx_destroy,
};

int cc_sy_config_load(const char *encoded_options, char *err, size_t errlen)
{
    return cc_instr_shared_config_parse(&sy_cfg, encoded_options, err, errlen);
}

/* CUCHECK_SY_PATCH=floor: the same instruction classes patched with functions that return at
 * once and no block state prepared (a measuring aid: what the patched calls alone cost,
 * bench/synccheck_floor.sh, docs/synccheck.md); =state-floor: the same with the block regions
 * zeroed before every launch (empty patches never clear them): what a memset of the regions
 * costs, which a check pays only on a slot's first launches. */
static int sy_prepare_floor(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    (void)c, (void)slot, (void)d;
    cc_sy_launch *hdr = out;
    hdr->nblocks = 0;
    hdr->blocks = NULL;
    return 0;
}

const cc_instr_client *cc_sy_client_init(void)
{
    const char *v = cc_knob_get(CC_KNOB_SY_PATCH);
    if (v != NULL && strcmp(v, "state-floor") == 0) {
        static cc_instr_client state; /* empty patches, the block regions prepared */
        cc_agent_note("synccheck: CUCHECK_SY_PATCH=state-floor: the block regions prepared as "
                      "for a check, the instructions patched with empty functions; nothing is "
                      "checked");
        return cc_instr_floor_client(&sy_client, NULL, &state);
    }
    if (v != NULL && strcmp(v, "floor") == 0) {
        static cc_instr_client floor; /* synccheck's client with empty patches, no state */
        cc_agent_note("synccheck: CUCHECK_SY_PATCH=floor: barriers, warp syncs, shuffles and "
                      "thread exits are patched with empty functions; nothing is checked");
        return cc_instr_floor_client(&sy_client, sy_prepare_floor, &floor);
    }
    return &sy_client;
}
