/* Copies and memsets in the happens-before engine: they are stream operations whose access
 * sets come from their arguments (source read, destination written; 2D/3D by rows), and some
 * forms also order the host, by direction and memory kind, as the CUDA runtime documents in
 * "API synchronization behavior" (docs/streamcheck.md quotes the rules):
 *  - cudaMemcpy D2H (pageable or pinned), H2H, pinned H2D: the host waits for the copy;
 *  - cudaMemcpy pageable H2D: the stream is synchronized before the copy, and the call returns
 *    once the source is staged (the host side reads the source); the DMA may still be running;
 *  - cudaMemcpy D2D / peer: no host synchronization;
 *  - the synchronous cudaMemcpyPeer (CC_COPY_FLAG_PEER_SYNC), and a synchronous cudaMemcpy on
 *    the legacy stream between two devices' memory: serialized with all work of the devices
 *    involved (current, source, destination; for cudaMemcpy source and destination): after
 *    their streams' earlier work, before their later work (hb_actors.c, device barriers);
 *  - cudaMemcpyAsync D2H to pageable, H2H: the host waits for the copy; others: none;
 *  - cudaMemset to pinned host or managed memory: the host waits; other memsets: none.
 * Transfers that merely "might be synchronous" add no ordering. */
#include "core/hb_internal.h"

#include <string.h>

typedef enum { SIDE_HOST_PAGEABLE, SIDE_HOST_PINNED, SIDE_DEVICE } side_class;

static uint32_t kind_of(const cc_hb *hb, uint32_t given, uint64_t address)
{
    if (given != CC_MEM_UNKNOWN) return given;
    const hb_alloc *a = cc_hb_alloc_find(hb, address);
    return a ? a->info.mem_kind : CC_MEM_UNKNOWN;
}

static side_class classify(uint32_t kind, int host_by_direction)
{
    switch (kind) {
    case CC_MEM_HOST_PINNED: case CC_MEM_HOST_MAPPED: return SIDE_HOST_PINNED;
    case CC_MEM_HOST_PAGEABLE: return SIDE_HOST_PAGEABLE;
    case CC_MEM_UNKNOWN: return host_by_direction ? SIDE_HOST_PAGEABLE : SIDE_DEVICE;
    default: return SIDE_DEVICE; /* device, async, managed, arrays, module globals */
    }
}

/* Rows of a 2D/3D transfer, each [base + i * pitch, + width); more rows than HB_MAX_ROWS are
 * tracked by their bounding range. */
static void access_rows(cc_hb *hb, cc_hb_op *op, uint64_t base, uint64_t size, uint64_t width,
                        uint64_t rows, uint64_t pitch, uint32_t flags)
{
    if (width == 0 || rows <= 1 || pitch <= width) {
        cc_hb_access(hb, op, base, size, flags);
        return;
    }
    if (rows > HB_MAX_ROWS) {
        cc_hb_access(hb, op, base, pitch * (rows - 1) + width, flags);
        return;
    }
    for (uint64_t i = 0; i < rows; i++) cc_hb_access(hb, op, base + i * pitch, width, flags);
}

typedef enum { HOST_NONE, HOST_AFTER, HOST_STAGED } host_order;

static host_order memcpy_host_order(const cc_hb *hb, int async, side_class src, side_class dst)
{
    int src_host = src != SIDE_DEVICE, dst_host = dst != SIDE_DEVICE;
    if (src_host && dst_host) return HOST_AFTER;                  /* H2H: fully synchronous */
    if (async) return (!src_host && dst == SIDE_HOST_PAGEABLE) ? HOST_AFTER : HOST_NONE;
    if (hb->cfg.sync_copies_full) return HOST_AFTER;
    if (!src_host && dst_host) return HOST_AFTER;                  /* D2H */
    if (src == SIDE_HOST_PINNED) return HOST_AFTER;                /* pinned H2D */
    if (src == SIDE_HOST_PAGEABLE) return HOST_STAGED;             /* pageable H2D */
    return HOST_NONE;                                              /* D2D, peer */
}

/* The device of known device memory at address (not managed, host or unknown memory), or -1. */
static int32_t memory_device(const cc_hb *hb, uint64_t address)
{
    const hb_alloc *a = cc_hb_alloc_find(hb, address);
    if (!a) return -1;
    switch (a->info.mem_kind) {
    case CC_MEM_DEVICE: case CC_MEM_DEVICE_ASYNC: case CC_MEM_VIRTUAL_MAP: return a->info.device;
    default: return -1;
    }
}

static void add_device(int32_t *devices, size_t *n, int32_t device)
{
    if (device < 0) return;
    for (size_t i = 0; i < *n; i++)
        if (devices[i] == device) return;
    devices[(*n)++] = device;
}

/* The devices a copy between devices in the NULL stream is serialized with (none: 0): the
 * synchronous cudaMemcpyPeer with all work of the current (its stream's), source and destination
 * devices; a synchronous copy on the legacy stream between two devices' memory (cudaMemcpy
 * through unified addressing) with all work of both. */
static size_t serialized_devices(const cc_hb *hb, const cc_ev_memcpy *m, const hb_stream *s,
                                 int32_t devices[3])
{
    int32_t src = memory_device(hb, m->src), dst = memory_device(hb, m->dst);
    size_t n = 0;
    if (m->flags & CC_COPY_FLAG_PEER_SYNC)
        add_device(devices, &n, s->device);
    else if ((m->flags & CC_COPY_FLAG_ASYNC) || !s->legacy || src < 0 || dst < 0 || src == dst)
        return 0;
    add_device(devices, &n, src);
    add_device(devices, &n, dst);
    return n;
}

