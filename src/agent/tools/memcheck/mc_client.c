/* memcheck's client of the instrumentation manager (instr_internal.h): its patch (global
 * accesses, cc_mc_global_access), its launch policy (kernel include/exclude, launch skip/count,
 * --mode full: every launch, adaptive: --checks-per-kernel checked launches per (kernel, grid,
 * block), a launch repeating a checked one counting as one: mc_repeat.h), the cc_mc_launch
 * header of a checked launch, and the drain once the launch is done (deferred: instr_drain.c
 * says when): the violations in the slot's pinned records become
 * CC_EV_DEVICE_ACCESS_ERROR events (pc -> file:line from the module's cubin). The functions
 * here run with cc_instr_g.lock held, but for mc_prepare and mc_fetch (device calls). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/instr/instr_internal.h"
#include "agent/tools/launch_policy.h"
#include "agent/tools/memcheck/mc_client.h"
#include "agent/tools/memcheck/mc_repeat.h"
#include "agent/tools/memcheck/mc_windows.h"

static cc_memcheck_config cc_mc_cfg; /* memcheck's options (cc_mc_config_load) */
/* The selection cache and the shape counters (launch_policy.h), set up by mc_decide under the
 * manager's lock. */
static cc_launch_tables cc_mc_tables;

/* ---- launch policy ---- */

static int func_selected(CUfunction fn, const char *name)
{
    const cc_memcheck_config *cfg = &cc_mc_cfg;
    if (cfg->kernel_include[0] == '\0' && cfg->kernel_exclude[0] == '\0') {
        return 1;
    }
    int known = cc_launch_func_known(&cc_mc_tables, fn);
    if (known >= 0) {
        return known;
    }
    const char *dem = cc_launch_demangled(name); /* once per function */
    int selected = cc_memcheck_kernel_selected(cfg, name, dem);
    cc_launch_func_remember(&cc_mc_tables, fn, selected);
    return selected;
}

static unsigned cc_mc_heap_modules; /* modules found to use the device heap (adaptive mode) */

/* A module may be unpatched in adaptive mode (or once --launch-count is used up) unless it uses
 * the device heap (or was never looked at for it: no launch of it decided yet). */
static int mc_may_unpatch(const cc_instr_module *m)
{
    int heap = m == NULL || m->heap_user != 0;
    return cc_launch_window_may_unpatch(cc_mc_cfg.full, cc_mc_cfg.launch_count) && !heap;
}

/* Set by mc_decide for the launch this thread decides on: it ran unchecked as a repeat of a
 * checked launch (read by memcheck_plugin.c's on_launch, which flags its event). */
static _Thread_local int mc_repeat_decided;

int cc_mc_launch_was_repeat(void)
{
    int r = mc_repeat_decided;
    mc_repeat_decided = 0;
    return r;
}

static int mc_decide(const Sanitizer_LaunchData *d, cc_instr_module *m, const cc_event *launch)
{
    (void)launch;
    cc_instr_state *g = &cc_instr_g;
    const cc_memcheck_config *cfg = &cc_mc_cfg;
    int want = 0;
    uint64_t *shape = NULL;
    uint64_t digest = 0;
    mc_repeat_decided = 0;
    cc_launch_tables_ready(&cc_mc_tables);
    /* A module that calls device-side malloc/free runs checked on every launch: a heap block
     * its unchecked launches made would be unknown to the heap table later. */
    if (m != NULL && m->heap_user < 0) { /* read once per module */
        m->heap_user = cc_mc_module_needs_every_launch(m->cubin, m->cubin_size);
        if (m->heap_user > 0 && !cfg->full && cc_mc_heap_modules++ == 0) {
            cc_agent_report_note("memcheck: the module of kernel %s calls device-side malloc or "
                                 "free: every launch of its kernels is checked (a heap block an "
                                 "unchecked launch made would be unknown), and so for every such "
                                 "module", d->functionName != NULL ? d->functionName : "?");
        }
    }
    int heap = m != NULL && m->heap_user > 0;
    int windowless = cc_launch_window_none(cfg->launch_skip, cfg->launch_count);
    if (!func_selected(d->function, d->functionName)) {
        cc_decided_mark_steady();
    } else {
        g->selected_launches++;
        int in_window = g->selected_launches > cfg->launch_skip &&
                        (cfg->launch_count == 0 || g->checked_launches < cfg->launch_count);
        if (in_window && (cfg->full || heap)) {
            want = 1;
        } else if (in_window) {
            shape = cc_launch_shape_of(&cc_mc_tables, d);
            want = shape != NULL && cc_mc_shape_count(*shape) < cfg->checks_per_kernel;
            if (shape != NULL && !want && windowless) {
                cc_decided_mark_steady();
            }
            if (want && !cfg->check_repeats) {
                digest = cc_mc_launch_digest(d);
            }
            if (want && cc_mc_shape_repeats(*shape, digest)) {
                *shape = cc_mc_shape_checked(*shape, digest); /* counts as a check */
                shape = NULL;
                want = 0;
                mc_repeat_decided = 1;
            }
        }
    }
    if (!cc_instr_module_want(m, want, m == NULL || mc_may_unpatch(m))) {
        return 0;
    }
    if (shape != NULL) {
        *shape = cc_mc_shape_checked(*shape, digest);
    }
    return 1;
}

