/* Stress program for the agent's locking: T host threads (argv[1], default 8), each with two
 * non-blocking streams (its main stream and a side stream), launch L kernels (argv[2], default
 * 3000) of five kernels in seven launch shapes (1D and 2D grids, static and dynamic shared
 * memory, `<<<>>>` and cudaLaunchKernelEx; one kernel's block size depends on the thread), with,
 * every few launches, a cross-stream hand-off ordered by events, a stream-ordered allocation
 * (cudaMallocAsync, device-to-device copy, kernel, cudaFreeAsync), and a short-lived cudaMalloc
 * buffer used, copied back, synchronized and freed. Every stream's work is ordered: no races, no
 * API errors, nothing leaked.
 *
 * At the end every thread launches `stress_overrun`: the last thread three times in 4 blocks of
 * 256 threads, the others once in 8 blocks of 128. With argv[3] == "bug" the last thread's
 * launches write one element past their buffer: exactly one distinct invalid-global-write under
 * memcheck, in `stress_overrun` at the BUG line, by thread (232,0,0) of block (3,0,0), size 4
 * (three launches of one shape, so that adaptive mode checks at least one of them). The write
 * lands in the allocation's padding, so natively nothing fails.
 *
 * Prints "stress_threads: done <checksum>" (the same for every run with the same T and L) and
 * exits 0. usage: stress_threads [THREADS 1..256] [LAUNCHES] [bug] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#define STRESS_NAME "stress_threads"
#include "stress_common.h"


#define N 1000
#define MAX_THREADS 256

__global__ void stress_scale(float *p, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * f + 1.0f;
}

__global__ void stress_add(float *dst, const float *src, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        dst[i] += src[i];
    }
}

__global__ void stress_tile2d(float *p, int n)
{
    int block = blockIdx.y * gridDim.x + blockIdx.x;
    int i = block * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * 0.5f + 0.5f;
}

__global__ void stress_sum(const float *p, int n, float *out)
{
    __shared__ float part[256];
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += p[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = part[0];
}

/* The same reduction over dynamic shared memory (blockDim.x floats, a power of two). */
__global__ void stress_sum_dyn(const float *p, int n, float *out)
{
    extern __shared__ float part_dyn[];
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += p[i];
    part_dyn[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if ((int)threadIdx.x < w) part_dyn[threadIdx.x] += part_dyn[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = part_dyn[0];
}

__global__ void stress_overrun(float *out, int n, int bug)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n + bug) out[i] = 2.0f; /* BUG with bug == 1: i == n writes one past the end */
}

static int g_launches = 3000;
static int g_threads = 8;
static int g_bug = 0;
static double g_sums[MAX_THREADS];

/* One thread's streams, events and buffers. */
typedef struct {
    cudaStream_t main, side;
    cudaEvent_t main_done, side_done;
    float *a, *b, *c, *sum;
} lane;

static void lane_open(lane *l, float *host)
{
    CHECK(cudaStreamCreateWithFlags(&l->main, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&l->side, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&l->main_done, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&l->side_done, cudaEventDisableTiming));
    CHECK(cudaMalloc((void **)&l->a, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&l->b, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&l->c, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&l->sum, sizeof(float)));
    for (int i = 0; i < N; i++) host[i] = (float)(i % 7);
    CHECK(cudaMemcpyAsync(l->a, host, N * sizeof(float), cudaMemcpyHostToDevice, l->main));
    CHECK(cudaMemsetAsync(l->b, 0, N * sizeof(float), l->main));
    CHECK(cudaMemsetAsync(l->c, 0, N * sizeof(float), l->side));
}

static void lane_close(lane *l)
{
    CHECK(cudaStreamSynchronize(l->main));
    CHECK(cudaStreamSynchronize(l->side));
    CHECK(cudaFree(l->a));
    CHECK(cudaFree(l->b));
    CHECK(cudaFree(l->c));
    CHECK(cudaFree(l->sum));
    CHECK(cudaEventDestroy(l->main_done));
    CHECK(cudaEventDestroy(l->side_done));
    CHECK(cudaStreamDestroy(l->main));
    CHECK(cudaStreamDestroy(l->side));
}

