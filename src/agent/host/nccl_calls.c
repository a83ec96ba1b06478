/* NCCL's API, interposed: when the agent is LD_PRELOADed these definitions come before
 * libnccl's in the global symbol order, so a program (or PyTorch) linked with NCCL, or one that
 * resolves NCCL through dlsym(RTLD_DEFAULT, ...), calls them. Each forwards to NCCL's own
 * function (resolved on first use and kept: dlsym(RTLD_NEXT), else in the loaded objects, where
 * a library loaded with RTLD_LOCAL keeps it; looked up again while NCCL is not loaded, when the
 * call returns ncclSystemError) and hands the calls NCCL took to
 * nccl_record.c. NCCL calling its own public functions (ncclBcast calls ncclBroadcast through
 * its PLT) reaches these wrappers too: a call made while a wrapper of the same thread runs is
 * only forwarded. Not interposed: a program that takes the functions from a dlopen handle
 * (dlsym(handle, ...)), NCCL linked statically, an agent loaded only through
 * CUDA_INJECTION64_PATH. */
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent/host/nccl_calls.h"
#include "cucheck/event.h"

#define CC_EXPORT __attribute__((visibility("default")))

typedef int (*coll_fn)(const void *, void *, size_t, int, int, void *, void *);
typedef int (*bcast_fn)(void *, size_t, int, int, void *, void *);
typedef int (*reduce_fn)(const void *, void *, size_t, int, int, int, void *, void *);
typedef int (*gather_fn)(const void *, void *, size_t, int, void *, void *);
typedef int (*send_fn)(const void *, size_t, int, int, void *, void *);
typedef int (*recv_fn)(void *, size_t, int, int, void *, void *);
typedef int (*group_fn)(void);
typedef int (*simulate_fn)(void *);

static _Thread_local int cc_nccl_inside; /* a wrapper of this thread is running */

/* NCCL's `name` in a loaded object other than the agent: found where RTLD_NEXT does not look,
 * in a library loaded into a local scope (Python imports torch's libtorch_cuda.so with
 * RTLD_LOCAL, and libnccl.so.2 comes with it, so its symbols are not global; libtorch_cuda's
 * calls still bind to the agent's definitions, which are). The objects' names are copied
 * first, and dlopen(RTLD_NOLOAD) runs outside dl_iterate_phdr's callback. */
enum { CC_NCCL_MAX_OBJECTS = 1024 };
typedef struct cc_nccl_objects {
    char *names[CC_NCCL_MAX_OBJECTS];
    size_t n;
} cc_nccl_objects;

static int cc_nccl_collect(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    cc_nccl_objects *o = arg;
    if (info->dlpi_name != NULL && info->dlpi_name[0] != '\0' && o->n < CC_NCCL_MAX_OBJECTS) {
        char *copy = strdup(info->dlpi_name);
        if (copy != NULL) {
            o->names[o->n++] = copy;
        }
    }
    return 0;
}

/* f, unless it is one of the agent's own functions (then NULL). */
static void *cc_nccl_not_ours(void *f)
{
    Dl_info mine, theirs;
    if (f == NULL || dladdr((void *)cc_nccl_collect, &mine) == 0 || dladdr(f, &theirs) == 0) {
        return f;
    }
    return theirs.dli_fbase == mine.dli_fbase ? NULL : f;
}

static void *cc_nccl_in_loaded(const char *name, const char *library)
{
    void *h = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL) {
        return NULL;
    }
    void *f = cc_nccl_not_ours(dlsym(h, name));
    dlclose(h); /* the object stays: it was loaded before */
    return f;
}

void *cc_nccl_lookup(const char *name)
{
    void *f = cc_nccl_not_ours(dlsym(RTLD_NEXT, name));
    if (f == NULL) {
        f = cc_nccl_in_loaded(name, "libnccl.so.2");
    }
    if (f == NULL) {
        cc_nccl_objects *o = calloc(1, sizeof *o);
        if (o == NULL) {
            return NULL;
        }
        dl_iterate_phdr(cc_nccl_collect, o);
        for (size_t i = 0; i < o->n; i++) {
            if (f == NULL && strstr(o->names[i], "nccl") != NULL) { /* NCCL's own first */
                f = cc_nccl_in_loaded(name, o->names[i]);
            }
        }
        for (size_t i = 0; i < o->n; i++) {
            if (f == NULL) {
                f = cc_nccl_in_loaded(name, o->names[i]);
            }
            free(o->names[i]);
        }
        free(o);
    }
    return f;
}

/* NCCL's own name into *fn (a function pointer of size n); 0 when NCCL is not loaded (said once
 * on stderr). */
static int cc_nccl_real(const char *name, void *_Atomic *slot, void *fn, size_t n)
{
    void *f = atomic_load_explicit(slot, memory_order_acquire);
    if (f == NULL) {
        f = cc_nccl_lookup(name);
        if (f == NULL) {
            static atomic_int said;
            if (!atomic_exchange(&said, 1)) {
                fprintf(stderr, "cucheck: %s called, but no NCCL library is loaded after the "
                                "cucheck agent: returning ncclSystemError\n", name);
            }
            return 0;
        }
        atomic_store_explicit(slot, f, memory_order_release);
    }
    memcpy(fn, &f, n);
    return 1;
}

#define CC_NCCL_REAL(type, name)                                                            \
    static void *_Atomic real_slot;                                                         \
    type real;                                                                              \
    if (!cc_nccl_real(name, &real_slot, &real, sizeof real)) {                              \
        return CC_NCCL_SYSTEM_ERROR;                                                        \
    }

