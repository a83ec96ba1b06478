/* CUPTI activity buffers and their records: hands CUPTI 8 MiB buffers, and when one comes back
 * full (or flushed) turns each record into a cucheck event — kernels, copies (memcpy, peer
 * copies, memsets), runtime/driver API calls, synchronisations, devices and NVTX ranges (START
 * and END markers paired by id, across buffers) — and reports records CUPTI had to drop, GPU
 * records without timestamps and buffers it could not read to the end. */
#include "agent/backends/cupti/cupti_backend.h"

#ifdef CC_HAVE_CUPTI_HEADERS
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "agent/backends/cupti/cupti_bridge.h"
#include "core/hashmap.h"

#define CC_CUPTI_BUFFER_SIZE (8u << 20)
#define CC_CUPTI_NAME_SLOTS 2048u

long long cc_cupti_ts_offset;

static uint64_t ts(uint64_t t) { return (uint64_t)((long long)t - cc_cupti_ts_offset); }

void CUPTIAPI cc_cupti_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    void *p = NULL;
    if (posix_memalign(&p, 8, CC_CUPTI_BUFFER_SIZE) != 0) p = NULL;
    *buffer = p;
    *size = p ? CC_CUPTI_BUFFER_SIZE : 0;
    *max_records = 0;
}

/* ---- API function names, without the _vNNNN suffix ---- */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static char *names[2][CC_CUPTI_NAME_SLOTS];

const char *cc_cupti_api_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    int d = domain == CUPTI_CB_DOMAIN_DRIVER_API ? 1 : 0;
    if (cbid >= CC_CUPTI_NAME_SLOTS) return "unknown API";
    pthread_mutex_lock(&names_lock);
    char *n = names[d][cbid];
    if (!n) {
        const char *raw = NULL;
        if (cc_cupti.GetCallbackName(domain, cbid, &raw) != CUPTI_SUCCESS || !raw)
            raw = "unknown API";
        n = strdup(raw);
        if (n) {
            char *v = strrchr(n, '_');
            if (v && v[1] == 'v' && v[2] >= '0' && v[2] <= '9' &&
                strspn(v + 2, "0123456789") == strlen(v + 2))
                *v = '\0';
            names[d][cbid] = n;
        }
    }
    pthread_mutex_unlock(&names_lock);
    return n ? n : "unknown API";
}

/* ---- conversions ---- */
static uint32_t mem_kind(uint32_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return CC_MEM_HOST_PAGEABLE;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return CC_MEM_HOST_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return CC_MEM_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return CC_MEM_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return CC_MEM_MANAGED;
    default: return CC_MEM_UNKNOWN;
    }
}

static uint32_t copy_dir(uint32_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return CC_COPY_H2D;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return CC_COPY_D2H;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return CC_COPY_D2D;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return CC_COPY_H2H;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return CC_COPY_PEER;
    default: return CC_COPY_UNKNOWN;
    }
}

/* Activity that could not be turned into an event, reported as lost records with why. */
static void emit_lost(uint64_t context, uint64_t n, const char *reason)
{
    cc_event ev;
    cc_cupti_event_init(&ev, CC_EV_ACTIVITY_LOST);
    ev.u.activity_lost.context = context;
    ev.u.activity_lost.dropped = n;
    ev.u.activity_lost.reason = reason;
    cc_cupti_emit(&ev);
}

/* A GPU record without its timestamps (CUPTI_TIMESTAMP_UNKNOWN, 0): a forced flush delivers
 * records the GPU has not completed that way. Kept, it would read as a kernel at time 0 — a GPU
 * span and a trace base decades long; it is reported as lost instead. */
static int incomplete(uint64_t start, uint64_t end, uint32_t context)
{
    if (start != 0 && end != 0 && end >= start) return 0;
    emit_lost(context, 1, "GPU record without timestamps (incomplete at the final flush)");
    return 1;
}