/* Without the manager's lock: decide said yes, but the launch runs unchecked (no free slot,
 * captured into a graph, its stack does not fit). If it was its shape's first, the digest it
 * left must not make later launches repeats of a launch that was never checked. */
static void mc_unbound(const Sanitizer_LaunchData *d)
{
    if (cc_mc_cfg.full || cc_mc_cfg.check_repeats) {
        return;
    }
    pthread_mutex_lock(&cc_instr_g.lock);
    uint64_t *shape = cc_launch_shape_of(&cc_mc_tables, d);
    if (shape != NULL) {
        *shape = cc_mc_shape_unchecked(*shape);
        cc_decided_invalidate(); /* another thread may have taken the shape as done */
    }
    pthread_mutex_unlock(&cc_instr_g.lock);
}

/* ---- launch header ---- */

/* The cubin of the launch this thread is binding, from mc_fill to mc_prepare. */
static _Thread_local struct {
    const void *data;
    size_t size;
} mc_cur_cubin;

static int mc_fill(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    cc_mc_launch *hdr = out;
    hdr->magic = CC_MC_LAUNCH_MAGIC;
    hdr->flags = cc_mc_cfg.stop_on_error ? CC_MC_FLAG_STOP : 0;
    const cc_range_table *t = &cc_instr_g.table; /* compacted by the manager */
    hdr->ntable = t->n;
    if (t->n <= CC_MC_INLINE_RANGES) {
        /* The table travels in the header (the rest stays zeroed), and every reader of
         * L->table reads that copy: the context's device table was not uploaded for it. */
        hdr->ninline = (uint32_t)t->n;
        if (t->n > 0) {
            memcpy(hdr->inline_table, t->r, t->n * sizeof(cc_mc_range));
        }
        hdr->table = (const cc_mc_range *)((char *)c->slots[slot].dev +
                                           offsetof(cc_mc_launch, inline_table));
    } else {
        hdr->ninline = CC_MC_INLINE_RANGES + 1;
        hdr->table = c->slots[slot].table_dev; /* staged and uploaded by the manager */
    }
    hdr->sites = c->slots[slot].host;
    /* The windows are filled in mc_prepare, outside the manager's lock (a context's device-heap
     * table is made at its first launch); the module's cubin lives as long as its launches. */
    const cc_instr_module *m = cc_instr_module_find(d->module);
    mc_cur_cubin.data = m != NULL ? m->cubin : NULL;
    mc_cur_cubin.size = m != NULL ? m->cubin_size : 0;
    return 0;
}

static int mc_prepare(cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *out)
{
    (void)c;
    (void)slot;
    cc_mc_launch_fill_windows(out, d, mc_cur_cubin.data, mc_cur_cubin.size);
    return 0;
}

/* ---- drain ---- */

/* The sample to show for a site: the lowest block, then the lowest thread. */
static const cc_mc_sample *first_sample(const cc_mc_site *s, uint32_t *nvalid)
{
    const cc_mc_sample *best = NULL;
    *nvalid = 0;
    for (int i = 0; i < CC_MC_SAMPLES; i++) {
        if (!s->sample_valid[i]) {
            continue;
        }
        (*nvalid)++;
        const cc_mc_sample *x = &s->samples[i];
        if (best == NULL ||
            x->block[2] < best->block[2] ||
            (x->block[2] == best->block[2] && (x->block[1] < best->block[1] ||
            (x->block[1] == best->block[1] && (x->block[0] < best->block[0] ||
            (x->block[0] == best->block[0] && (x->thread[2] < best->thread[2] ||
            (x->thread[2] == best->thread[2] && (x->thread[1] < best->thread[1] ||
            (x->thread[1] == best->thread[1] && x->thread[0] < best->thread[0])))))))))) {
            best = x;
        }
    }
    return best;
}

static uint32_t access_flags_of(uint16_t f)
{
    uint32_t out = 0;
    if (f & CC_PATCH_ACCESS_READ) {
        out |= CC_ACCESS_FLAG_READ;
    }
    if (f & CC_PATCH_ACCESS_WRITE) {
        out |= CC_ACCESS_FLAG_WRITE;
    }
    if ((f & CC_PATCH_ACCESS_READ) && (f & CC_PATCH_ACCESS_WRITE)) {
        out |= CC_ACCESS_FLAG_ATOMIC;
    }
    return out;
}

