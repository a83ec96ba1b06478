/* Instrumentation manager, entry points (instr.h): activation for memcheck, the allocation and
 * module callbacks, and per launch: at LAUNCH_BEGIN the policy decides, the table is brought up
 * to date and a slot is bound with sanitizerSetLaunchCallbackData; at LAUNCH_END the agent
 * waits for the launch (sanitizerStreamSynchronize), reads the violations from the slot's pinned
 * records (readable even when the kernel faulted), emits one CC_EV_DEVICE_ACCESS_ERROR per
 * site, and frees the slot. With --on-error stop the program ends after such a launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent.h"
#include "instr.h"
#include "instr_internal.h"
#include "core/agent_env.h"

typedef struct cc_instr_current {
    int set;
    Sanitizer_LaunchHandle launch;
    CUcontext ctx;
    CUmodule module;
    int slot;
    uint64_t launch_id;
} cc_instr_current;

static _Thread_local cc_instr_current cc_cur;

void cc_instr_init(void)
{
    cc_instr_state *g = &cc_instr_g;
    if (strcmp(cc_agent_g.tool, "memcheck") != 0 || !cc_agent_g.subscribed) {
        return;
    }
    const char *file = getenv(CC_ENV_PATCHES);
    if (!cc_agent_patches_embedded() && (file == NULL || file[0] == '\0')) {
        fprintf(stderr, "cucheck: memcheck: this agent was built without device patches; "
                        "only host-side checks run\n");
        return;
    }
    char err[256];
    if (cc_memcheck_config_parse(&g->cfg, getenv(CC_ENV_OPTIONS), err, sizeof err) != 0) {
        fprintf(stderr, "cucheck: memcheck: %s; device checks are off\n", err);
        return;
    }
    g->active = 1;
    if (sanitizerEnableCallback(1, cc_agent_g.subscriber, SANITIZER_CB_DOMAIN_LAUNCH,
                                SANITIZER_CBID_LAUNCH_END) != SANITIZER_SUCCESS) {
        fprintf(stderr, "cucheck: memcheck: cannot enable launch-end callbacks; device checks "
                        "are off\n");
        g->active = 0;
    }
}

void cc_instr_on_resource(Sanitizer_CallbackId cbid, const void *data)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active) {
        return;
    }
    pthread_mutex_lock(&g->lock);
    switch (cbid) {
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC:
    case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC: {
        const Sanitizer_ResourceMemoryData *d = data;
        cc_instr_table_add(d->address, d->size, 0);
        break;
    }
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE:
    case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC:
        cc_instr_table_remove(((const Sanitizer_ResourceMemoryData *)data)->address);
        break;
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RESERVE: {
        /* Mapped pieces of a reserved range are not reported one by one: the range counts. */
        const Sanitizer_ResourceVirtualRange *d = data;
        cc_instr_table_add(d->address, d->size, 1);
        break;
    }
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RELEASE:
        cc_instr_table_remove(((const Sanitizer_ResourceVirtualRange *)data)->address);
        break;
    case SANITIZER_CBID_RESOURCE_MODULE_LOADED:
        cc_instr_module_loaded(data);
        break;
    case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
        cc_instr_module_unloading(((const Sanitizer_ResourceModuleData *)data)->module);
        break;
    case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
        cc_instr_ctx_destroy(((const Sanitizer_ResourceContextData *)data)->context);
        break;
    default:
        break;
    }
    pthread_mutex_unlock(&g->lock);
}

