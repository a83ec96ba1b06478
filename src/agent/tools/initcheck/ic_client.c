/* initcheck's client of the instrumentation manager (instr_internal.h): its patch (global
 * accesses: initcheck_patches.cuh), its launch policy (kernel include/exclude, launch
 * skip/count, --mode full: every launch, adaptive: --checks-per-kernel checked launches per
 * (kernel, grid, block)), the cc_ic_launch header (the context's uninitialised ranges from the
 * agent-side model, ic_model.h, uploaded with a zeroed write bitmap on the launch's stream), and
 * the drain at the launch call's exit (deferred_drain 0: what the launch wrote must be known
 * before the program's next call is seen): the read records become CC_EV_DEVICE_UNINIT_READ
 * events (pcs -> file:line from the module's cubin), the set bits of the ranges written
 * CC_EV_INIT_WRITE ranges, and every range the bitmap did not cover (past its cap, or a launch
 * whose results could not be read) an INIT_WRITE flagged assumed: never a false report later.
 * The functions here run with cc_instr_g.lock held, but for ic_prepare and ic_fetch. */
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/agent_knobs.h"
#include "agent/instr/instr_internal.h"
#include "agent/tools/launch_policy.h"
#include "agent/tools/initcheck/ic_client.h"
#include "agent/tools/initcheck/ic_model.h"
#include "core/grow.h"

#define IC_BITMAP_CAP (64ull << 20) /* bytes of write bitmap per launch at most (512 MiB of
                                     * uninitialised memory checked) */
#define IC_RANGES_CAP (1u << 20)    /* uninitialised ranges per launch at most */

static cc_initcheck_config ic_cfg;
static cc_launch_tables ic_tables; /* the launch policy's (launch_policy.h) */
static int ic_floor;               /* CUCHECK_IC_PATCH=floor */

static struct {
    uint64_t capped_launches;   /* launches whose ranges were not all covered */
    uint64_t overflow;          /* reads that found no record */
    uint64_t lost;              /* launches whose results could not be read */
} ic_g;

/* Per slot (cc_instr_slot.extra). */
typedef struct ic_slot {
    cc_init_range *ranges;      /* the context's uninitialised ranges at the launch */
    size_t nranges, ranges_cap;
    size_t ncovered;            /* the first ncovered are in the device table */
    uint64_t nwords;            /* bitmap words */
    cc_ic_range *stage;         /* pinned: the table uploaded, then read back */
    size_t stage_cap;           /* entries */
    cc_ic_range *dev_ranges;    /* device */
    size_t dev_ranges_cap;
    uint32_t *dev_bits;         /* device */
    uint64_t dev_bits_cap;      /* words */
    uint32_t *host_bits;        /* the dirty ranges' bits read back */
    uint64_t host_bits_cap;     /* words */
    int fetched;                /* ic_fetch read the table and bits back */
} ic_slot;

/* The slot's host records: what the patches write, then the header's counts (ic_fetch). */
typedef struct ic_host_records {
    cc_ic_record records[CC_IC_MAX_SITES];
    unsigned int counts[CC_IC_MAX_SITES];
    unsigned int overflow;
    unsigned int counts_valid;
} ic_host_records;

/* ---- launch policy (launch_policy.h) ---- */

static int ic_may_unpatch(const cc_instr_module *m)
{
    (void)m;
    return cc_launch_policy_may_unpatch(&ic_cfg.instr);
}

static int ic_decide(const Sanitizer_LaunchData *d, cc_instr_module *m, const cc_event *launch)
{
    (void)launch;
    return cc_launch_policy_decide(&ic_tables, &ic_cfg.instr, d, m);
}

/* ---- launch header ---- */

