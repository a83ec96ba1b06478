/* The fix streamcheck proposes for an issue: the smallest ordering that makes the earlier
 * operation happen before the later one. Between two streams: an event recorded after the
 * earlier work and waited on by the later stream; before a host access: a synchronize; between
 * graph nodes: a dependency edge; for stream-ordered memory: order the free after the last use
 * or the use after the allocation. Python programs also get the PyTorch spelling. */
#include "tools/streamcheck/sc_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void stream_c(char *buf, size_t len, const cc_hb_op *op)
{
    if (op->stream == CC_STREAM_LEGACY) snprintf(buf, len, "0");
    else if (op->stream == CC_STREAM_PER_THREAD) snprintf(buf, len, "cudaStreamPerThread");
    else snprintf(buf, len, "stream 0x%" PRIx64, op->stream);
}

/* The stream in a sentence ("record an event on ..."): the default streams by name; with
 * show_device (several devices used) the stream's device too. */
static void stream_prose(char *buf, size_t len, const cc_hb_op *op, int show_device)
{
    char dev[48] = "";
    if (show_device) snprintf(dev, sizeof dev, " of device %" PRId32, op->device);
    if (op->stream == CC_STREAM_LEGACY) snprintf(buf, len, "the default stream (0)%s", dev);
    else if (op->stream == CC_STREAM_PER_THREAD)
        snprintf(buf, len, "the per-thread default stream%s", dev);
    else if (show_device)
        snprintf(buf, len, "stream 0x%" PRIx64 " (device %" PRId32 ")", op->stream, op->device);
    else snprintf(buf, len, "stream 0x%" PRIx64, op->stream);
}

static int same_graph(const cc_hb_op *a, const cc_hb_op *b)
{
    return a->graph_exec && a->graph_node && a->graph_exec == b->graph_exec && b->graph_node;
}

/* earlier/later: by issue order. Between streams of two devices the event is made on the
 * earlier one's device (cudaEventRecord needs an event of the stream's device; a stream may
 * wait for an event of any device). */
static void order_fix(char *buf, size_t len, const cc_hb_op *e, const cc_hb_op *l, int python,
                      int show_device, cc_demangle_cache *names)
{
    char en[256], ln[256], es[96], ls[96], ep[96], lp[96], evdev[64] = "";
    sc_op_short(en, sizeof en, e, names);
    sc_op_short(ln, sizeof ln, l, names);
    stream_c(es, sizeof es, e);
    stream_c(ls, sizeof ls, l);
    stream_prose(ep, sizeof ep, e, show_device);
    stream_prose(lp, sizeof lp, l, show_device);
    if (show_device && e->device != l->device)
        snprintf(evdev, sizeof evdev, " with ev created on device %" PRId32, e->device);
    if (same_graph(e, l)) {
        snprintf(buf, len,
                 "add a dependency from node 0x%" PRIx64 " to node 0x%" PRIx64
                 " of graph 0x%" PRIx64 " (cudaGraphAddDependencies, or capture them on one "
                 "stream / join the capturing streams with an event)",
                 e->graph_node, l->graph_node, e->graph_exec);
    } else if (!e->on_host && !l->on_host) {
        snprintf(buf, len,
                 "record an event on %s after %s and make %s wait for it before %s: "
                 "cudaEventRecord(ev, %s)%s; cudaStreamWaitEvent(%s, ev)%s",
                 ep, en, lp, ln, es, evdev, ls,
                 python ? "; PyTorch: ev = torch.cuda.Event(); ev.record(s_first); "
                          "s_second.wait_event(ev) (or s_second.wait_stream(s_first)), and "
                          "tensor.record_stream(s_second) if the tensor is freed while "
                          "s_second may still use it"
                        : "");
    } else if (!e->on_host && l->on_host) {
        snprintf(buf, len,
                 "wait for %s on the host before the access by thread %" PRIu32
                 ": cudaStreamSynchronize(%s), or cudaEventSynchronize on an event recorded "
                 "after it (a successful cudaEventQuery/cudaStreamQuery also orders)%s",
                 en, l->tid, es,
                 python ? "; PyTorch: torch.cuda.current_stream().synchronize() on that "
                          "stream, or ev.synchronize() on an event recorded after the work"
                        : "");
    } else if (e->on_host && !l->on_host) {
        snprintf(buf, len,
                 "the host access by thread %" PRIu32 " is not ordered before %s, issued by "
                 "thread %" PRIu32 ": issue %s from that thread after the access, or make the "
                 "issuing thread wait for it (CUDA does not order host threads)",
                 e->tid, ln, l->tid, ln);
    } else {
        snprintf(buf, len,
                 "host threads %" PRIu32 " and %" PRIu32 " are not ordered by any CUDA call: "
                 "synchronize them (mutex, join, condition variable) around the accesses",
                 e->tid, l->tid);
    }
}

void sc_fix(char *buf, size_t len, const cc_hb_issue *is, cc_demangle_cache *names)
{
    const cc_hb_op *cur = is->cur.op, *prev = is->prev.op;
    char cn[256], cs[96], ps[96];
    sc_op_short(cn, sizeof cn, cur, names);
    stream_c(cs, sizeof cs, cur);
    stream_c(ps, sizeof ps, prev);
    switch (is->kind) {
    case CC_HB_ISSUE_USE_AFTER_FREE:
        if (cur->seq < prev->seq) {
            snprintf(buf, len,
                     "order the free after the use: cudaEventRecord(ev, %s) after %s and "
                     "cudaStreamWaitEvent(%s, ev) before cudaFreeAsync, or call cudaFreeAsync "
                     "on %s%s",
                     cs, cn, ps, cs,
                     is->python ? "; PyTorch: tensor.record_stream(s_use) before the tensor is "
                                  "released"
                                : "");
        } else {
            snprintf(buf, len,
                     "the memory was already freed by cudaFreeAsync on %s: move the free after "
                     "the last use (and order it after that use), or allocate again",
                     ps);
        }
        return;
    case CC_HB_ISSUE_USE_BEFORE_ALLOC:
        snprintf(buf, len,
                 "order the use after the allocation: cudaEventRecord(ev, %s) after "
                 "cudaMallocAsync and cudaStreamWaitEvent(%s, ev) before %s, or allocate on %s",
                 ps, cs, cn, cs);
        return;
    case CC_HB_ISSUE_FREE_IN_USE:
        snprintf(buf, len,
                 "wait for %s before freeing: cudaStreamSynchronize(%s) or cudaEventSynchronize "
                 "on an event recorded after it",
                 cn, cs);
        return;
    default: {
        const cc_hb_op *e = cur->seq < prev->seq ? cur : prev;
        const cc_hb_op *l = e == cur ? prev : cur;
        order_fix(buf, len, e, l, is->python, is->multi_device, names);
        return;
    }
    }
}