static void on_kernel(const CUpti_ActivityKernel10 *k)
{
    if (incomplete(k->start, k->end, k->contextId)) return;
    cc_event ev;
    cc_cupti_event_init(&ev, CC_EV_KERNEL_ACTIVITY);
    ev.h.tid = 0;
    cc_ev_kernel_activity *o = &ev.u.kernel_activity;
    o->start = ts(k->start);
    o->end = ts(k->end);
    o->device = (int32_t)k->deviceId;
    o->registers = k->registersPerThread;
    o->context = k->contextId;
    o->stream = k->streamId;
    o->correlation = k->correlationId;
    o->name = k->name ? k->name : "";
    o->grid[0] = (uint32_t)k->gridX;
    o->grid[1] = (uint32_t)k->gridY;
    o->grid[2] = (uint32_t)k->gridZ;
    o->block[0] = (uint32_t)k->blockX;
    o->block[1] = (uint32_t)k->blockY;
    o->block[2] = (uint32_t)k->blockZ;
    o->cluster[0] = k->clusterX;
    o->cluster[1] = k->clusterY;
    o->cluster[2] = k->clusterZ;
    o->static_smem = (uint32_t)k->staticSharedMemory;
    o->dynamic_smem = (uint32_t)k->dynamicSharedMemory;
    o->local_mem = k->localMemoryPerThread;
    o->smem_config = k->sharedMemoryExecuted;
    o->graph = k->graphId;
    o->graph_node = k->graphNodeId;
    cc_cupti_emit(&ev);
}

/* The fields every copy-like record (memcpy, peer copy, memset) shares; a macro because the
 * CUPTI record structs differ in type but not in these names. */
#define CC_FILL_COPY_COMMON(o, m)                   \
    do {                                            \
        (o)->start = ts((m)->start);                \
        (o)->end = ts((m)->end);                    \
        (o)->device = (int32_t)(m)->deviceId;       \
        (o)->bytes = (m)->bytes;                    \
        (o)->context = (m)->contextId;              \
        (o)->stream = (m)->streamId;                \
        (o)->correlation = (m)->correlationId;      \
        (o)->graph = (m)->graphId;                  \
        (o)->graph_node = (m)->graphNodeId;         \
    } while (0)

/* A memcpy or peer-copy record: the two record types share every field used here. */
#define CC_EMIT_COPY(m, dir)                                   \
    do {                                                       \
        if (incomplete((m)->start, (m)->end, (m)->contextId))  \
            return;                                            \
        cc_event ev;                                           \
        cc_cupti_event_init(&ev, CC_EV_COPY_ACTIVITY);         \
        ev.h.tid = 0;                                          \
        cc_ev_copy_activity *o = &ev.u.copy_activity;          \
        CC_FILL_COPY_COMMON(o, m);                             \
        o->op = CC_COPY_OP_MEMCPY;                             \
        o->direction = (dir);                                  \
        o->src_kind = mem_kind((m)->srcKind);                  \
        o->dst_kind = mem_kind((m)->dstKind);                  \
        cc_cupti_emit(&ev);                                    \
    } while (0)

static void on_memcpy(const CUpti_ActivityMemcpy6 *m) { CC_EMIT_COPY(m, copy_dir(m->copyKind)); }

static void on_peer_copy(const CUpti_ActivityMemcpyPtoP4 *m) { CC_EMIT_COPY(m, CC_COPY_PEER); }

static void on_memset(const CUpti_ActivityMemset4 *m)
{
    if (incomplete(m->start, m->end, m->contextId)) return;
    cc_event ev;
    cc_cupti_event_init(&ev, CC_EV_COPY_ACTIVITY);
    ev.h.tid = 0;
    cc_ev_copy_activity *o = &ev.u.copy_activity;
    CC_FILL_COPY_COMMON(o, m);
    o->op = CC_COPY_OP_MEMSET;
    o->dst_kind = mem_kind(m->memoryKind);
    o->value = m->value;
    cc_cupti_emit(&ev);
}

