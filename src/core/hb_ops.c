/* Operations of the happens-before engine: each kernel launch, copy, memset, host access, host
 * function, stream-ordered allocation or free becomes a reference-counted cc_hb_op holding the
 * clock it had when it was made, so that accesses reported later (device buffers are drained
 * after the launch) are applied with the ordering the launch had. Recent launches and host
 * functions are indexed for those late access events. */
#include "core/hb_internal.h"

#include <stdlib.h>
#include <string.h>

int cc_hb_op_before(const cc_hb_op *a, const cc_hb_op *b)
{
    if (a == b) return 1;
    return a->clock <= cc_hb_vc_get(&b->vc, a->actor);
}

static cc_hb_op *new_op(cc_hb *hb, uint32_t actor, cc_hb_vc *vc, uint32_t kind)
{
    cc_hb_op *op = calloc(1, sizeof *op);
    if (!op) {
        hb->stats.out_of_memory = 1;
        return NULL;
    }
    op->clock = cc_hb_vc_tick(vc, actor);
    if (op->clock == 0 || cc_hb_vc_copy(&op->vc, vc) != 0) {
        hb->stats.out_of_memory = 1;
        cc_hb_vc_free(&op->vc);
        free(op);
        return NULL;
    }
    op->seq = ++hb->next_seq;
    op->kind = kind;
    op->actor = actor;
    op->refs = 1; /* the caller's reference */
    return op;
}

cc_hb_op *cc_hb_op_on_stream(cc_hb *hb, hb_stream *s, uint32_t kind, uint32_t tid)
{
    cc_hb_op *op = new_op(hb, s->actor, &s->vc, kind);
    if (!op) return NULL;
    op->stream = s->handle;
    op->library = s->library;
    op->context = s->context;
    op->device = s->device;
    op->tid = tid;
    return op;
}

cc_hb_op *cc_hb_op_on_thread(cc_hb *hb, hb_thread *t, uint32_t kind)
{
    cc_hb_op *op = new_op(hb, t->actor, &t->vc, kind);
    if (!op) return NULL;
    op->tid = t->tid;
    op->on_host = 1;
    return op;
}

cc_hb_op *cc_hb_op_on_actor(cc_hb *hb, uint32_t actor, cc_hb_vc *vc, uint32_t kind)
{
    return new_op(hb, actor, vc, kind);
}

void cc_hb_op_ref(cc_hb_op *op)
{
    if (op) op->refs++;
}

void cc_hb_op_unref(cc_hb_op *op)
{
    if (!op || --op->refs > 0) return;
    cc_hb_vc_free(&op->vc);
    free(op);
}

/* Launch ids are consecutive, so slot launch_id % RING holds the latest launch with that
 * residue: the ring answers for the last HB_LAUNCH_RING launch ids. */
void cc_hb_remember_launch(cc_hb *hb, cc_hb_op *op)
{
    cc_hb_op **slot = &hb->launch_ring[op->id % HB_LAUNCH_RING];
    cc_hb_op_unref(*slot);
    cc_hb_op_ref(op);
    *slot = op;
}

cc_hb_op *cc_hb_find_launch(cc_hb *hb, uint64_t launch_id)
{
    cc_hb_op *op = hb->launch_ring[launch_id % HB_LAUNCH_RING];
    return op && op->id == launch_id && op->kind == CC_HB_OP_KERNEL ? op : NULL;
}

void cc_hb_remember_hostfn(cc_hb *hb, cc_hb_op *op)
{
    cc_hb_op **slot = &hb->hostfn_ring[hb->hostfn_next++ % HB_HOSTFN_RING];
    cc_hb_op_unref(*slot);
    cc_hb_op_ref(op);
    *slot = op;
}

/* The most recent host function enqueued with this userdata. */
cc_hb_op *cc_hb_find_hostfn(cc_hb *hb, uint64_t userdata)
{
    for (uint32_t i = 1; i <= HB_HOSTFN_RING; i++) {
        cc_hb_op *op = hb->hostfn_ring[(hb->hostfn_next - i) % HB_HOSTFN_RING];
        if (op && op->id == userdata) return op;
    }
    return NULL;
}

void cc_hb_free_ops(cc_hb *hb)
{
    for (size_t i = 0; i < HB_LAUNCH_RING; i++) cc_hb_op_unref(hb->launch_ring[i]);
    for (size_t i = 0; i < HB_HOSTFN_RING; i++) cc_hb_op_unref(hb->hostfn_ring[i]);
    memset(hb->launch_ring, 0, sizeof hb->launch_ring);
    memset(hb->hostfn_ring, 0, sizeof hb->hostfn_ring);
}
