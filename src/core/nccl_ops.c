/* NCCL datatype sizes, API names and the byte ranges of one rank's NCCL call (nccl_ops.h). */
#include "core/nccl_ops.h"

#include <stddef.h>

uint32_t cc_nccl_type_size(int32_t datatype)
{
    static const uint8_t sizes[] = {
        1, /* ncclInt8, ncclChar */
        1, /* ncclUint8 */
        4, /* ncclInt32, ncclInt */
        4, /* ncclUint32 */
        8, /* ncclInt64 */
        8, /* ncclUint64 */
        2, /* ncclFloat16, ncclHalf */
        4, /* ncclFloat32, ncclFloat */
        8, /* ncclFloat64, ncclDouble */
        2, /* ncclBfloat16 */
        1, /* ncclFloat8e4m3 */
        1, /* ncclFloat8e5m2 */
    };
    if (datatype < 0 || (size_t)datatype >= sizeof sizes) return 0;
    return sizes[datatype];
}

const char *cc_nccl_api_name(uint32_t op)
{
    static const char *const names[CC_COLL_OP_COUNT] = {
        [CC_COLL_ALLREDUCE] = "ncclAllReduce",
        [CC_COLL_BROADCAST] = "ncclBroadcast",
        [CC_COLL_BCAST] = "ncclBcast",
        [CC_COLL_REDUCE] = "ncclReduce",
        [CC_COLL_ALLGATHER] = "ncclAllGather",
        [CC_COLL_REDUCESCATTER] = "ncclReduceScatter",
        [CC_COLL_SEND] = "ncclSend",
        [CC_COLL_RECV] = "ncclRecv",
    };
    return op < CC_COLL_OP_COUNT && names[op] ? names[op] : "ncclOperation";
}

static int fail(cc_ev_collective *c)
{
    c->send_bytes = 0;
    c->recv_bytes = 0;
    return -1;
}

int cc_nccl_ranges(cc_ev_collective *c)
{
    uint64_t n, all;
    uint64_t ranks = c->nranks > 0 ? (uint64_t)c->nranks : 1;
    if (__builtin_mul_overflow(c->count, (uint64_t)c->elem_size, &n) ||
        __builtin_mul_overflow(n, ranks, &all))
        return fail(c);
    int root = c->rank >= 0 && c->rank == c->peer;
    switch (c->op) {
    case CC_COLL_ALLREDUCE: c->send_bytes = n; c->recv_bytes = n; break;
    case CC_COLL_BROADCAST:
        c->send_bytes = root ? n : 0;
        c->recv_bytes = root && c->sendbuff == c->recvbuff ? 0 : n;
        break;
    case CC_COLL_BCAST: c->send_bytes = root ? n : 0; c->recv_bytes = root ? 0 : n; break;
    case CC_COLL_REDUCE: c->send_bytes = n; c->recv_bytes = root ? n : 0; break;
    case CC_COLL_ALLGATHER: c->send_bytes = n; c->recv_bytes = all; break;
    case CC_COLL_REDUCESCATTER: c->send_bytes = all; c->recv_bytes = n; break;
    case CC_COLL_SEND: c->send_bytes = n; c->recv_bytes = 0; break;
    case CC_COLL_RECV: c->send_bytes = 0; c->recv_bytes = n; break;
    default: return fail(c);
    }
    return 0;
}