static void on_api(const CUpti_ActivityAPI *a)
{
    cc_event ev;
    cc_cupti_event_init(&ev, CC_EV_API_CALL);
    ev.h.tid = a->threadId; /* a system thread id: cuptiSetThreadIdType(SYSTEM) */
    cc_ev_api_call *o = &ev.u.api_call;
    int driver = a->kind == CUPTI_ACTIVITY_KIND_DRIVER;
    o->start = ts(a->start);
    o->end = ts(a->end);
    o->api = driver ? CC_API_DRIVER : CC_API_RUNTIME;
    o->cbid = a->cbid;
    o->function = cc_cupti_api_name(driver ? CUPTI_CB_DOMAIN_DRIVER_API
                                           : CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid);
    o->correlation = a->correlationId;
    o->result = (int32_t)a->returnValue;
    cc_cupti_emit(&ev);
}

static void on_sync(const CUpti_ActivitySynchronization2 *s)
{
    cc_event ev;
    cc_cupti_event_init(&ev, CC_EV_SYNC_ACTIVITY);
    ev.h.tid = 0;
    cc_ev_sync_activity *o = &ev.u.sync_activity;
    o->start = ts(s->start);
    o->end = ts(s->end);
    o->type = (uint32_t)s->type;
    o->result = (int32_t)s->returnValue;
    o->context = s->contextId;
    o->stream = s->streamId == (uint32_t)-1 ? 0 : s->streamId;
    o->event = s->cudaEventId == (uint32_t)-1 ? 0 : s->cudaEventId;
    o->correlation = s->correlationId;
    cc_cupti_emit(&ev);
}

static void on_device(const CUpti_ActivityDevice5 *d)
{
    cc_event ev;
    cc_cupti_event_init(&ev, CC_EV_DEVICE);
    ev.u.device.ordinal = (int32_t)d->id;
    ev.u.device.cc_major = d->computeCapabilityMajor;
    ev.u.device.cc_minor = d->computeCapabilityMinor;
    ev.u.device.sm_count = d->numMultiprocessors;
    ev.u.device.total_mem = d->globalMemorySize;
    ev.u.device.name = d->name ? d->name : "";
    cc_cupti_emit(&ev);
    cc_cupti_event_init(&ev, CC_EV_DEVICE_LIMITS);
    cc_ev_device_limits *l = &ev.u.device_limits;
    l->ordinal = (int32_t)d->id;
    l->cc_major = d->computeCapabilityMajor;
    l->cc_minor = d->computeCapabilityMinor;
    l->sm_count = d->numMultiprocessors;
    l->warp_size = d->numThreadsPerWarp;
    l->max_threads_per_block = d->maxThreadsPerBlock;
    l->max_warps_per_sm = d->maxWarpsPerMultiprocessor;
    l->max_blocks_per_sm = d->maxBlocksPerMultiprocessor;
    l->regs_per_block = d->maxRegistersPerBlock;
    l->regs_per_sm = d->maxRegistersPerMultiprocessor;
    l->smem_per_block = d->maxSharedMemoryPerBlock;
    l->smem_per_sm = d->maxSharedMemoryPerMultiprocessor;
    l->name = d->name ? d->name : "";
    cc_cupti_emit(&ev);
}

/* ---- NVTX: START markers wait here for their END (by id) ---- */
typedef struct open_range {
    uint64_t start;
    uint32_t tid;
    const char *name, *domain; /* copies, in the same block after the struct */
} open_range;

static pthread_mutex_t ranges_lock = PTHREAD_MUTEX_INITIALIZER;
static cc_hashmap ranges = CC_HASHMAP_INIT; /* marker id -> open_range * */

static open_range *open_range_new(uint64_t start, uint32_t tid, const char *name,
                                  const char *domain)
{
    size_t nlen = strlen(name) + 1, dlen = strlen(domain) + 1;
    open_range *r = malloc(sizeof *r + nlen + dlen);
    if (!r) return NULL;
    char *text = (char *)(r + 1);
    memcpy(text, name, nlen);
    memcpy(text + nlen, domain, dlen);
    *r = (open_range){start, tid, text, text + nlen};
    return r;
}