static int ic_fill(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    ic_slot *x = c->slots[slot].extra;
    if (x == NULL) {
        x = calloc(1, sizeof *x);
        if (x == NULL) {
            return -1;
        }
        c->slots[slot].extra = x;
    }
    uint64_t ctx = cc_agent_handle_id(d->context);
    size_t n = cc_ic_model_uninit(ctx, NULL, 0);
    if (CC_ARRAY_RESERVE(x->ranges, x->ranges_cap, n + 1) != 0) {
        return -1;
    }
    n = cc_ic_model_uninit(ctx, x->ranges, x->ranges_cap);
    x->nranges = n < x->ranges_cap ? n : x->ranges_cap; /* another thread may have added some */
    x->ncovered = 0;
    x->nwords = 0;
    x->fetched = 0;
    while (!ic_floor && x->ncovered < x->nranges && x->ncovered < IC_RANGES_CAP) {
        const cc_init_range *r = &x->ranges[x->ncovered];
        uint64_t words = (r->hi - r->lo + 31) / 32;
        if ((x->nwords + words) * 4 > IC_BITMAP_CAP) {
            break;
        }
        x->nwords += words;
        x->ncovered++;
    }
    if (x->ncovered < x->nranges && !ic_floor && ic_g.capped_launches++ == 0) {
        cc_agent_report_note("initcheck: kernel %s: only %zu of the %zu uninitialized ranges "
                             "(%llu MiB of write bitmap) are checked in a launch; the others "
                             "are taken as written by it",
                             d->functionName != NULL ? d->functionName : "?", x->ncovered,
                             x->nranges, IC_BITMAP_CAP >> 20);
    }
    cc_ic_launch *hdr = out;
    hdr->magic = CC_IC_LAUNCH_MAGIC;
    hdr->nranges = x->ncovered;
    hdr->lo = x->ncovered > 0 ? x->ranges[0].lo : 0;
    hdr->hi = x->ncovered > 0 ? x->ranges[x->ncovered - 1].hi : 0;
    hdr->records = c->slots[slot].host;
    return 0;
}

/* Grow *p (device memory of *cap elements of size each) to hold n. 0 ok. */
static int dev_reserve(CUcontext ctx, void **p, uint64_t *cap, uint64_t n, size_t size)
{
    if (*p != NULL && *cap >= n) {
        return 0;
    }
    uint64_t want = n > 1024 ? n : 1024;
    void *q = NULL;
    if (sanitizerAlloc(ctx, &q, want * size) != SANITIZER_SUCCESS) {
        return -1;
    }
    if (*p != NULL) {
        sanitizerFree(ctx, *p); /* the slot's last launch was drained */
    }
    *p = q;
    *cap = want;
    return 0;
}

/* Without the manager's lock: the table uploaded and the bitmap zeroed on the launch's stream. */
static int ic_prepare(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    cc_ic_launch *hdr = out;
    ic_slot *x = c->slots[slot].extra;
    if (x->ncovered == 0) {
        return 0;
    }
    uint64_t rcap = x->dev_ranges_cap;
    if (dev_reserve(c->ctx, (void **)&x->dev_ranges, &rcap, x->ncovered, sizeof(cc_ic_range)) ||
        dev_reserve(c->ctx, (void **)&x->dev_bits, &x->dev_bits_cap, x->nwords, 4)) {
        return -1;
    }
    x->dev_ranges_cap = (size_t)rcap;
    if (x->stage == NULL || x->stage_cap < x->ncovered) {
        size_t want = x->ncovered > 1024 ? x->ncovered : 1024;
        void *p = NULL;
        if (sanitizerAllocHost(c->ctx, &p, want * sizeof(cc_ic_range)) != SANITIZER_SUCCESS) {
            return -1;
        }
        if (x->stage != NULL) {
            sanitizerFreeHost(c->ctx, x->stage);
        }
        x->stage = p;
        x->stage_cap = want;
    }
    uint64_t bit = 0;
    for (size_t i = 0; i < x->ncovered; i++) {
        x->stage[i] = (cc_ic_range){x->ranges[i].lo, x->ranges[i].hi, bit, 0, 0};
        bit += (x->ranges[i].hi - x->ranges[i].lo + 31) / 32 * 32;
    }
    if (sanitizerMemcpyHostToDeviceAsync(x->dev_ranges, x->stage,
                                         x->ncovered * sizeof(cc_ic_range),
                                         d->hStream) != SANITIZER_SUCCESS ||
        sanitizerMemset(x->dev_bits, 0, x->nwords * 4, d->hStream) != SANITIZER_SUCCESS) {
        return -1;
    }
    hdr->ranges = x->dev_ranges;
    hdr->bits = x->dev_bits;
    return 0;
}