/* The copy's operation on its stream: after the stream's implicit orderings and, for a copy
 * between devices in the NULL stream, after those devices' earlier work and before their later
 * work. */
static cc_hb_op *stream_copy_op(cc_hb *hb, const cc_ev_memcpy *m, hb_stream *s, hb_thread *t,
                                host_order order)
{
    cc_hb_prepare(hb, s, t);
    /* pageable H2D: the stream is synchronized before the copy starts (not after it) */
    if (order == HOST_STAGED) cc_hb_host_waits_stream(hb, t, s);
    int32_t devices[3];
    size_t n = serialized_devices(hb, m, s, devices);
    cc_hb_devices_before(hb, s, devices, n);
    cc_hb_op *op = cc_hb_op_on_stream(hb, s, CC_HB_OP_MEMCPY, t->tid);
    if (op) cc_hb_devices_after(hb, op, devices, n);
    return op;
}

static uint32_t resolved_dir(side_class src, side_class dst)
{
    int sh = src != SIDE_DEVICE, dh = dst != SIDE_DEVICE;
    return sh ? (dh ? CC_COPY_H2H : CC_COPY_H2D) : (dh ? CC_COPY_D2H : CC_COPY_D2D);
}

void cc_hb_memcpy(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_memcpy *m = &ev->u.memcpy;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, m->context, m->stream, ev->h.tid);
    if (!t || !s) return;
    int async = (m->flags & CC_COPY_FLAG_ASYNC) != 0;
    int host_src_dir = m->direction == CC_COPY_H2H || m->direction == CC_COPY_H2D;
    int host_dst_dir = m->direction == CC_COPY_H2H || m->direction == CC_COPY_D2H;
    uint32_t sk = kind_of(hb, m->src_kind, m->src), dk = kind_of(hb, m->dst_kind, m->dst);
    int by_dir_known = m->direction >= CC_COPY_H2H && m->direction <= CC_COPY_D2D;
    side_class src = classify(sk, by_dir_known ? host_src_dir : 1);
    side_class dst = classify(dk, by_dir_known ? host_dst_dir : 1);
    if (m->direction == CC_COPY_PEER) src = dst = SIDE_DEVICE;
    hb->stats.copies++;

    host_order order = (m->flags & CC_COPY_FLAG_GRAPH_NODE) ? HOST_NONE
                                                            : memcpy_host_order(hb, async, src, dst);
    cc_hb_op *op = NULL;
    if (!((m->flags & CC_COPY_FLAG_GRAPH_NODE) &&
          cc_hb_graph_node_op(hb, m->graph_exec, m->graph_node, CC_HB_OP_MEMCPY, &op))) {
        if (s->capture) {
            hb->stats.captured_ops++;
            return;
        }
        op = stream_copy_op(hb, m, s, t, order);
    }
    if (!op) return;
    op->callsite = m->callsite;
    op->copy_dir = m->direction == CC_COPY_PEER ? CC_COPY_PEER : resolved_dir(src, dst);
    op->graph_exec = m->graph_exec;
    op->graph_node = m->graph_node;
    uint64_t rows = (m->height ? m->height : 1) * (m->depth ? m->depth : 1);
    cc_hb_op *reader = op;
    if (order == HOST_STAGED) {
        /* the source is read (staged) before the call returns */
        reader = cc_hb_op_on_thread(hb, t, CC_HB_OP_COPY_HOST);
        if (reader) {
            reader->callsite = m->callsite;
            reader->stream = s->handle;
            reader->copy_dir = op->copy_dir;
        } else {
            reader = op;
        }
    }
    access_rows(hb, reader, m->src, m->size, m->width, rows, m->src_pitch, CC_ACCESS_FLAG_READ);
    access_rows(hb, op, m->dst, m->size, m->width, rows, m->dst_pitch, CC_ACCESS_FLAG_WRITE);
    if (order == HOST_AFTER && cc_hb_vc_join(&t->vc, &op->vc)) hb->stats.out_of_memory = 1;
    if (reader != op) cc_hb_op_unref(reader);
    cc_hb_op_unref(op);
}

void cc_hb_memset(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_memset *m = &ev->u.memset;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, m->context, m->stream, ev->h.tid);
    if (!t || !s) return;
    hb->stats.memsets++;
    cc_hb_op *op = NULL;
    if (!((m->flags & CC_COPY_FLAG_GRAPH_NODE) &&
          cc_hb_graph_node_op(hb, m->graph_exec, m->graph_node, CC_HB_OP_MEMSET, &op))) {
        if (s->capture) {
            hb->stats.captured_ops++;
            return;
        }
        cc_hb_prepare(hb, s, t);
        op = cc_hb_op_on_stream(hb, s, CC_HB_OP_MEMSET, t->tid);
    }
    if (!op) return;
    op->callsite = m->callsite;
    op->graph_exec = m->graph_exec;
    op->graph_node = m->graph_node;
    access_rows(hb, op, m->dst, m->size, m->width, m->height, m->pitch, CC_ACCESS_FLAG_WRITE);
    uint32_t k = kind_of(hb, m->mem_kind, m->dst);
    int host_waits = !(m->flags & (CC_COPY_FLAG_ASYNC | CC_COPY_FLAG_GRAPH_NODE)) &&
                     (k == CC_MEM_HOST_PINNED || k == CC_MEM_HOST_MAPPED || k == CC_MEM_MANAGED);
    if (host_waits && cc_hb_vc_join(&t->vc, &op->vc)) hb->stats.out_of_memory = 1;
    cc_hb_op_unref(op);
}