static uint32_t marker_tid(const CUpti_ActivityMarker2 *m)
{
    return m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
                   m->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS
               ? m->objectId.pt.threadId
               : 0;
}

static void emit_range(uint64_t id, uint64_t start, uint64_t end, uint32_t tid,
                       uint32_t end_tid, const char *name, const char *domain)
{
    cc_event ev;
    cc_cupti_event_init(&ev, CC_EV_NVTX_RANGE);
    ev.h.tid = tid;
    ev.u.nvtx_range.start = start;
    ev.u.nvtx_range.end = end;
    ev.u.nvtx_range.id = id;
    ev.u.nvtx_range.end_tid = end_tid;
    ev.u.nvtx_range.name = name ? name : "";
    ev.u.nvtx_range.domain = domain ? domain : "";
    cc_cupti_emit(&ev);
}

static void on_marker(const CUpti_ActivityMarker2 *m)
{
    uint64_t t = ts(m->timestamp);
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
        emit_range(m->id, t, t, marker_tid(m), marker_tid(m), m->name, m->domain);
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        open_range *r = open_range_new(t, marker_tid(m), m->name ? m->name : "",
                                       m->domain ? m->domain : "");
        if (!r) return;
        pthread_mutex_lock(&ranges_lock);
        int added = 0;
        uint64_t *slot = cc_hashmap_get_or_add(&ranges, m->id, (uintptr_t)r, &added);
        pthread_mutex_unlock(&ranges_lock);
        if (!slot || !added) free(r); /* no room, or that id is open already */
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        uint64_t found = 0;
        pthread_mutex_lock(&ranges_lock);
        int open = cc_hashmap_remove(&ranges, m->id, &found);
        pthread_mutex_unlock(&ranges_lock);
        if (!open) return;
        open_range *r = (open_range *)(uintptr_t)found;
        emit_range(m->id, r->start, t, r->tid, marker_tid(m), r->name, r->domain);
        free(r);
    }
}

static void on_record(const CUpti_Activity *r)
{
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: on_kernel((const CUpti_ActivityKernel10 *)r); break;
    case CUPTI_ACTIVITY_KIND_MEMCPY: on_memcpy((const CUpti_ActivityMemcpy6 *)r); break;
    case CUPTI_ACTIVITY_KIND_MEMCPY2: on_peer_copy((const CUpti_ActivityMemcpyPtoP4 *)r); break;
    case CUPTI_ACTIVITY_KIND_MEMSET: on_memset((const CUpti_ActivityMemset4 *)r); break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: on_api((const CUpti_ActivityAPI *)r); break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        on_sync((const CUpti_ActivitySynchronization2 *)r);
        break;
    case CUPTI_ACTIVITY_KIND_DEVICE: on_device((const CUpti_ActivityDevice5 *)r); break;
    case CUPTI_ACTIVITY_KIND_MARKER: on_marker((const CUpti_ActivityMarker2 *)r); break;
    default: break;
    }
}

void CUPTIAPI cc_cupti_buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer,
                                        size_t size, size_t valid_size)
{
    (void)size;
    CUpti_Activity *rec = NULL;
    if (buffer && valid_size > 0) {
        CUptiResult r;
        while ((r = cc_cupti.ActivityGetNextRecord(buffer, valid_size, &rec)) == CUPTI_SUCCESS)
            on_record(rec);
        /* MAX_LIMIT_REACHED is the normal end; anything else (an invalid or incomplete record)
         * ends the walk early, and the rest of the buffer is lost: say so, not silently. */
        if (r != CUPTI_ERROR_MAX_LIMIT_REACHED)
            emit_lost((uint64_t)(uintptr_t)ctx, 1, "unreadable CUPTI record: the rest of an "
                                                   "activity buffer was skipped");
    }
    size_t dropped = 0;
    if (cc_cupti.ActivityGetNumDroppedRecords(ctx, stream_id, &dropped) == CUPTI_SUCCESS &&
        dropped > 0)
        emit_lost((uint64_t)(uintptr_t)ctx, dropped, "CUPTI activity buffer full");
    free(buffer);
}
#endif
