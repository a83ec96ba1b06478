/* nccl_race: an NCCL allreduce against a kernel on another stream, on one GPU with a one-rank
 * communicator (ncclCommInitAll(&comm, 1, &dev0)). NCCL is loaded with dlopen("libnccl.so.2",
 * RTLD_GLOBAL) and its functions taken with dlsym(RTLD_DEFAULT, ...), so that the preloaded
 * cucheck agent's interposers are found first (as for a program linked with NCCL); the
 * prototypes are declared here. The allreduce is in place, on which a one-rank NCCL enqueues
 * no copy. argv[1] picks the case:
 *   race       write_grad (stream A) writes grad, ncclAllReduce (stream B) reads and writes it
 *              with no wait: streamcheck reports ncclAllReduce against write_grad
 *   ok         the same, B waits for an event recorded on A after write_grad: clean
 *   read_race  B waits for the write; then read_grad (A) reads grad with no wait for the
 *              allreduce: streamcheck reports read_grad against ncclAllReduce
 *   read_ok    the same, A waits for an event recorded on B after the allreduce: clean
 *   group      read_race's bug with the allreduce inside ncclGroupStart/ncclGroupEnd
 *   probe      only load NCCL
 * Exit 0 done, 1 a CUDA or NCCL call failed, 2 bad usage, 77 libnccl.so.2 cannot be loaded or
 * lacks a function (the runner skips the case). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "sc_common.h"

typedef struct nccl_comm *nccl_comm_t;
typedef int (*comm_init_all_fn)(nccl_comm_t *, int, const int *);
typedef int (*comm_destroy_fn)(nccl_comm_t);
typedef int (*all_reduce_fn)(const void *, void *, size_t, int, int, nccl_comm_t, cudaStream_t);
typedef int (*group_fn)(void);
enum { NCCL_FLOAT32 = 7, NCCL_SUM = 0, N = 1 << 20 };

#define NK(call)                                                                           \
    do {                                                                                   \
        int r_ = (call);                                                                   \
        if (r_ != 0) {                                                                     \
            fprintf(stderr, "%s:%d: %s: NCCL error %d\n", __FILE__, __LINE__, #call, r_); \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

__global__ void write_grad(float *g, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) g[i] = 0.5f * (float)i;
}

__global__ void read_grad(const float *g, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * g[i];
}

static void *nccl_fn(const char *name)
{
    void *f = dlsym(RTLD_DEFAULT, name);
    if (f == NULL) fprintf(stderr, "nccl_race: %s not found: skipped\n", name);
    return f;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int race = strcmp(mode, "race") == 0, ok = strcmp(mode, "ok") == 0;
    int read_race = strcmp(mode, "read_race") == 0, read_ok = strcmp(mode, "read_ok") == 0;
    int group = strcmp(mode, "group") == 0, probe = strcmp(mode, "probe") == 0;
    if (!race && !ok && !read_race && !read_ok && !group && !probe) {
        fprintf(stderr, "usage: nccl_race race|ok|read_race|read_ok|group|probe\n");
        return 2;
    }
    if (dlopen("libnccl.so.2", RTLD_NOW | RTLD_GLOBAL) == NULL) {
        fprintf(stderr, "nccl_race: cannot load libnccl.so.2 (%s): skipped\n", dlerror());
        return 77;
    }
    comm_init_all_fn comm_init_all = (comm_init_all_fn)nccl_fn("ncclCommInitAll");
    comm_destroy_fn comm_destroy = (comm_destroy_fn)nccl_fn("ncclCommDestroy");
    all_reduce_fn all_reduce = (all_reduce_fn)nccl_fn("ncclAllReduce");
    group_fn group_start = (group_fn)nccl_fn("ncclGroupStart");
    group_fn group_end = (group_fn)nccl_fn("ncclGroupEnd");
    if (!comm_init_all || !comm_destroy || !all_reduce || !group_start || !group_end) return 77;
    if (probe) {
        printf("nccl_race: libnccl.so.2 loaded\n");
        return 0;
    }

    int dev0 = 0;
    nccl_comm_t comm;
    CK(cudaSetDevice(dev0));
    NK(comm_init_all(&comm, 1, &dev0));
    float *grad, *out;
    cudaStream_t a, b;
    cudaEvent_t written, reduced;
    CK(cudaMalloc(&grad, N * sizeof(float)));
    CK(cudaMalloc(&out, N * sizeof(float)));
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&reduced, cudaEventDisableTiming));

    write_grad<<<N / 256, 256, 0, a>>>(grad, N);
    CK(cudaGetLastError());
    if (!race) { /* BUG in `race`: the NCCL stream does not wait for the write */
        CK(cudaEventRecord(written, a));
        CK(cudaStreamWaitEvent(b, written, 0));
    }
    if (group) NK(group_start());
    NK(all_reduce(grad, grad, N, NCCL_FLOAT32, NCCL_SUM, comm, b));
    if (group) NK(group_end());
    if (read_ok) {
        CK(cudaEventRecord(reduced, b));
        CK(cudaStreamWaitEvent(a, reduced, 0));
    }
    if (read_race || read_ok || group) { /* BUG in read_race, group: no wait for the allreduce */
        read_grad<<<N / 256, 256, 0, a>>>(grad, out, N);
        CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());
    NK(comm_destroy(comm));
    CK(cudaFree(grad));
    CK(cudaFree(out));
    printf("nccl_race %s: done\n", mode);
    return 0;
}
