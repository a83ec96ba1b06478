/* Example (buggy): a producer kernel fills a buffer on stream A, and a consumer kernel reads it on
 * stream B. Both streams are created with cudaStreamNonBlocking, and nothing orders B after A
 * (no event), so the consumer may run while the (deliberately slow) producer is still writing:
 * a cross-stream race that cucheck streamcheck reports between produce and consume.
 * Natively the consumer usually sees stale zeros; the program counts them and prints the count.
 * Fixed twin: stream_ok.cu (cudaEventRecord on A + cudaStreamWaitEvent on B). */
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
        fprintf(stderr, "stream_race: out of host memory\n");
        return 1;
    }
    float *d_buf, *d_out;
    CHECK(cudaMalloc((void **)&d_buf, bytes));
    CHECK(cudaMalloc((void **)&d_out, bytes));
    CHECK(cudaMemset(d_buf, 0, bytes));
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    /* Load both kernels now (with lazy loading, loading one at its first launch would
     * wait for the other stream) and finish the memset before the streams start. */
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, produce));
    CHECK(cudaFuncGetAttributes(&attr, consume));
    CHECK(cudaDeviceSynchronize());

    produce<<<grid, block, 0, a>>>(d_buf, n, 2000000LL);
    CHECK(cudaGetLastError());
    consume<<<grid, block, 0, b>>>(d_buf, d_out, n); /* BUG: stream b does not wait for stream a */
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, b));
    CHECK(cudaStreamSynchronize(b));
    CHECK(cudaStreamSynchronize(a));

    int stale = 0;
    for (int i = 0; i < n; i++)
        stale += h_out[i] != 2.0f * (float)i + 1.0f;
    printf("stream_race: produced on stream A, consumed on stream B with no event between them: "
           "%d of %d values stale\n", stale, n);
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
    CHECK(cudaFree(d_buf));
    CHECK(cudaFree(d_out));
    free(h_out);
    return 0;
}
