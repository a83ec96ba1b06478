/* The profile store: keeps, from the event stream, what the statistics and the trace need —
 * kernels, copies/memsets, API calls, NVTX ranges, synchronisations, device limits, the clock
 * pair and the process identity — in growable arrays, with every string interned once. */
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/profile/profile.h"

void cc_prof_data_init(cc_prof_data *d)
{
    memset(d, 0, sizeof *d);
    cc_prof_intern(d, ""); /* id 0 */
}

void cc_prof_data_free(cc_prof_data *d)
{
    free(d->kernels);
    free(d->copies);
    free(d->apis);
    free(d->ranges);
    free(d->syncs);
    free(d->devices);
    for (size_t i = 0; i < d->nstrs; i++) free(d->strs[i]);
    free(d->strs);
    cc_hashmap_free(&d->by_text);
    memset(d, 0, sizeof *d);
}

uint32_t cc_prof_intern(cc_prof_data *d, const char *s)
{
    if (!s) s = "";
    uint64_t h = cc_hash_str(s);
    size_t cursor = 0;
    for (const uint64_t *id; (id = cc_hashmap_find_next(&d->by_text, h, &cursor)) != NULL;)
        if (strcmp(d->strs[*id], s) == 0) return (uint32_t)*id;
    char *copy = strdup(s);
    if (!copy || CC_ARRAY_RESERVE(d->strs, d->capstrs, d->nstrs + 1) != 0 ||
        cc_hashmap_add(&d->by_text, h, d->nstrs) != 0) {
        free(copy);
        d->oom = 1;
        return 0;
    }
    d->strs[d->nstrs] = copy;
    return (uint32_t)d->nstrs++;
}

const char *cc_prof_str(const cc_prof_data *d, uint32_t id)
{
    return id < d->nstrs ? d->strs[id] : "";
}

static cc_prof_device *device_slot(cc_prof_data *d, int32_t ordinal)
{
    for (size_t i = 0; i < d->ndevices; i++)
        if (d->devices[i].ordinal == ordinal) return &d->devices[i];
    cc_prof_device *dev = CC_ARRAY_PUSH(d->devices, d->ndevices, d->capdevices);
    if (!dev) {
        d->oom = 1;
        return NULL;
    }
    memset(dev, 0, sizeof *dev);
    dev->ordinal = ordinal;
    return dev;
}

const cc_prof_device *cc_prof_find_device(const cc_prof_data *d, int32_t ordinal)
{
    for (size_t i = 0; i < d->ndevices; i++)
        if (d->devices[i].ordinal == ordinal) return &d->devices[i];
    return NULL;
}

static void add_kernel(cc_prof_data *d, const cc_ev_kernel_activity *k)
{
    cc_prof_kernel *r = CC_ARRAY_PUSH(d->kernels, d->nkernels, d->capkernels);
    if (!r) {
        d->oom = 1;
        return;
    }
    memset(r, 0, sizeof *r);
    r->start = k->start;
    r->end = k->end >= k->start ? k->end : k->start;
    r->context = k->context;
    r->stream = k->stream;
    r->corr = k->correlation;
    r->graph = k->graph;
    r->device = k->device;
    r->name = cc_prof_intern(d, k->name);
    memcpy(r->grid, k->grid, sizeof r->grid);
    memcpy(r->block, k->block, sizeof r->block);
    memcpy(r->cluster, k->cluster, sizeof r->cluster);
    r->regs = k->registers;
    r->static_smem = k->static_smem;
    r->dynamic_smem = k->dynamic_smem;
    r->local_mem = k->local_mem;
    r->smem_config = k->smem_config;
}

static void add_copy(cc_prof_data *d, const cc_ev_copy_activity *c)
{
    cc_prof_copy *r = CC_ARRAY_PUSH(d->copies, d->ncopies, d->capcopies);
    if (!r) {
        d->oom = 1;
        return;
    }
    memset(r, 0, sizeof *r);
    r->start = c->start;
    r->end = c->end >= c->start ? c->end : c->start;
    r->context = c->context;
    r->stream = c->stream;
    r->corr = c->correlation;
    r->bytes = c->bytes;
    r->graph = c->graph;
    r->device = c->device;
    r->op = c->op;
    r->direction = c->direction;
    r->src_kind = c->src_kind;
    r->dst_kind = c->dst_kind;
}

static void add_api(cc_prof_data *d, uint32_t tid, const cc_ev_api_call *a)
{
    cc_prof_api *r = CC_ARRAY_PUSH(d->apis, d->napis, d->capapis);
    if (!r) {
        d->oom = 1;
        return;
    }
    memset(r, 0, sizeof *r);
    r->start = a->start;
    r->end = a->end >= a->start ? a->end : a->start;
    r->corr = a->correlation;
    r->tid = tid;
    r->api = a->api;
    r->function = cc_prof_intern(d, a->function);
    r->result = a->result;
}

