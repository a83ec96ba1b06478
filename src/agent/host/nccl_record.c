/* NCCL calls as events (nccl_calls.h): each call NCCL took becomes one CC_EV_COLLECTIVE with
 * the communicator's rank and size (ncclCommUserRank, ncclCommCount), the byte ranges of
 * core/nccl_ops.h, the stream and context as launch events name them, and the host stack of the
 * call (Python frames under PyTorch, as launches get). Only for a tool whose plug-in sets
 * needs_collectives; other tools pay one check per call. Inside ncclGroupStart/ncclGroupEnd
 * (nesting counted per thread) the events wait in a per-thread queue and are emitted, in call
 * order, after the outermost ncclGroupEnd returned: that is when NCCL enqueues the group's work
 * on the streams. */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/host/nccl_calls.h"
#include "core/grow.h"
#include "core/nccl_ops.h"

typedef int (*comm_int_fn)(const void *, int *);

static _Thread_local int cc_group_depth;
static _Thread_local cc_event *cc_group_queue;
static _Thread_local size_t cc_group_len, cc_group_cap;

static int cc_nccl_wanted(void)
{
    const cc_agent_plugin *p = cc_agent_plugin_g;
    return p != NULL && p->needs_collectives;
}

/* ncclCommUserRank or ncclCommCount of comm; fallback when NCCL does not say. */
static int cc_comm_int(const char *name, void *_Atomic *slot, void *comm, int fallback)
{
    void *f = atomic_load_explicit(slot, memory_order_acquire);
    if (f == NULL) {
        f = cc_nccl_lookup(name);
        if (f == NULL) {
            return fallback;
        }
        atomic_store_explicit(slot, f, memory_order_release);
    }
    comm_int_fn fn;
    memcpy(&fn, &f, sizeof fn);
    int v = fallback;
    return fn(comm, &v) == CC_NCCL_SUCCESS ? v : fallback;
}

static void cc_nccl_event(cc_event *ev, const cc_nccl_call *c)
{
    static void *_Atomic rank_fn, *_Atomic count_fn;
    uint64_t callsite = cc_agent_callsite(); /* may emit the stack's definition first */
    cc_agent_event_init(ev, CC_EV_COLLECTIVE);
    cc_ev_collective *e = &ev->u.collective;
    e->stream = cc_agent_app_stream_id((CUstream)c->stream, &e->context);
    e->op = c->op;
    e->flags = cc_group_depth > 0 ? CC_COLL_FLAG_GROUPED : 0;
    e->datatype = (uint32_t)c->datatype;
    e->elem_size = cc_nccl_type_size(c->datatype);
    e->count = c->count;
    e->peer = c->peer;
    e->rank = cc_comm_int("ncclCommUserRank", &rank_fn, c->comm, -1);
    e->nranks = cc_comm_int("ncclCommCount", &count_fn, c->comm, 0);
    e->comm = cc_agent_handle_id(c->comm);
    e->sendbuff = cc_agent_handle_id(c->sendbuff);
    e->recvbuff = cc_agent_handle_id(c->recvbuff);
    e->callsite = callsite;
    (void)cc_nccl_ranges(e); /* sizes that do not fit: 0 bytes, the event still orders */
}

void cc_nccl_record(const cc_nccl_call *c)
{
    if (!cc_nccl_wanted()) {
        return;
    }
    cc_event ev;
    cc_nccl_event(&ev, c);
    if (cc_group_depth == 0) {
        cc_agent_emit(&ev);
        return;
    }
    cc_event *slot = CC_ARRAY_PUSH(cc_group_queue, cc_group_len, cc_group_cap);
    if (slot == NULL) {
        cc_agent_note("out of memory queuing an NCCL call of a group: it is not checked");
        return;
    }
    *slot = ev;
}

void cc_nccl_group_start(int taken)
{
    if (taken && cc_nccl_wanted()) {
        cc_group_depth++;
    }
}

void cc_nccl_group_end(int run)
{
    if (!cc_nccl_wanted() || cc_group_depth == 0) {
        return; /* no group open (NCCL refuses the unmatched end) */
    }
    if (--cc_group_depth > 0) {
        return;
    }
    if (run && cc_group_len > 0) {
        cc_agent_emit_many(cc_group_queue, cc_group_len);
    }
    free(cc_group_queue);
    cc_group_queue = NULL;
    cc_group_len = 0;
    cc_group_cap = 0;
}
