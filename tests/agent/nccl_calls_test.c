/* nccl_calls_test: the agent's NCCL interposer (src/agent/host/nccl_calls.c, nccl_record.c)
 * against libcc_fake_nccl.so, without a GPU (test agent.nccl_calls). The interposer is linked
 * into this executable, ahead of the fake library, as the LD_PRELOADed agent is ahead of libnccl.
 * Checked: calls reach NCCL and return its result; one event per call NCCL took (ncclSuccess,
 * ncclInProgress), none for a refused call; the byte sizes from the communicator's rank and size
 * (reduce on and off the root, allgather); ncclBcast, which calls ncclBroadcast inside NCCL,
 * gives one event; a group's calls wait for the outermost ncclGroupEnd, keep call order and the
 * grouped flag, and are dropped when the group fails; without needs_collectives nothing is
 * emitted. The agent functions the interposer uses are stubbed here. Built twice: linked with
 * the fake (agent.nccl_calls), and as nccl_local_test, which dlopens it RTLD_LOCAL
 * (agent.nccl_calls_local_scope). */
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/host/nccl_calls.h"
#include "check.h"

typedef struct fake_comm {
    int rank, nranks;
} fake_comm;

#ifdef CC_FAKE_NCCL_LOCAL
/* nccl_local_test: the fake library is dlopen'ed with RTLD_LOCAL, as Python loads PyTorch (and
 * libnccl with it): its symbols are not global, and the interposer must still find them. */
#include <dlfcn.h>
#include <stdio.h>
static int *fake_result_p, *fake_calls_p;
#define fake_nccl_result (*fake_result_p)
#define fake_nccl_calls (*fake_calls_p)
#else
extern int fake_nccl_result, fake_nccl_calls;
#endif

int ncclAllReduce(const void *, void *, size_t, int, int, void *, void *);
int ncclBcast(void *, size_t, int, int, void *, void *);
int ncclReduce(const void *, void *, size_t, int, int, int, void *, void *);
int ncclAllGather(const void *, void *, size_t, int, void *, void *);
int ncclSend(const void *, size_t, int, int, void *, void *);
int ncclRecv(void *, size_t, int, int, void *, void *);
int ncclGroupStart(void);
int ncclGroupEnd(void);

/* ---- stubs of the agent ---- */
static cc_agent_plugin plugin = {.tool = "streamcheck", .needs_collectives = 1};
const cc_agent_plugin *cc_agent_plugin_g = &plugin;
static cc_event got[64];
static size_t ngot;

uint64_t cc_agent_callsite(void) { return 77; }
uint64_t cc_agent_handle_id(const void *handle) { return (uint64_t)(uintptr_t)handle; }
void cc_agent_note(const char *fmt, ...) { (void)fmt; }

void cc_agent_event_init(cc_event *ev, cc_event_kind kind)
{
    memset(ev, 0, sizeof *ev);
    ev->h.kind = (uint32_t)kind;
    ev->h.tid = 1;
}

uint64_t cc_agent_app_stream_id(CUstream stream, uint64_t *context)
{
    *context = 0xc0;
    return stream == NULL ? CC_STREAM_LEGACY : (uint64_t)(uintptr_t)stream;
}

void cc_agent_emit_many(const cc_event *evs, size_t n)
{
    for (size_t i = 0; i < n && ngot < sizeof got / sizeof got[0]; i++) got[ngot++] = evs[i];
}

void cc_agent_emit(const cc_event *ev) { cc_agent_emit_many(ev, 1); }

/* ---- the checks ---- */
static float a[1024], b[1024];
static fake_comm rank0 = {0, 4}, rank2 = {2, 4};
#define STREAM ((void *)0x5000)

