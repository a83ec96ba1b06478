/* The NCCL size rules of core/nccl_ops.h that the agent's interposer applies to every call:
 * datatype sizes, each operation's read and write bytes on the root and off it, in place,
 * unknown rank and communicator size, overflow, and the API names reports use. */
#include <string.h>
#include "check.h"
#include "core/nccl_ops.h"

static cc_ev_collective call(uint32_t op, uint64_t count, int32_t datatype, int32_t peer,
                             int32_t rank, int32_t nranks)
{
    cc_ev_collective c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.count = count;
    c.datatype = (uint32_t)datatype;
    c.elem_size = cc_nccl_type_size(datatype);
    c.peer = peer;
    c.rank = rank;
    c.nranks = nranks;
    c.sendbuff = 0x1000;
    c.recvbuff = 0x9000;
    return c;
}

/* The read and write bytes of one call. */
static void expect(cc_ev_collective c, uint64_t send, uint64_t recv)
{
    CHECK_EQ_U64(cc_nccl_ranges(&c), 0);
    CHECK_EQ_U64(c.send_bytes, send);
    CHECK_EQ_U64(c.recv_bytes, recv);
}

static void test_type_sizes(void)
{
    static const uint32_t want[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
    for (int32_t t = 0; t < 12; t++) CHECK_EQ_U64(cc_nccl_type_size(t), want[t]);
    CHECK_EQ_U64(cc_nccl_type_size(12), 0);
    CHECK_EQ_U64(cc_nccl_type_size(-1), 0);
}

static void test_rules(void)
{
    const int32_t f32 = 7, f16 = 6, i64 = 4;
    expect(call(CC_COLL_ALLREDUCE, 1000, f32, -1, 0, 4), 4000, 4000);
    /* broadcast: root 1 of 4 reads its send buffer and writes its receive buffer */
    expect(call(CC_COLL_BROADCAST, 10, i64, 1, 1, 4), 80, 80);
    expect(call(CC_COLL_BROADCAST, 10, i64, 1, 2, 4), 0, 80);
    cc_ev_collective inplace = call(CC_COLL_BROADCAST, 10, i64, 1, 1, 4);
    inplace.recvbuff = inplace.sendbuff;
    expect(inplace, 80, 0); /* the root's buffer is only read */
    expect(call(CC_COLL_BCAST, 10, f16, 0, 0, 2), 20, 0);
    expect(call(CC_COLL_BCAST, 10, f16, 0, 1, 2), 0, 20);
    /* reduce: every rank reads; only the root writes */
    expect(call(CC_COLL_REDUCE, 256, f32, 0, 0, 8), 1024, 1024);
    expect(call(CC_COLL_REDUCE, 256, f32, 0, 3, 8), 1024, 0);
    /* allgather: sendcount elements in, nranks times that out; reducescatter the reverse */
    expect(call(CC_COLL_ALLGATHER, 100, f32, -1, 2, 8), 400, 3200);
    expect(call(CC_COLL_REDUCESCATTER, 100, f32, -1, 2, 8), 3200, 400);
    expect(call(CC_COLL_SEND, 64, f16, 3, 0, 4), 128, 0);
    expect(call(CC_COLL_RECV, 64, f16, 3, 0, 4), 0, 128);
}

static void test_unknowns(void)
{
    /* rank unknown: taken as not the root */
    expect(call(CC_COLL_REDUCE, 4, 7, 0, -1, 2), 16, 0);
    expect(call(CC_COLL_BROADCAST, 4, 7, 0, -1, 2), 0, 16);
    expect(call(CC_COLL_BCAST, 4, 7, 0, -1, 2), 0, 16);
    /* communicator size unknown: one rank's share */
    expect(call(CC_COLL_ALLGATHER, 4, 7, -1, 0, 0), 16, 16);
    expect(call(CC_COLL_REDUCESCATTER, 4, 7, -1, 0, -1), 16, 16);
    /* datatype unknown: nothing is touched */
    expect(call(CC_COLL_ALLREDUCE, 4, 42, -1, 0, 2), 0, 0);
    /* sizes beyond 64 bits, and an unknown op */
    cc_ev_collective big = call(CC_COLL_ALLREDUCE, UINT64_MAX / 2, 7, -1, 0, 2);
    CHECK(cc_nccl_ranges(&big) == -1);
    CHECK_EQ_U64(big.send_bytes + big.recv_bytes, 0);
    cc_ev_collective gather = call(CC_COLL_ALLGATHER, UINT64_MAX / 16, 7, -1, 0, 8);
    CHECK(cc_nccl_ranges(&gather) == -1);
    cc_ev_collective odd = call(CC_COLL_OP_COUNT, 4, 7, -1, 0, 2);
    CHECK(cc_nccl_ranges(&odd) == -1);
}

static void test_names(void)
{
    CHECK_STR(cc_nccl_api_name(CC_COLL_ALLREDUCE), "ncclAllReduce");
    CHECK_STR(cc_nccl_api_name(CC_COLL_BCAST), "ncclBcast");
    CHECK_STR(cc_nccl_api_name(CC_COLL_REDUCESCATTER), "ncclReduceScatter");
    CHECK_STR(cc_nccl_api_name(CC_COLL_RECV), "ncclRecv");
    CHECK_STR(cc_nccl_api_name(0), "ncclOperation");
    CHECK_STR(cc_nccl_api_name(99), "ncclOperation");
}

int main(void)
{
    test_type_sizes();
    test_rules();
    test_unknowns();
    test_names();
    TEST_MAIN_END();
}
