/* NCCL operations in the happens-before engine (CC_EV_COLLECTIVE): an operation on the stream
 * the program gave NCCL, ordered like a kernel launch there (stream order, the legacy stream's
 * barriers, event waits, synchronizations; skipped while the stream is captured), that reads the
 * send range and writes the receive range of this rank (one read-and-write access when both are
 * the same range: in place). Reports name it by its API name ("ncclAllReduce"). What other
 * ranks do, and the ordering between ranks, is not modelled. */
#include "core/hb_internal.h"

#include <stdlib.h>
#include <string.h>
#include "core/nccl_ops.h"

void cc_hb_collective(cc_hb *hb, const cc_event *ev)
{
    const cc_ev_collective *c = &ev->u.collective;
    hb_thread *t = cc_hb_thread(hb, ev->h.tid);
    hb_stream *s = cc_hb_stream(hb, c->context, c->stream, ev->h.tid);
    if (!t || !s) return;
    if (s->capture) {
        hb->stats.captured_ops++;
        return;
    }
    hb->stats.collectives++;
    cc_hb_prepare(hb, s, t);
    cc_hb_op *op = cc_hb_op_on_stream(hb, s, CC_HB_OP_COLLECTIVE, t->tid);
    if (!op) return;
    op->callsite = c->callsite;
    op->name = cc_nccl_api_name(c->op);
    const hb_ctxdev *cd = cc_hb_ctxdev_find(hb, c->context);
    if (cd && cd->known) op->device = cd->device;
    if (c->sendbuff == c->recvbuff && c->send_bytes == c->recv_bytes) {
        cc_hb_access(hb, op, c->sendbuff, c->send_bytes,
                     CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE);
    } else {
        cc_hb_access(hb, op, c->sendbuff, c->send_bytes, CC_ACCESS_FLAG_READ);
        cc_hb_access(hb, op, c->recvbuff, c->recv_bytes, CC_ACCESS_FLAG_WRITE);
    }
    cc_hb_op_unref(op);
}
