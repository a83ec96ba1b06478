/* memcheck test (buggy): 8 host threads, each with its own non-blocking stream and buffer,
 * launch 200 clean kernels each (far more checked launches than the agent has slots, so launches
 * are read back from several threads: when slots run out and at each thread's own stream
 * synchronize); then thread 5 launches a kernel that writes one element past its buffer.
 * Expected: exactly one invalid-global-write, in thread_overrun by thread (232,0,0) of block
 * (3,0,0), size 4, in both modes. mc_threads_clean.cu builds it with MC_THREADS_FIXED. */
#include <pthread.h>
#include "mc_common.h"

#define MC_THREADS 8
#define MC_LAUNCHES 200
#define MC_N 1000

__global__ void scale(float *p, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= f;
}

__global__ void thread_overrun(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef MC_THREADS_FIXED
    if (i < n) out[i] = 1.0f;
#else
    if (i <= n) out[i] = 1.0f; /* BUG: i == n writes one element past the end */
#endif
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    cudaStream_t s;
    float *buf;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&buf, MC_N * sizeof(float)));
    CHECK(cudaMemsetAsync(buf, 0, MC_N * sizeof(float), s));
    for (int k = 0; k < MC_LAUNCHES; k++) {
        scale<<<(MC_N + 127) / 128, 128, 0, s>>>(buf, MC_N, 1.0f);
    }
    if (id == 5) {
        thread_overrun<<<(MC_N + 255) / 256, 256, 0, s>>>(buf, MC_N);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaFree(buf));
    CHECK(cudaStreamDestroy(s));
    return NULL;
}

int main(void)
{
    pthread_t t[MC_THREADS];
    CHECK(cudaFree(0)); /* the context, before the threads race to make it */
    for (long i = 0; i < MC_THREADS; i++) {
        if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) {
            fprintf(stderr, "mc_threads: cannot start a thread\n");
            return 1;
        }
    }
    for (int i = 0; i < MC_THREADS; i++) {
        pthread_join(t[i], NULL);
    }
    printf("mc_threads: done\n");
    return 0;
}
