/* libcc_fake_nccl.so: a stand-in for libnccl with the NCCL functions the agent interposes, for
 * nccl_calls_test. Every call returns the result the test set (fake_nccl_result) and counts
 * itself; ncclBcast calls ncclBroadcast through the PLT as NCCL does (so it reaches the
 * interposer again); ncclGroupEnd refuses an unmatched end like NCCL. A communicator is a
 * fake_comm holding its rank and size. */
#include <stddef.h>

typedef struct fake_comm {
    int rank, nranks;
} fake_comm;

int fake_nccl_result;       /* what the next calls return */
int fake_nccl_calls;        /* calls that reached this library */
static int fake_group_depth;

int ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, int datatype, int root,
                  void *comm, void *stream);

int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op,
                  void *comm, void *stream)
{
    (void)sendbuff, (void)recvbuff, (void)count, (void)datatype, (void)op, (void)comm,
        (void)stream;
    fake_nccl_calls++;
    return fake_nccl_result;
}

int ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, int datatype, int root,
                  void *comm, void *stream)
{
    (void)sendbuff, (void)recvbuff, (void)count, (void)datatype, (void)root, (void)comm,
        (void)stream;
    fake_nccl_calls++;
    return fake_nccl_result;
}

int ncclBcast(void *buff, size_t count, int datatype, int root, void *comm, void *stream)
{
    fake_nccl_calls++;
    return ncclBroadcast(buff, buff, count, datatype, root, comm, stream);
}

int ncclReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op, int root,
               void *comm, void *stream)
{
    (void)sendbuff, (void)recvbuff, (void)count, (void)datatype, (void)op, (void)root,
        (void)comm, (void)stream;
    fake_nccl_calls++;
    return fake_nccl_result;
}

int ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, int datatype,
                  void *comm, void *stream)
{
    (void)sendbuff, (void)recvbuff, (void)sendcount, (void)datatype, (void)comm, (void)stream;
    fake_nccl_calls++;
    return fake_nccl_result;
}

int ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount, int datatype,
                      int op, void *comm, void *stream)
{
    (void)sendbuff, (void)recvbuff, (void)recvcount, (void)datatype, (void)op, (void)comm,
        (void)stream;
    fake_nccl_calls++;
    return fake_nccl_result;
}

int ncclSend(const void *sendbuff, size_t count, int datatype, int peer, void *comm,
             void *stream)
{
    (void)sendbuff, (void)count, (void)datatype, (void)peer, (void)comm, (void)stream;
    fake_nccl_calls++;
    return fake_nccl_result;
}

int ncclRecv(void *recvbuff, size_t count, int datatype, int peer, void *comm, void *stream)
{
    (void)recvbuff, (void)count, (void)datatype, (void)peer, (void)comm, (void)stream;
    fake_nccl_calls++;
    return fake_nccl_result;
}

int ncclGroupStart(void)
{
    fake_nccl_calls++;
    fake_group_depth++;
    return 0;
}

int ncclGroupEnd(void)
{
    fake_nccl_calls++;
    if (fake_group_depth == 0) {
        return 5; /* ncclInvalidUsage */
    }
    fake_group_depth--;
    return fake_group_depth > 0 ? 0 : fake_nccl_result;
}

int ncclCommUserRank(const void *comm, int *rank)
{
    *rank = ((const fake_comm *)comm)->rank;
    return 0;
}

int ncclCommCount(const void *comm, int *count)
{
    *count = ((const fake_comm *)comm)->nranks;
    return 0;
}
