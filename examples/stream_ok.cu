/* Example (fixed): the twin of stream_race.cu. The producer's completion is recorded in an event
 * on stream A and stream B waits for it (cudaEventRecord + cudaStreamWaitEvent) before the
 * consumer runs, so no value is stale and cucheck streamcheck should report nothing. */
#include "cuda_check.h"

/* Spins for about `cycles` clock cycles, then writes buf[i] = 2 * i. */
__global__ void produce(float *buf, int n, long long cycles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (i < n)
        buf[i] = 2.0f * (float)i;
}

__global__ void consume(const float *buf, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = buf[i] + 1.0f;
}

int main(void)
{
    const int n = 1 << 16;
    const int block = 256, grid = (n + block - 1) / block;
    size_t bytes = (size_t)n * sizeof(float);
    float *h_out = (float *)malloc(bytes);
    if (!h_out) {
        fprintf(stderr, "stream_ok: out of host memory\n");
        return 1;
    }
    float *d_buf, *d_out;
    CHECK(cudaMalloc((void **)&d_buf, bytes));
    CHECK(cudaMalloc((void **)&d_out, bytes));
    CHECK(cudaMemset(d_buf, 0, bytes));
    cudaStream_t a, b;
    cudaEvent_t produced;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    /* Load both kernels now (with lazy loading, loading one at its first launch would
     * wait for the other stream) and finish the memset before the streams start. */
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, produce));
    CHECK(cudaFuncGetAttributes(&attr, consume));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));

    produce<<<grid, block, 0, a>>>(d_buf, n, 2000000LL);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(produced, a));          /* FIX: mark the end of the producer ... */
    CHECK(cudaStreamWaitEvent(b, produced, 0));   /* ... and make stream b wait for it */
    consume<<<grid, block, 0, b>>>(d_buf, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, b));
    CHECK(cudaStreamSynchronize(b));
    CHECK(cudaStreamSynchronize(a));

    int stale = 0;
    for (int i = 0; i < n; i++)
        stale += h_out[i] != 2.0f * (float)i + 1.0f;
    printf("stream_ok: produced on stream A, consumed on stream B after an event wait: "
           "%d of %d values stale\n", stale, n);
    CHECK(cudaEventDestroy(produced));
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
    CHECK(cudaFree(d_buf));
    CHECK(cudaFree(d_out));
    free(h_out);
    return stale ? 1 : 0;
}
