/* GPU test program for `cucheck profile`: GPU work whose counts are known and whose durations
 * the program measures itself with CUDA events, so check_profile.py can compare the profile
 * with an independent measurement. It runs:
 *   - spin_kernel: one untimed warm-up launch (loads the module: lazy loading must not happen
 *     while a host gate holds a stream), then SPIN_LAUNCHES launches of a ~SPIN_US microsecond
 *     busy-wait, alternating two non-blocking streams (each launch timed with its own pair of
 *     CUDA events, enqueued behind a host gate so that the events bracket the kernel alone, see
 *     gate_wait);
 *   - tiny_kernel: TINY_LAUNCHES launches on the legacy default stream;
 *   - a CUDA graph of 3 kernel nodes (graph_node_kernel), launched GRAPH_LAUNCHES times;
 *   - copies: 2 H2D of COPY_BYTES (pageable), 1 D2H of COPY_BYTES (pinned), 1 memset;
 *   - NVTX ranges "setup", "spin phase", "graph phase" (nvtx3, header-only).
 * It prints one line "EXPECT {json}" with the counts and the event-measured times. */
#include <cstdio>
#include <cstdlib>
#include <sched.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#define SPIN_LAUNCHES 40
#define SPIN_US 500
#define TINY_LAUNCHES 500
#define GRAPH_LAUNCHES 20
#define COPY_BYTES (8u << 20)

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    cudaGetErrorString(e_));                                               \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

__global__ void spin_kernel(long long cycles, int *out)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] += 1;
}

/* Host gate: a host function that holds its stream until the program has enqueued
 * "event, kernel, event" behind it. Without it the first event runs as soon as it is enqueued
 * (the stream is idle) and the pair also measures the host's time to launch the kernel: lazy
 * module loading on the first launch, API tracing under a profiler. That made the event sum
 * 4.2x the kernels' own time on an H200 (33.99 ms for 40 x 200 us kernels). */
static void CUDART_CB gate_wait(void *gate)
{
    /* Bounded: should the driver need this thread before the gate opens, give up after ~5 s
     * (the event time then includes launch time and the comparison fails) instead of hanging. */
    for (long spins = 0; !__atomic_load_n((volatile int *)gate, __ATOMIC_ACQUIRE); spins++) {
        if (spins > 5000000) {
            fprintf(stderr, "known_work: host gate timed out\n");
            return;
        }
        sched_yield();
    }
}

__global__ void tiny_kernel(int *out)
{
    if (threadIdx.x == 0) out[1] += 1;
}

__global__ void graph_node_kernel(int *out, int slot)
{
    if (threadIdx.x == 0) atomicAdd(&out[2 + slot], 1);
}

int main(void)
{
    int *d_out;
    void *d_buf, *h_pinned, *h_pageable;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    long long cycles = (long long)clock_khz * SPIN_US / 1000;

    nvtxRangePushA("setup");
    CHECK(cudaMalloc((void **)&d_out, 16 * sizeof(int)));
    CHECK(cudaMalloc(&d_buf, COPY_BYTES));
    CHECK(cudaMallocHost(&h_pinned, COPY_BYTES));
    h_pageable = calloc(1, COPY_BYTES);
    CHECK(cudaMemset(d_out, 0, 16 * sizeof(int)));             /* memset 1 */
    CHECK(cudaMemcpy(d_buf, h_pageable, COPY_BYTES, cudaMemcpyHostToDevice)); /* H2D 1 */
    CHECK(cudaMemcpy(d_buf, h_pageable, COPY_BYTES, cudaMemcpyHostToDevice)); /* H2D 2 */
    nvtxRangePop();

    cudaStream_t s[2];
    CHECK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    cudaEvent_t ev0[SPIN_LAUNCHES], ev1[SPIN_LAUNCHES];
    spin_kernel<<<1, 32, 0, s[0]>>>(0, d_out); /* warm-up: module loaded before any gate */
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s[0]));
    nvtxRangePushA("spin phase");
    for (int i = 0; i < SPIN_LAUNCHES; i++) {
        CHECK(cudaEventCreate(&ev0[i]));
        CHECK(cudaEventCreate(&ev1[i]));
        cudaStream_t st = s[i % 2];
        static int gate;
        __atomic_store_n(&gate, 0, __ATOMIC_RELEASE);
        CHECK(cudaLaunchHostFunc(st, gate_wait, &gate));
        CHECK(cudaEventRecord(ev0[i], st));
        spin_kernel<<<1, 32, 0, st>>>(cycles, d_out);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev1[i], st));
        __atomic_store_n(&gate, 1, __ATOMIC_RELEASE); /* all three queued: open the gate */
        CHECK(cudaStreamSynchronize(st)); /* one at a time: event times are the kernel's */
    }
    nvtxRangePop();
    for (int i = 0; i < TINY_LAUNCHES; i++) tiny_kernel<<<1, 32>>>(d_out);
    CHECK(cudaDeviceSynchronize());

    nvtxRangePushA("graph phase");
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal));
    for (int k = 0; k < 3; k++) graph_node_kernel<<<1, 32, 0, s[0]>>>(d_out, k);
    CHECK(cudaStreamEndCapture(s[0], &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < GRAPH_LAUNCHES; i++) CHECK(cudaGraphLaunch(exec, s[0]));
    CHECK(cudaStreamSynchronize(s[0]));
    nvtxRangePop();

    CHECK(cudaMemcpy(h_pinned, d_buf, COPY_BYTES, cudaMemcpyDeviceToHost)); /* D2H 1 */
    int counts[16];
    CHECK(cudaMemcpy(counts, d_out, sizeof counts, cudaMemcpyDeviceToHost)); /* D2H 2 (64 B) */
    if (counts[0] != SPIN_LAUNCHES + 1 || counts[1] != TINY_LAUNCHES ||
        counts[2] != GRAPH_LAUNCHES) {
        fprintf(stderr, "known_work: wrong device counts %d %d %d\n", counts[0], counts[1],
                counts[2]);
        return 1;
    }
    double spin_ms = 0;
    for (int i = 0; i < SPIN_LAUNCHES; i++) {
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, ev0[i], ev1[i]));
        spin_ms += ms;
    }
    printf("EXPECT {\"kernels\":{\"spin_kernel\":%d,\"tiny_kernel\":%d,\"graph_node_kernel\":%d},"
           "\"spin_event_ms\":%.6f,\"streams_with_spin\":2,\"graph_launches\":%d,"
           "\"h2d\":2,\"d2h\":2,\"memsets\":1,\"copy_bytes\":%u,"
           "\"nvtx\":[\"setup\",\"spin phase\",\"graph phase\"],\"device\":\"%s\"}\n",
           SPIN_LAUNCHES + 1, TINY_LAUNCHES, 3 * GRAPH_LAUNCHES, spin_ms, GRAPH_LAUNCHES, COPY_BYTES,
           prop.name);
    return 0;
}