static void add_range(cc_prof_data *d, uint32_t tid, const cc_ev_nvtx_range *n)
{
    cc_prof_range *r = CC_ARRAY_PUSH(d->ranges, d->nranges, d->capranges);
    if (!r) {
        d->oom = 1;
        return;
    }
    r->start = n->start;
    r->end = n->end >= n->start ? n->end : n->start;
    r->id = n->id;
    r->tid = tid;
    r->name = cc_prof_intern(d, n->name);
    r->domain = cc_prof_intern(d, n->domain);
}

static void add_sync(cc_prof_data *d, const cc_ev_sync_activity *s)
{
    cc_prof_sync *r = CC_ARRAY_PUSH(d->syncs, d->nsyncs, d->capsyncs);
    if (!r) {
        d->oom = 1;
        return;
    }
    r->start = s->start;
    r->end = s->end >= s->start ? s->end : s->start;
    r->context = s->context;
    r->stream = s->stream;
    r->event = s->event;
    r->corr = s->correlation;
    r->type = s->type;
}

void cc_prof_data_add(cc_prof_data *d, const cc_event *ev)
{
    if (d->first_ts == 0 && ev->h.timestamp != 0) d->first_ts = ev->h.timestamp;
    if (ev->h.timestamp > d->last_ts) d->last_ts = ev->h.timestamp;
    switch (ev->h.kind) {
    case CC_EV_PROCESS_START:
        d->pid = ev->u.process_start.pid;
        d->program = cc_prof_intern(d, ev->u.process_start.argv0);
        break;
    case CC_EV_DEVICE: {
        cc_prof_device *dev = device_slot(d, ev->u.device.ordinal);
        if (!dev) break;
        if (!dev->name) dev->name = cc_prof_intern(d, ev->u.device.name);
        if (!dev->has_limits) {
            dev->cc_major = ev->u.device.cc_major;
            dev->cc_minor = ev->u.device.cc_minor;
            dev->sm_count = ev->u.device.sm_count;
        }
        break;
    }
    case CC_EV_DEVICE_LIMITS: {
        cc_prof_device *dev = device_slot(d, ev->u.device_limits.ordinal);
        if (!dev) break;
        dev->has_limits = 1;
        dev->lim = ev->u.device_limits;
        dev->lim.name = NULL;
        dev->name = cc_prof_intern(d, ev->u.device_limits.name);
        dev->cc_major = ev->u.device_limits.cc_major;
        dev->cc_minor = ev->u.device_limits.cc_minor;
        dev->sm_count = ev->u.device_limits.sm_count;
        break;
    }
    case CC_EV_KERNEL_ACTIVITY: add_kernel(d, &ev->u.kernel_activity); break;
    case CC_EV_COPY_ACTIVITY: add_copy(d, &ev->u.copy_activity); break;
    case CC_EV_API_CALL: add_api(d, ev->h.tid, &ev->u.api_call); break;
    case CC_EV_NVTX_RANGE: add_range(d, ev->h.tid, &ev->u.nvtx_range); break;
    case CC_EV_SYNC_ACTIVITY: add_sync(d, &ev->u.sync_activity); break;
    case CC_EV_CLOCK_SYNC:
        if (!d->has_clock) {
            d->has_clock = 1;
            d->clock = ev->u.clock_sync;
            d->clock.host = NULL;
            d->host = cc_prof_intern(d, ev->u.clock_sync.host);
        }
        break;
    case CC_EV_ACTIVITY_LOST: d->dropped += ev->u.activity_lost.dropped; break;
    default: break;
    }
}

uint64_t cc_prof_wall_of(const cc_prof_data *d, uint64_t mono)
{
    if (!d->has_clock) return 0;
    return (uint64_t)((int64_t)d->clock.wall_ns + ((int64_t)mono - (int64_t)d->clock.mono_ns));
}

static int cmp_api_tid_start(const void *a, const void *b)
{
    const cc_prof_api *x = a, *y = b;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    /* the longer (outer) call first */
    if (x->end != y->end) return x->end > y->end ? -1 : 1;
    return (int)x->api - (int)y->api;
}

void cc_prof_mark_nested(cc_prof_data *d)
{
    if (d->napis > 1) /* with none, apis is NULL, which qsort must not be given */
        qsort(d->apis, d->napis, sizeof *d->apis, cmp_api_tid_start);
    uint32_t tid = 0;
    uint64_t runtime_end = 0;
    int have = 0;
    for (size_t i = 0; i < d->napis; i++) {
        cc_prof_api *a = &d->apis[i];
        if (!have || a->tid != tid) {
            tid = a->tid;
            runtime_end = 0;
            have = 1;
        }
        a->nested = 0;
        if (a->api == CC_API_DRIVER && runtime_end > 0 && a->end <= runtime_end)
            a->nested = 1;
        if (a->api == CC_API_RUNTIME && a->end > runtime_end) runtime_end = a->end;
    }
}
