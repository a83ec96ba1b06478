/* streamcheck's client of the instrumentation manager (instr_internal.h, sc_agent.h): the
 * cc_sc_global_access patch; the launch policy (--mode full: every launch; default: as
 * sc_learn.c decides, with modules unpatched once their kernels are learned); the cc_sc_launch
 * header, whose per-allocation accumulators (device memory, one per table entry, zeroed on the
 * launch's stream) grow with the allocation table; and the drain at LAUNCH_END: the accumulators
 * are read back, each accessed allocation becomes CC_ACCESS_SRC_INSTRUMENTED events of the
 * launch (its exact read and written byte ranges), and in the default mode the launch teaches
 * its kernel's shape. The functions here run with cc_instr_g.lock held, but for sc_prepare and
 * sc_fetch, which make the device calls (allocations, clearing, reading back) without it. */
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "core/grow.h"
#include "agent/instr/instr_internal.h"
#include "agent/tools/streamcheck/sc_agent.h"

/* One slot's own state (cc_instr_slot.extra). */
typedef struct sc_slot {
    cc_sc_range_acc *dev_acc;       /* device accumulators, acc_cap entries */
    size_t acc_cap;
    cc_mc_range *snap;              /* the table the launch ran with (host copy) */
    cc_sc_range_acc *host_acc;      /* accumulators read back */
    cc_al_range *ranges;            /* accessed allocations */
    size_t snap_cap, host_acc_cap, ranges_cap, nsnap;
    cc_al_kernel *kernel;           /* default mode: what the launch teaches; NULL: nothing */
    cc_al_shape *shape;
    size_t nwords;
    cc_al_word words[CC_AL_MAX_WORDS];
    cc_sc_launch hdr;               /* the header read back (sc_fetch) */
    int fetched;                    /* hdr and host_acc hold the launch's results */
} sc_slot;

static uint64_t cc_sc_lost; /* instrumented launches whose ranges could not be read back */

/* Entries of a slot's device accumulators for a table of n ranges. */
static size_t grow_to(size_t n)
{
    size_t cap = 256;
    while (cap < n) {
        cap *= 2;
    }
    return cap;
}

/* (locked) The slot's host-side state for a table of n ranges (no device call). */
static sc_slot *slot_state(cc_instr_ctx *c, int i, size_t n)
{
    sc_slot *x = c->slots[i].extra;
    if (x == NULL) {
        x = calloc(1, sizeof *x);
        if (x == NULL) {
            return NULL;
        }
        c->slots[i].extra = x;
    }
    size_t need = n > 0 ? n : 1; /* the arrays exist even for an empty table */
    if (CC_ARRAY_RESERVE(x->snap, x->snap_cap, need) ||
        CC_ARRAY_RESERVE(x->host_acc, x->host_acc_cap, need) ||
        CC_ARRAY_RESERVE(x->ranges, x->ranges_cap, need)) {
        return NULL;
    }
    return x;
}

/* (unlocked, the slot this launch's) Device accumulators for the slot's snapshot, cleared on the
 * launch's stream. 0 ok. */
static int slot_device(cc_instr_ctx *c, sc_slot *x, Sanitizer_StreamHandle stream)
{
    size_t n = x->nsnap;
    if (x->acc_cap < n || x->dev_acc == NULL) {
        size_t cap = grow_to(n);
        void *p = NULL;
        if (sanitizerAlloc(c->ctx, &p, cap * sizeof(cc_sc_range_acc)) != SANITIZER_SUCCESS) {
            return -1;
        }
        if (x->dev_acc != NULL) {
            sanitizerFree(c->ctx, x->dev_acc); /* the slot's last launch was drained */
        }
        x->dev_acc = p;
        x->acc_cap = cap;
    }
    if (n > 0 && sanitizerMemset(x->dev_acc, 0, n * sizeof(cc_sc_range_acc), stream) !=
                     SANITIZER_SUCCESS) {
        return -1;
    }
    return 0;
}

static int sc_may_unpatch(const cc_instr_module *m)
{
    (void)m;
    return cc_sc_mode_get() != CC_SC_MODE_FULL;
}

static int sc_decide(const Sanitizer_LaunchData *d, cc_instr_module *m, const cc_event *launch)
{
    (void)launch;
    cc_al_action a = cc_sc_learn_decide(d);
    return cc_instr_module_want(m, a == CC_AL_INSTRUMENT, sc_may_unpatch(m));
}

static int sc_fill(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    cc_instr_state *g = &cc_instr_g;
    size_t n = g->table.n; /* compacted by the manager */
    sc_slot *x = slot_state(c, slot, n);
    if (x == NULL) {
        return -1;
    }
    (void)d;
    if (n > 0) {
        memcpy(x->snap, g->table.r, n * sizeof *x->snap);
    }
    x->nsnap = n;
    const cc_sc_plan *p = &cc_sc_plan_cur;
    x->kernel = p->set ? p->kernel : NULL;
    x->shape = p->set ? p->shape : NULL;
    x->nwords = p->set ? p->nwords : 0;
    memcpy(x->words, p->words, x->nwords * sizeof x->words[0]);
    cc_sc_launch *hdr = out;
    hdr->magic = CC_SC_LAUNCH_MAGIC;
    hdr->ntable = n;
    hdr->table = c->slots[slot].table_dev; /* staged and uploaded by the manager */
    return 0;
}