/* Run `call` as the thread's outermost wrapper (or just forward inside another one), then
 * record c if NCCL took it. */
#define CC_NCCL_FORWARD(call, c)                                                            \
    do {                                                                                    \
        if (cc_nccl_inside) {                                                               \
            return (call);                                                                  \
        }                                                                                   \
        cc_nccl_inside = 1;                                                                 \
        int r_ = (call);                                                                    \
        cc_nccl_inside = 0;                                                                 \
        if (cc_nccl_taken(r_)) {                                                            \
            cc_nccl_record(c);                                                              \
        }                                                                                   \
        return r_;                                                                          \
    } while (0)

CC_EXPORT int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype,
                            int op, void *comm, void *stream)
{
    CC_NCCL_REAL(coll_fn, "ncclAllReduce");
    cc_nccl_call c = {CC_COLL_ALLREDUCE, sendbuff, recvbuff, count, datatype, -1, comm, stream};
    CC_NCCL_FORWARD(real(sendbuff, recvbuff, count, datatype, op, comm, stream), &c);
}

CC_EXPORT int ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, int datatype,
                            int root, void *comm, void *stream)
{
    CC_NCCL_REAL(coll_fn, "ncclBroadcast");
    cc_nccl_call c = {CC_COLL_BROADCAST, sendbuff, recvbuff, count, datatype, root, comm, stream};
    CC_NCCL_FORWARD(real(sendbuff, recvbuff, count, datatype, root, comm, stream), &c);
}

CC_EXPORT int ncclBcast(void *buff, size_t count, int datatype, int root, void *comm,
                        void *stream)
{
    CC_NCCL_REAL(bcast_fn, "ncclBcast");
    cc_nccl_call c = {CC_COLL_BCAST, buff, buff, count, datatype, root, comm, stream};
    CC_NCCL_FORWARD(real(buff, count, datatype, root, comm, stream), &c);
}

CC_EXPORT int ncclReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op,
                         int root, void *comm, void *stream)
{
    CC_NCCL_REAL(reduce_fn, "ncclReduce");
    cc_nccl_call c = {CC_COLL_REDUCE, sendbuff, recvbuff, count, datatype, root, comm, stream};
    CC_NCCL_FORWARD(real(sendbuff, recvbuff, count, datatype, op, root, comm, stream), &c);
}

CC_EXPORT int ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, int datatype,
                            void *comm, void *stream)
{
    CC_NCCL_REAL(gather_fn, "ncclAllGather");
    cc_nccl_call c = {CC_COLL_ALLGATHER, sendbuff, recvbuff, sendcount, datatype, -1, comm,
                      stream};
    CC_NCCL_FORWARD(real(sendbuff, recvbuff, sendcount, datatype, comm, stream), &c);
}

CC_EXPORT int ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
                                int datatype, int op, void *comm, void *stream)
{
    CC_NCCL_REAL(coll_fn, "ncclReduceScatter");
    cc_nccl_call c = {CC_COLL_REDUCESCATTER, sendbuff, recvbuff, recvcount, datatype, -1, comm,
                      stream};
    CC_NCCL_FORWARD(real(sendbuff, recvbuff, recvcount, datatype, op, comm, stream), &c);
}

CC_EXPORT int ncclSend(const void *sendbuff, size_t count, int datatype, int peer, void *comm,
                       void *stream)
{
    CC_NCCL_REAL(send_fn, "ncclSend");
    cc_nccl_call c = {CC_COLL_SEND, sendbuff, NULL, count, datatype, peer, comm, stream};
    CC_NCCL_FORWARD(real(sendbuff, count, datatype, peer, comm, stream), &c);
}

CC_EXPORT int ncclRecv(void *recvbuff, size_t count, int datatype, int peer, void *comm,
                       void *stream)
{
    CC_NCCL_REAL(recv_fn, "ncclRecv");
    cc_nccl_call c = {CC_COLL_RECV, NULL, recvbuff, count, datatype, peer, comm, stream};
    CC_NCCL_FORWARD(real(recvbuff, count, datatype, peer, comm, stream), &c);
}

/* Groups are counted per thread, as NCCL counts them; NCCL's internal groups (ncclCommInitAll
 * opens one) reach these wrappers too and stay balanced. */
CC_EXPORT int ncclGroupStart(void)
{
    CC_NCCL_REAL(group_fn, "ncclGroupStart");
    if (cc_nccl_inside) {
        return real();
    }
    int r = real();
    cc_nccl_group_start(cc_nccl_taken(r));
    return r;
}

CC_EXPORT int ncclGroupEnd(void)
{
    CC_NCCL_REAL(group_fn, "ncclGroupEnd");
    if (cc_nccl_inside) {
        return real();
    }
    cc_nccl_inside = 1; /* NCCL enqueues the group's work here */
    int r = real();
    cc_nccl_inside = 0;
    cc_nccl_group_end(cc_nccl_taken(r));
    return r;
}

/* NCCL 2.22 and later: closes a group without running it. */
CC_EXPORT int ncclGroupSimulateEnd(void *sim_info)
{
    CC_NCCL_REAL(simulate_fn, "ncclGroupSimulateEnd");
    if (cc_nccl_inside) {
        return real(sim_info);
    }
    int r = real(sim_info);
    cc_nccl_group_end(0);
    return r;
}