/* Launch k of a thread: five kernels, seven shapes. */
static void launch_one(lane *l, int id, int k)
{
    cudaStream_t s = l->main;
    int bs = 64 << (id % 3); /* 64, 128 or 256 threads: the shape depends on the thread */
    switch (k % 6) {
    case 0: stress_scale<<<(N + bs - 1) / bs, bs, 0, s>>>(l->a, N, 0.5f); break;
    case 1: stress_scale<<<(N + 255) / 256, 256, 0, s>>>(l->b, N, 0.25f); break;
    case 2: stress_add<<<2, 64, 0, s>>>(l->b, l->a, N); break;
    case 3: stress_sum<<<1, 256, 0, s>>>(l->b, N, l->sum); break;
    case 4: stress_tile2d<<<dim3(4, 2), dim3(32, 4), 0, s>>>(l->b, N); break;
    default: {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(1);
        cfg.blockDim = dim3(128);
        cfg.dynamicSmemBytes = 128 * sizeof(float);
        cfg.stream = s;
        CHECK(cudaLaunchKernelEx(&cfg, stress_sum_dyn, (const float *)l->b, (int)N, l->sum));
        break;
    }
    }
}

/* The side stream reads a (written on the main stream) into c; events order both ways. */
static void hand_off(lane *l)
{
    CHECK(cudaEventRecord(l->main_done, l->main));
    CHECK(cudaStreamWaitEvent(l->side, l->main_done, 0));
    stress_add<<<3, 96, 0, l->side>>>(l->c, l->a, N);
    CHECK(cudaEventRecord(l->side_done, l->side));
    CHECK(cudaStreamWaitEvent(l->main, l->side_done, 0));
}

/* A stream-ordered allocation, filled, used and freed on the main stream. */
static void stream_ordered(lane *l)
{
    float *p;
    CHECK(cudaMallocAsync((void **)&p, N * sizeof(float), l->main));
    CHECK(cudaMemcpyAsync(p, l->a, N * sizeof(float), cudaMemcpyDeviceToDevice, l->main));
    stress_scale<<<(N + 127) / 128, 128, 0, l->main>>>(p, N, 2.0f);
    CHECK(cudaFreeAsync(p, l->main));
}

/* A short-lived cudaMalloc buffer, used, copied back, synchronized and freed. */
static void short_lived(lane *l, int k, float *host)
{
    float *t;
    CHECK(cudaMalloc((void **)&t, (size_t)(k % 5 + 1) * N * sizeof(float)));
    CHECK(cudaMemsetAsync(t, 0, N * sizeof(float), l->main));
    stress_add<<<4, 128, 0, l->main>>>(t, l->a, N);
    CHECK(cudaMemcpyAsync(host, t, N * sizeof(float), cudaMemcpyDeviceToHost, l->main));
    CHECK(cudaStreamSynchronize(l->main));
    CHECK(cudaFree(t));
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    lane l;
    float host[N];
    lane_open(&l, host);
    for (int k = 0; k < g_launches; k++) {
        launch_one(&l, id, k);
        if (k % 53 == 52) hand_off(&l);
        if (k % 61 == 60) stream_ordered(&l);
        if (k % 97 == 96) short_lived(&l, k, host);
    }
    if (id == g_threads - 1) {
        for (int r = 0; r < 3; r++) {
            stress_overrun<<<(N + 255) / 256, 256, 0, l.main>>>(l.a, N, g_bug);
        }
    } else {
        stress_overrun<<<(N + 127) / 128, 128, 0, l.main>>>(l.a, N, 0);
    }
    CHECK(cudaGetLastError());
    float total = 0.0f;
    CHECK(cudaMemcpyAsync(&total, l.sum, sizeof total, cudaMemcpyDeviceToHost, l.main));
    CHECK(cudaStreamSynchronize(l.main));
    g_sums[id] = total;
    lane_close(&l);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1) g_threads = atoi(argv[1]);
    if (argc > 2) g_launches = atoi(argv[2]);
    g_bug = argc > 3 && strcmp(argv[3], "bug") == 0;
    if (g_threads < 1 || g_threads > MAX_THREADS || g_launches < 1 ||
        (argc > 3 && !g_bug)) {
        fprintf(stderr, "usage: stress_threads [THREADS 1..%d] [LAUNCHES] [bug]\n", MAX_THREADS);
        return 2;
    }
    pthread_t t[MAX_THREADS];
    CHECK(cudaFree(0)); /* the context, before the threads race to make it */
    for (long i = 0; i < g_threads; i++) {
        if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) {
            fprintf(stderr, "stress_threads: cannot start a thread\n");
            return 1;
        }
    }
    double all = 0.0;
    for (int i = 0; i < g_threads; i++) {
        pthread_join(t[i], NULL);
        all += g_sums[i];
    }
    printf("stress_threads: done %.1f\n", all);
    return 0;
}