static void test_single_calls(void)
{
    ngot = 0;
    CHECK_EQ_U64(ncclAllReduce(a, a, 1024, 7, 0, &rank0, STREAM), 0);
    CHECK_EQ_U64(ngot, 1);
    const cc_ev_collective *c = &got[0].u.collective;
    CHECK_EQ_U64(got[0].h.kind, CC_EV_COLLECTIVE);
    CHECK_EQ_U64(c->op, CC_COLL_ALLREDUCE);
    CHECK_EQ_U64(c->stream, 0x5000);
    CHECK_EQ_U64(c->context, 0xc0);
    CHECK_EQ_U64(c->sendbuff, (uintptr_t)a);
    CHECK_EQ_U64(c->recvbuff, (uintptr_t)a);
    CHECK_EQ_U64(c->send_bytes, 4096);
    CHECK_EQ_U64(c->recv_bytes, 4096);
    CHECK_EQ_U64(c->elem_size, 4);
    CHECK(c->rank == 0 && c->nranks == 4 && c->peer == -1);
    CHECK_EQ_U64(c->comm, (uintptr_t)&rank0);
    CHECK_EQ_U64(c->callsite, 77);
    CHECK_EQ_U64(c->flags, 0);

    /* reduce to root 2: rank 0 only reads, rank 2 also writes */
    ngot = 0;
    ncclReduce(a, b, 256, 7, 0, 2, &rank0, NULL);
    ncclReduce(a, b, 256, 7, 0, 2, &rank2, NULL);
    CHECK_EQ_U64(ngot, 2);
    CHECK_EQ_U64(got[0].u.collective.stream, CC_STREAM_LEGACY);
    CHECK_EQ_U64(got[0].u.collective.send_bytes, 1024);
    CHECK_EQ_U64(got[0].u.collective.recv_bytes, 0);
    CHECK_EQ_U64(got[1].u.collective.recv_bytes, 1024);
    CHECK_EQ_U64(got[1].u.collective.peer, 2);

    /* allgather: nranks times the send count */
    ngot = 0;
    ncclAllGather(a, b, 64, 6, &rank2, STREAM);
    CHECK_EQ_U64(ngot, 1);
    CHECK_EQ_U64(got[0].u.collective.send_bytes, 128);
    CHECK_EQ_U64(got[0].u.collective.recv_bytes, 512);

    /* ncclBcast reaches NCCL's ncclBroadcast through our ncclBroadcast: one event, bcast */
    ngot = 0;
    fake_nccl_calls = 0;
    CHECK_EQ_U64(ncclBcast(b, 100, 2, 0, &rank2, STREAM), 0);
    CHECK_EQ_U64(fake_nccl_calls, 2);
    CHECK_EQ_U64(ngot, 1);
    CHECK_EQ_U64(got[0].u.collective.op, CC_COLL_BCAST);
    CHECK_EQ_U64(got[0].u.collective.recv_bytes, 400); /* not the root: written */
    CHECK_EQ_U64(got[0].u.collective.send_bytes, 0);

    /* a refused call: its error comes back, no event; ncclInProgress: taken */
    ngot = 0;
    fake_nccl_result = 4; /* ncclInvalidArgument */
    CHECK_EQ_U64(ncclAllReduce(a, b, 1024, 7, 0, &rank0, STREAM), 4);
    CHECK_EQ_U64(ngot, 0);
    fake_nccl_result = 7;
    CHECK_EQ_U64(ncclSend(a, 16, 7, 1, &rank0, STREAM), 7);
    CHECK_EQ_U64(ngot, 1);
    fake_nccl_result = 0;
}

static void test_groups(void)
{
    ngot = 0;
    CHECK_EQ_U64(ncclGroupStart(), 0);
    ncclSend(a, 1024, 7, 1, &rank0, STREAM);
    CHECK_EQ_U64(ncclGroupStart(), 0); /* nested */
    ncclRecv(b, 1024, 7, 1, &rank0, STREAM);
    CHECK_EQ_U64(ncclGroupEnd(), 0);
    CHECK_EQ_U64(ngot, 0); /* the inner end enqueues nothing */
    ncclAllReduce(b, b, 8, 7, 0, &rank0, STREAM);
    CHECK_EQ_U64(ncclGroupEnd(), 0);
    CHECK_EQ_U64(ngot, 3); /* emitted after the outermost end, in call order */
    CHECK_EQ_U64(got[0].u.collective.op, CC_COLL_SEND);
    CHECK_EQ_U64(got[1].u.collective.op, CC_COLL_RECV);
    CHECK_EQ_U64(got[2].u.collective.op, CC_COLL_ALLREDUCE);
    CHECK_EQ_U64(got[1].u.collective.recv_bytes, 4096);
    CHECK_EQ_U64(got[1].u.collective.recvbuff, (uintptr_t)b);
    for (size_t i = 0; i < 3; i++) CHECK_EQ_U64(got[i].u.collective.flags, CC_COLL_FLAG_GROUPED);

    /* a group that fails at its end: its calls are dropped */
    ngot = 0;
    ncclGroupStart();
    ncclSend(a, 1024, 7, 1, &rank0, STREAM);
    fake_nccl_result = 3; /* ncclInternalError */
    CHECK_EQ_U64(ncclGroupEnd(), 3);
    fake_nccl_result = 0;
    CHECK_EQ_U64(ngot, 0);
    /* an unmatched end (NCCL refuses it) leaves later calls ungrouped */
    CHECK_EQ_U64(ncclGroupEnd(), 5);
    ncclRecv(b, 4, 7, 1, &rank0, STREAM);
    CHECK_EQ_U64(ngot, 1);
    CHECK_EQ_U64(got[0].u.collective.flags, 0);
}

static void test_not_wanted(void)
{
    plugin.needs_collectives = 0;
    ngot = 0;
    fake_nccl_calls = 0;
    ncclGroupStart();
    ncclAllReduce(a, a, 1024, 7, 0, &rank0, STREAM);
    ncclGroupEnd();
    ncclAllReduce(a, a, 1024, 7, 0, &rank0, STREAM);
    CHECK_EQ_U64(fake_nccl_calls, 4); /* still forwarded */
    CHECK_EQ_U64(ngot, 0);
    plugin.needs_collectives = 1;
}

int main(void)
{
#ifdef CC_FAKE_NCCL_LOCAL
    void *h = dlopen(CC_FAKE_NCCL_LOCAL, RTLD_NOW | RTLD_LOCAL);
    fake_result_p = h != NULL ? dlsym(h, "fake_nccl_result") : NULL;
    fake_calls_p = h != NULL ? dlsym(h, "fake_nccl_calls") : NULL;
    if (fake_result_p == NULL || fake_calls_p == NULL) {
        fprintf(stderr, "cannot load %s: %s\n", CC_FAKE_NCCL_LOCAL, dlerror());
        return 1;
    }
    CHECK(dlsym(RTLD_DEFAULT, "fake_nccl_calls") == NULL); /* not in the global scope */
#endif
    test_single_calls();
    test_groups();
    test_not_wanted();
    TEST_MAIN_END();
}