void cc_instr_on_launch_begin(const Sanitizer_LaunchData *d, cc_event *ev)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active) {
        return;
    }
    pthread_mutex_lock(&g->lock);
    cc_instr_module *m = cc_instr_module_find(d->module);
    int check = cc_instr_should_check(d, m);
    cc_instr_ctx *c = check ? cc_instr_ctx_get(d->context) : NULL;
    int slot = -1;
    if (c != NULL && cc_instr_ctx_sync_table(c, d->hStream) == 0) {
        slot = cc_instr_slot_take(c);
        if (slot < 0) {
            g->no_slot++;
        }
    }
    if (slot >= 0) {
        cc_mc_launch hdr;
        memset(&hdr, 0, sizeof hdr);
        hdr.magic = CC_MC_LAUNCH_MAGIC;
        hdr.flags = g->cfg.stop_on_error ? CC_MC_FLAG_STOP : 0;
        hdr.ntable = g->ntable;
        hdr.table = c->dev_table;
        hdr.sites = c->slots[slot].sites;
        if (sanitizerMemcpyHostToDeviceAsync(c->slots[slot].dev, &hdr, sizeof hdr, d->hStream) ==
                SANITIZER_SUCCESS &&
            sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream,
                                           c->slots[slot].dev) == SANITIZER_SUCCESS) {
            g->inflight++;
            g->checked_launches++;
            cc_cur.set = 1;
            cc_cur.launch = d->hLaunch;
            cc_cur.ctx = d->context;
            cc_cur.module = d->module;
            cc_cur.slot = slot;
            cc_cur.launch_id = ev->u.launch.launch_id;
            ev->u.launch.flags |= CC_LAUNCH_FLAG_INSTRUMENTED;
        } else {
            c->slots[slot].busy = 0;
            slot = -1;
        }
    }
    if (slot < 0 && m != NULL && m->patched) {
        sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream, NULL);
    }
    pthread_mutex_unlock(&g->lock);
}

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

/* Read the slot's sites, emit their events, clear them. Returns the number of sites. */
static int drain_slot(cc_instr_slot *slot, const Sanitizer_LaunchData *d, cc_instr_module *m,
                      int device_ok)
{
    int nsites = 0;
    unsigned int counts[CC_MC_MAX_SITES];
    int have_counts = 0;
    for (int i = 0; i < CC_MC_MAX_SITES; i++) {
        cc_mc_site *s = &slot->sites[i];
        if (!s->valid) {
            continue;
        }
        if (!have_counts && device_ok) {
            have_counts = sanitizerMemcpyDeviceToHost(counts, slot->dev->counts, sizeof counts,
                                                      d->hStream) == SANITIZER_SUCCESS;
        }
        uint32_t nvalid = 0;
        const cc_mc_sample *x = first_sample(s, &nvalid);
        if (x != NULL) {
            cc_event ev;
            cc_agent_event_init(&ev, CC_EV_DEVICE_ACCESS_ERROR);
            cc_ev_device_access_error *e = &ev.u.device_access_error;
            e->launch_id = cc_cur.launch_id;
            e->kernel = d->functionName != NULL ? d->functionName : "";
            cc_instr_resolve_pc(m, e->kernel, s->pc, &e->pc, &e->file, &e->line);
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
    return nsites;
}

void cc_instr_on_launch_end(Sanitizer_CallbackId cbid, const void *data)
{
    cc_instr_state *g = &cc_instr_g;
    if (!g->active || cbid != SANITIZER_CBID_LAUNCH_END || !cc_cur.set) {
        return;
    }
    const Sanitizer_LaunchData *d = data;
    if (d->hLaunch != cc_cur.launch) {
        return;
    }
    cc_cur.set = 0;
    /* The launch's results are complete once its stream is idle; a kernel that faulted still
     * left its records in pinned host memory. */
    int device_ok = sanitizerStreamSynchronize(d->hStream) == SANITIZER_SUCCESS;
    pthread_mutex_lock(&g->lock);
    cc_instr_ctx *c = cc_instr_ctx_get(cc_cur.ctx);
    cc_instr_module *m = cc_instr_module_find(cc_cur.module);
    int nsites = 0;
    if (c != NULL) {
        nsites = drain_slot(&c->slots[cc_cur.slot], d, m, device_ok);
        c->slots[cc_cur.slot].busy = 0;
    }
    g->inflight--;
    cc_instr_free_graveyard();
    int stop = nsites > 0 && g->cfg.stop_on_error;
    pthread_mutex_unlock(&g->lock);
    if (stop) {
        fprintf(stderr, "cucheck: memcheck stops the program after an invalid access in launch "
                        "#%llu (--on-error stop)\n", (unsigned long long)cc_cur.launch_id);
        cc_agent_close_outputs(CC_EXIT_FAST, 1);
        _exit(1);
    }
}