/* The slot's host records: the sites the patches write, then a copy of the header's per-site
 * thread counts (mc_fetch). */
typedef struct mc_host_records {
    cc_mc_site sites[CC_MC_MAX_SITES];
    unsigned int counts[CC_MC_MAX_SITES];
    unsigned int counts_valid;
} mc_host_records;

/* Without the manager's lock, the launch done: the counts, when there is a site to count. */
static void mc_fetch(void *dev, void *host, void *extra, Sanitizer_StreamHandle hstream)
{
    (void)extra;
    mc_host_records *r = host;
    cc_mc_launch *hdr = dev;
    r->counts_valid = 0;
    for (int i = 0; i < CC_MC_MAX_SITES; i++) {
        if (r->sites[i].valid) {
            r->counts_valid = sanitizerMemcpyDeviceToHost(r->counts, hdr->counts, sizeof r->counts,
                                                          hstream) == SANITIZER_SUCCESS;
            return;
        }
    }
}

/* Read the slot's sites, emit their events, clear them. Stop (1) after a violation with
 * --on-error stop. */
static int mc_drain(cc_instr_ctx *c, int slot_index, cc_instr_done *l, cc_instr_module *m,
                    int device_ok)
{
    cc_instr_slot *slot = &c->slots[slot_index];
    mc_host_records *rec = slot->host;
    cc_mc_site *sites = rec->sites;
    int nsites = 0;
    const unsigned int *counts = rec->counts;
    int have_counts = device_ok && rec->counts_valid;
    for (int i = 0; i < CC_MC_MAX_SITES; i++) {
        cc_mc_site *s = &sites[i];
        if (!s->valid) {
            continue;
        }
        uint32_t nvalid = 0;
        const cc_mc_sample *x = first_sample(s, &nvalid);
        if (x != NULL) {
            cc_event ev;
            cc_agent_event_init(&ev, CC_EV_DEVICE_ACCESS_ERROR);
            cc_ev_device_access_error *e = &ev.u.device_access_error;
            e->launch_id = l->launch_id;
            e->kernel = l->function_name != NULL ? l->function_name : "";
            cc_instr_resolve_pc(m, e->kernel, c->slots[slot_index].function_pc,
                                c->slots[slot_index].function_size, s->pc, &e->pc, &e->file,
                                &e->line);
            memcpy(e->block, x->block, sizeof e->block);
            memcpy(e->thread, x->thread, sizeof e->thread);
            e->address = x->address;
            e->size = x->size;
            e->flags = access_flags_of(x->flags);
            e->space = x->space;
            e->violation = s->violation;
            e->count = have_counts && counts[i] >= nvalid ? counts[i] : nvalid;
            cc_agent_emit(&ev);
            nsites++;
        }
        memset(s, 0, sizeof *s);
    }
    rec->counts_valid = 0;
    l->errors = (uint32_t)nsites;
    return nsites > 0 && cc_mc_cfg.stop_on_error;
}

static void mc_ctx_destroy(cc_instr_ctx *c)
{
    cc_mc_heap_on_context_destroy(c->ctx);
}

static void mc_module_unloading(CUmodule module)
{
    cc_mc_windows_on_module_unload(module);
}

static cc_instr_client cc_mc_client = {
    .name = "memcheck",
    .nclasses = 0, /* filled from cc_mc_patch_classes() by cc_mc_client_init */
    .dev_bytes = sizeof(cc_mc_launch),
    .host_bytes = sizeof(mc_host_records),
    .header_ranges = CC_MC_INLINE_RANGES,
    .deferred_drain = 1, /* not with --on-error stop (cc_mc_client_init) */
    .decide = mc_decide,
    .may_unpatch = mc_may_unpatch,
    .fill = mc_fill,
    .prepare = mc_prepare,
    .unbound = mc_unbound,
    .fetch = mc_fetch,
    .drain = mc_drain,
    .ctx_init = NULL,
    .ctx_destroy = mc_ctx_destroy,
    .module_unloading = mc_module_unloading,
};

int cc_mc_config_load(const char *encoded_options, char *err, size_t errlen)
{
    return cc_memcheck_config_parse(&cc_mc_cfg, encoded_options, err, errlen);
}

const cc_instr_client *cc_mc_client_init(void)
{
    const cc_mc_patch_class *classes = NULL;
    size_t n = cc_mc_patch_classes(&classes);
    cc_mc_client.nclasses = 0;
    cc_mc_client.deferred_drain = !cc_mc_cfg.stop_on_error; /* stop right after the launch */
    for (size_t i = 0; i < n && i < CC_INSTR_MAX_CLASSES; i++) {
        cc_mc_client.classes[i].id = classes[i].id;
        cc_mc_client.classes[i].fn = classes[i].fn;
        cc_mc_client.nclasses++;
    }
    return &cc_mc_client;
}
