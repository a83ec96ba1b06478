/* Stress program for fatal endings right after a buggy kernel: four host threads keep launching
 * clean kernels on their own non-blocking streams; once each has made 200 launches, the main
 * thread launches `fatal_overrun` three times (4 blocks of 256 threads) on its own stream and, at
 * once, before any synchronization, ends the process: `abort()` (SIGABRT, status 134 under a
 * shell) or a write through a null pointer (a real host SIGSEGV, status 139).
 *
 * Without "clean" the launches write one element past their buffer: exactly one distinct
 * invalid-global-write under memcheck, in `fatal_overrun` at the BUG line, by thread (232,0,0)
 * of block (3,0,0), size 4. The agent must still report it: findings are written as they are
 * found and the agent drains at a fatal signal. With "clean" nothing may be reported. The write
 * lands in the allocation's padding, so natively only the abort or the SIGSEGV ends the program.
 *
 * stdout: "stress_fatal: overrun, then abort|segv" (flushed before the launches).
 * usage: stress_fatal abort|segv [clean] */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#define STRESS_NAME "stress_fatal"
#include "stress_common.h"


#define N 1000
#define BUSY_THREADS 4
#define LAUNCHES_FIRST 200
#define BUSY_LAUNCHES_MAX 1000000

__global__ void fatal_busy(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * 0.5f + 1.0f;
}

__global__ void fatal_overrun(float *out, int n, int bug)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n + bug) out[i] = 3.0f; /* BUG with bug == 1: i == n writes one past the end */
}

static int g_launched[BUSY_THREADS];

/* Launches until the process ends (it is never joined); synchronizes now and then so that the
 * queue stays short. */
static void *busy_worker(void *arg)
{
    int id = (int)(long)arg;
    cudaStream_t s;
    float *buf;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&buf, N * sizeof(float)));
    CHECK(cudaMemsetAsync(buf, 0, N * sizeof(float), s));
    for (int k = 0; k < BUSY_LAUNCHES_MAX; k++) {
        fatal_busy<<<(N + 127) / 128, 128, 0, s>>>(buf, N);
        if (k % 64 == 63) CHECK(cudaStreamSynchronize(s));
        __atomic_store_n(&g_launched[id], k + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void host_segfault(void)
{
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
}

int main(int argc, char **argv)
{
    int segv = argc > 1 && strcmp(argv[1], "segv") == 0;
    int abrt = argc > 1 && strcmp(argv[1], "abort") == 0;
    int clean = argc > 2 && strcmp(argv[2], "clean") == 0;
    if ((!segv && !abrt) || argc > 3 || (argc == 3 && !clean)) {
        fprintf(stderr, "usage: stress_fatal abort|segv [clean]\n");
        return 2;
    }
    CHECK(cudaFree(0));
    cudaStream_t s;
    float *out;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&out, N * sizeof(float)));
    CHECK(cudaMemsetAsync(out, 0, N * sizeof(float), s)); /* ordered before the launches on s */
    pthread_t t[BUSY_THREADS];
    for (long i = 0; i < BUSY_THREADS; i++) {
        if (pthread_create(&t[i], NULL, busy_worker, (void *)i) != 0) {
            fprintf(stderr, "stress_fatal: cannot start a thread\n");
            return 1;
        }
    }
    for (int i = 0; i < BUSY_THREADS; i++) {
        while (__atomic_load_n(&g_launched[i], __ATOMIC_ACQUIRE) < LAUNCHES_FIRST) {
            sched_yield();
        }
    }
    printf("stress_fatal: overrun, then %s\n", segv ? "segv" : "abort");
    fflush(stdout);
    for (int r = 0; r < 3; r++) {
        fatal_overrun<<<(N + 255) / 256, 256, 0, s>>>(out, N, clean ? 0 : 1);
    }
    if (segv) {
        host_segfault();
    }
    abort();
}