/* ---- drain ---- */

/* Without the manager's lock, the launch done: the record counts, the table's dirty flags and
 * the dirty ranges' bits into host memory. */
static void ic_fetch(void *dev, void *host, void *extra, Sanitizer_StreamHandle hstream)
{
    ic_host_records *r = host;
    cc_ic_launch *hdr = dev;
    ic_slot *x = extra;
    r->counts_valid =
        sanitizerMemcpyDeviceToHost(r->counts, hdr->counts, sizeof r->counts, hstream) ==
            SANITIZER_SUCCESS &&
        sanitizerMemcpyDeviceToHost(&r->overflow, &hdr->overflow, sizeof r->overflow,
                                    hstream) == SANITIZER_SUCCESS;
    /* A launch that finds this header later without a binding of its own must not use it. */
    sanitizerMemset(dev, 0, sizeof(uint32_t), hstream);
    if (x == NULL || x->ncovered == 0) {
        return;
    }
    if (sanitizerMemcpyDeviceToHost(x->stage, x->dev_ranges, x->ncovered * sizeof(cc_ic_range),
                                    hstream) != SANITIZER_SUCCESS) {
        return;
    }
    if (x->host_bits_cap < x->nwords) {
        uint32_t *p = realloc(x->host_bits, x->nwords * 4);
        if (p == NULL) {
            return;
        }
        x->host_bits = p;
        x->host_bits_cap = x->nwords;
    }
    for (size_t i = 0; i < x->ncovered; i++) {
        const cc_ic_range *e = &x->stage[i];
        uint64_t words = (e->hi - e->lo + 31) / 32;
        if (e->dirty &&
            sanitizerMemcpyDeviceToHost(x->host_bits + e->bit / 32, x->dev_bits + e->bit / 32,
                                        words * 4, hstream) != SANITIZER_SUCCESS) {
            return;
        }
    }
    x->fetched = 1;
}

static void emit_write(uint64_t launch_id, uint64_t lo, uint64_t hi, uint32_t flags)
{
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_INIT_WRITE);
    ev.u.init_write.launch_id = launch_id;
    ev.u.init_write.address = lo;
    ev.u.init_write.size = hi - lo;
    ev.u.init_write.flags = flags;
    cc_agent_emit(&ev);
}

/* The runs of set bits of one dirty range as INIT_WRITE ranges. */
static void emit_runs(uint64_t launch_id, const cc_ic_range *e, const uint32_t *bits)
{
    uint64_t n = e->hi - e->lo, run = UINT64_MAX;
    for (uint64_t b = 0; b < n; b++) {
        uint64_t k = e->bit + b;
        if (b % 32 == 0 && run == UINT64_MAX && bits[k / 32] == 0 && n - b >= 32) {
            b += 31; /* a word with no write */
            continue;
        }
        int set = (bits[k / 32] >> (k % 32)) & 1u;
        if (set && run == UINT64_MAX) {
            run = b;
        } else if (!set && run != UINT64_MAX) {
            emit_write(launch_id, e->lo + run, e->lo + b, 0);
            run = UINT64_MAX;
        }
    }
    if (run != UINT64_MAX) {
        emit_write(launch_id, e->lo + run, e->hi, 0);
    }
}

