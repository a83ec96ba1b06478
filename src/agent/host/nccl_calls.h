/* The agent's interposer of NCCL's API, for tools whose plug-in sets needs_collectives
 * (streamcheck): nccl_calls.c defines the exported NCCL functions, which forward to NCCL's own
 * (cc_nccl_lookup); nccl_record.c turns each successful call into a CC_EV_COLLECTIVE event
 * (the byte rules of core/nccl_ops.h, the stream as launch events name it, the call's host
 * stack) and holds a thread's calls inside ncclGroupStart/ncclGroupEnd until the outermost
 * ncclGroupEnd returned. NCCL's types are not included: handles are pointers, enums ints. */
#ifndef CUCHECK_AGENT_HOST_NCCL_CALLS_H
#define CUCHECK_AGENT_HOST_NCCL_CALLS_H

#include <stddef.h>
#include <stdint.h>

#define CC_NCCL_SUCCESS 0
#define CC_NCCL_SYSTEM_ERROR 2 /* ncclSystemError: what a call returns when NCCL is not loaded */
#define CC_NCCL_IN_PROGRESS 7  /* ncclInProgress: a non-blocking communicator took the call */

/* One NCCL call as the program made it (CC_COLL_* op; peer: root or peer, -1 for none). */
typedef struct cc_nccl_call {
    uint32_t op;
    const void *sendbuff;
    const void *recvbuff;
    size_t count;
    int datatype;
    int peer;
    void *comm;
    void *stream; /* cudaStream_t */
} cc_nccl_call;

/* 1 if NCCL's result r means the call was taken (ncclSuccess, ncclInProgress). */
static inline int cc_nccl_taken(int r)
{
    return r == CC_NCCL_SUCCESS || r == CC_NCCL_IN_PROGRESS;
}

/* nccl_calls.c: NCCL's own function `name` (not the agent's), or NULL: dlsym(RTLD_NEXT), else
 * any loaded object that defines it (NCCL in a local scope, e.g. under PyTorch). Not cached. */
void *cc_nccl_lookup(const char *name);

/* nccl_record.c: a call NCCL took: its event now, or queued while a group is open. */
void cc_nccl_record(const cc_nccl_call *c);
/* ncclGroupStart returned (taken: it succeeded); ncclGroupEnd or ncclGroupSimulateEnd returned
 * (run: the group's calls were enqueued, so the queued events are emitted when the outermost
 * group closes; else dropped). */
void cc_nccl_group_start(int taken);
void cc_nccl_group_end(int run);

#endif
