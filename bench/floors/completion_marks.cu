// What a completion mark after every launch costs on the host (W1-4's attribution): tiny
// launches on one stream, each followed by nothing (mode 0), a 64-bit stream write of its
// index into pinned host memory (1), an event record (2) or a 32-bit stream write (3). Prints
// BENCH_TIME_MS per launch, for bench/rounds.sh.
// Build: nvcc -O3 -arch=native -o completion_marks completion_marks.cu -lcuda
// Usage: completion_marks MODE [LAUNCHES]
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void tiny(int *counter)
{
    if (threadIdx.x == 0)
        counter[0] += 1;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            fprintf(stderr, "completion_marks: %s: %s\n", #call, cudaGetErrorName(e_));       \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    const int slots = 65536;
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    int n = argc > 2 ? atoi(argv[2]) : 100000;
    if (mode < 0 || mode > 3 || n <= 0) {
        fprintf(stderr, "usage: completion_marks MODE(0-3) [LAUNCHES]\n");
        return 2;
    }
    int *counter;
    unsigned long long *marks;
    cudaStream_t s;
    cudaEvent_t ev;
    CHECK(cudaMalloc((void **)&counter, sizeof(int)));
    CHECK(cudaHostAlloc((void **)&marks, slots * sizeof *marks,
                        cudaHostAllocMapped | cudaHostAllocPortable));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    for (int i = 0; i < 100; i++)
        tiny<<<1, 32, 0, s>>>(counter);
    CHECK(cudaDeviceSynchronize());
    double t0 = now_ms();
    for (int i = 0; i < n; i++) {
        tiny<<<1, 32, 0, s>>>(counter);
        CUdeviceptr mark = (CUdeviceptr)(uintptr_t)&marks[i % slots];
        if (mode == 1)
            cuStreamWriteValue64((CUstream)s, mark, (cuuint64_t)i + 1, 0);
        else if (mode == 2)
            cudaEventRecord(ev, s);
        else if (mode == 3)
            cuStreamWriteValue32((CUstream)s, mark, (cuuint32_t)i + 1, 0);
    }
    CHECK(cudaDeviceSynchronize());
    double ms = now_ms() - t0;
    if (mode == 1 || mode == 3) {
        unsigned long long last = marks[(n - 1) % slots] & (mode == 3 ? 0xffffffffull : ~0ull);
        if (last != (unsigned long long)n) {
            fprintf(stderr, "completion_marks: last mark %llu, expected %d\n", last, n);
            return 1;
        }
    }
    printf("BENCH_TIME_MS %.6f\n", ms / n);
    return 0;
}