static int ic_drain(cc_instr_ctx *c, int slot_index, cc_instr_done *l, cc_instr_module *m,
                    int device_ok)
{
    cc_instr_slot *slot = &c->slots[slot_index];
    ic_host_records *rec = slot->host;
    ic_slot *x = slot->extra;
    const char *kernel = l->function_name != NULL ? l->function_name : "";
    if (!device_ok && ic_g.lost++ == 0) {
        cc_agent_report_note("initcheck: the results of launch #%llu (kernel %s) could not be "
                             "read back (it or a later launch may have faulted); its "
                             "uninitialized ranges are taken as written",
                             (unsigned long long)l->launch_id, kernel[0] ? kernel : "?");
    }
    int have_counts = device_ok && rec->counts_valid;
    if (have_counts && rec->overflow > 0 && ic_g.overflow == 0) {
        cc_agent_report_note("initcheck: kernel %s: more than %d distinct uninitialized reads "
                             "in one launch; the rest are not reported", kernel,
                             CC_IC_MAX_SITES);
    }
    if (have_counts) {
        ic_g.overflow += rec->overflow;
    }
    uint32_t n = 0;
    for (int i = 0; i < CC_IC_MAX_SITES; i++) {
        const cc_ic_record *r = &rec->records[i];
        if (!r->valid) {
            continue;
        }
        cc_event ev;
        cc_agent_event_init(&ev, CC_EV_DEVICE_UNINIT_READ);
        cc_ev_device_uninit_read *e = &ev.u.device_uninit_read;
        e->launch_id = l->launch_id;
        e->kernel = kernel;
        e->space = CC_PATCH_SPACE_GLOBAL;
        e->size = r->size;
        cc_instr_resolve_pc(m, kernel, slot->function_pc, slot->function_size, r->pc, &e->pc,
                            &e->file, &e->line);
        memcpy(e->block, r->block, sizeof e->block);
        memcpy(e->thread, r->thread, sizeof e->thread);
        e->address = r->address;
        e->first = r->first;
        e->count = have_counts && rec->counts[i] > 0 ? rec->counts[i] : 1u;
        cc_agent_emit(&ev);
        n++;
    }
    memset(rec->records, 0, sizeof rec->records);
    rec->counts_valid = 0;
    if (x != NULL) {
        int read = device_ok && x->fetched;
        for (size_t i = 0; i < x->nranges; i++) {
            if (i >= x->ncovered || !read) {
                emit_write(l->launch_id, x->ranges[i].lo, x->ranges[i].hi,
                           CC_INIT_WRITE_ASSUMED);
            } else if (x->stage[i].dirty) {
                emit_runs(l->launch_id, &x->stage[i], x->host_bits);
            }
        }
        x->fetched = 0;
    }
    l->errors = n;
    return 0;
}

static void ic_ctx_destroy(cc_instr_ctx *c)
{
    for (size_t i = 0; i < CC_INSTR_SLOTS; i++) {
        ic_slot *x = c->slots[i].extra;
        if (x != NULL) { /* device and pinned memory go with the context */
            free(x->ranges);
            free(x->host_bits);
            free(x);
        }
        c->slots[i].extra = NULL;
    }
}

static const cc_instr_client ic_client = {
    .name = "initcheck",
    .classes = {{SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, CC_PATCH_FN_IC_GLOBAL}},
    .nclasses = 1,
    .dev_bytes = sizeof(cc_ic_launch),
    .host_bytes = sizeof(ic_host_records),
    .deferred_drain = 0,
    .decide = ic_decide,
    .may_unpatch = ic_may_unpatch,
    .fill = ic_fill,
    .prepare = ic_prepare,
    .fetch = ic_fetch,
    .drain = ic_drain,
    .ctx_destroy = ic_ctx_destroy,
};

int cc_ic_config_load(const char *encoded_options, char *err, size_t errlen)
{
    return cc_initcheck_config_parse(&ic_cfg, encoded_options, err, errlen);
}

/* CUCHECK_IC_PATCH=floor: global accesses patched with memcheck's empty function, no ranges
 * uploaded (every uninitialised range is taken as written by the launch): a measuring aid,
 * bench/initcheck_floor.sh. */
const cc_instr_client *cc_ic_client_init(void)
{
    const char *v = cc_knob_get(CC_KNOB_IC_PATCH);
    if (v != NULL && strcmp(v, "floor") == 0) {
        static cc_instr_client floor;
        ic_floor = 1;
        cc_agent_note("initcheck: CUCHECK_IC_PATCH=floor: global accesses are patched with an "
                      "empty function; nothing is checked");
        return cc_instr_floor_client(&ic_client, NULL, &floor);
    }
    return &ic_client;
}