static int sc_prepare(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    sc_slot *x = c->slots[slot].extra;
    if (slot_device(c, x, d->hStream) != 0) {
        return -1;
    }
    ((cc_sc_launch *)out)->acc = x->dev_acc;
    x->fetched = 0;
    cc_sc_plan_cur.bound = 1;
    return 0;
}

static void sc_unbound(const Sanitizer_LaunchData *d)
{
    (void)d;
    cc_sc_plan_cur.bound = 0; /* runs uninstrumented: inferred (default mode) or nothing (full) */
}


/* Without the manager's lock, the launch done: its header and accumulators into the slot's host
 * state, and the header's magic cleared (a launch that finds this header later with no binding
 * of its own must not add to it). */
static void sc_fetch(void *dev, void *host, void *extra, Sanitizer_StreamHandle hstream)
{
    (void)host;
    sc_slot *x = extra;
    if (x == NULL) {
        return;
    }
    x->fetched =
        sanitizerMemcpyDeviceToHost(&x->hdr, dev, sizeof x->hdr, hstream) == SANITIZER_SUCCESS &&
        (x->nsnap == 0 ||
         sanitizerMemcpyDeviceToHost(x->host_acc, x->dev_acc, x->nsnap * sizeof(cc_sc_range_acc),
                                     hstream) == SANITIZER_SUCCESS);
    sanitizerMemset(dev, 0, sizeof(uint32_t), hstream);
}

static int sc_drain(cc_instr_ctx *c, int slot, cc_instr_done *l, cc_instr_module *m,
                    int device_ok)
{
    (void)m;
    uint64_t launch_id = l->launch_id;
    sc_slot *x = c->slots[slot].extra;
    if (x == NULL) {
        return 0;
    }
    if (!device_ok || !x->fetched) {
        if (cc_sc_lost++ == 0) {
            cc_agent_note("streamcheck: cannot read the access ranges of launch #%llu back "
                          "(the kernel may have faulted); it has no access set",
                          (unsigned long long)launch_id);
        }
        x->shape = NULL;
        return 0;
    }
    size_t nr = 0, nacc = 0;
    cc_al_access acc[64]; /* handed over in batches, under one lock each */
    for (size_t i = 0; i < x->nsnap; i++) {
        const cc_sc_range_acc *a = &x->host_acc[i];
        if ((a->read_lo_inv | a->read_end | a->write_lo_inv | a->write_end) == 0) {
            continue;
        }
        cc_al_range *r = &x->ranges[nr++];
        r->base = x->snap[i].base;
        r->end = x->snap[i].end;
        r->read_lo = ~a->read_lo_inv; /* none read: ~0 >= 0 = read_end, an empty range */
        r->read_end = a->read_end;
        r->write_lo = ~a->write_lo_inv;
        r->write_end = a->write_end;
        if (nacc + 2 > sizeof acc / sizeof acc[0]) {
            cc_agent_emit_accesses(launch_id, CC_ACCESS_SRC_INSTRUMENTED, acc, nacc);
            nacc = 0;
        }
        nacc += cc_al_range_accesses(r, &acc[nacc]);
    }
    cc_agent_emit_accesses(launch_id, CC_ACCESS_SRC_INSTRUMENTED, acc, nacc);
    if (cc_sc_untouched_inferred()) { /* what TMA may have reached unseen: inferred */
        cc_al_access un[CC_AL_MAX_WORDS]; /* read, write, untouched */
        size_t nu = cc_al_untouched(x->words, x->nwords, x->ranges, nr, un, CC_AL_MAX_WORDS);
        cc_agent_emit_accesses(launch_id, CC_ACCESS_SRC_INFERRED, un, nu);
    }
    if (x->kernel != NULL && x->shape != NULL) {
        cc_sc_learn_observe(x->kernel, x->shape, l->function_name, x->words, x->nwords, x->ranges,
                            nr, x->hdr.outside, x->hdr.outside_first);
    }
    x->shape = NULL;
    return 0;
}

static void sc_ctx_destroy(cc_instr_ctx *c)
{
    for (size_t i = 0; i < CC_INSTR_SLOTS; i++) {
        sc_slot *x = c->slots[i].extra;
        if (x != NULL) { /* device memory goes with the context */
            free(x->snap);
            free(x->host_acc);
            free(x->ranges);
            free(x);
            c->slots[i].extra = NULL;
        }
    }
}

static const cc_instr_client cc_sc_client = {
    .name = "streamcheck",
    .classes = {{SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, CC_PATCH_FN_SC_GLOBAL}},
    .nclasses = 1,
    .dev_bytes = sizeof(cc_sc_launch),
    .host_bytes = 0,
    .decide = sc_decide,
    .may_unpatch = sc_may_unpatch,
    .fill = sc_fill,
    .prepare = sc_prepare,
    .unbound = sc_unbound,
    .end_dynamic = 1, /* an unbound launch gets an inferred set; its shape is asked again */
    .fetch = sc_fetch,
    .drain = sc_drain,
    .ctx_init = NULL,
    .ctx_destroy = sc_ctx_destroy,
};

const cc_instr_client *cc_sc_client_init(uint32_t mode)
{
    cc_sc_learn_init(mode);
    return &cc_sc_client;
}
