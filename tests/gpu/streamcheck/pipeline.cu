/* GPU test program for streamcheck (tests/gpu/streamcheck/run_targets.sh): a three-stream copy /
 * compute / copy pipeline over CHUNKS chunks. Per chunk: an H2D copy on s0, an event; s1 waits
 * for it and runs scale_chunk (reads the input chunk, writes the output chunk), an event; s2
 * waits for that and copies the output chunk back (D2H). Correctly ordered: clean.
 *   -DCC_DROP_WAIT   the racy twin: s2 does not wait for the kernel of chunk DROPPED, so the D2H
 *                    copy of that chunk may read it while scale_chunk still writes it.
 *   -DCC_ONE_BUFFER  the chunks are slices of one input and one output allocation instead of
 *                    one allocation per chunk (still correctly ordered). --mode api cannot
 *                    tell slices apart: each kernel's inferred range runs from its chunk to the
 *                    end of the allocation, over later chunks that s0 is still copying in.
 * Exit 0 when the results are as computed (the racy twin may natively copy stale values back:
 * it prints how many and still exits 0); 1 on a CUDA error. */
#include <stdlib.h>
#include "sc_common.h"

#define CHUNKS 8
#define DROPPED 5

/* Spins for about `cycles` clock cycles, then writes out[i] = 2 * in[i] + 1. */
__global__ void scale_chunk(const float *in, float *out, int count, long long cycles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (i < count)
        out[i] = 2.0f * in[i] + 1.0f;
}

int main(void)
{
    const int chunk = 1 << 16, block = 256, grid = (chunk + block - 1) / block;
    const size_t cbytes = (size_t)chunk * sizeof(float);
    float *h_in, *h_out;
    CK(cudaMallocHost((void **)&h_in, cbytes * CHUNKS));
    CK(cudaMallocHost((void **)&h_out, cbytes * CHUNKS));
    for (int i = 0; i < chunk * CHUNKS; i++) {
        h_in[i] = (float)(i % 1000);
        h_out[i] = -1.0f;
    }
    float *d_in[CHUNKS], *d_out[CHUNKS];
#ifdef CC_ONE_BUFFER
    float *in_all, *out_all;
    CK(cudaMalloc((void **)&in_all, cbytes * CHUNKS));
    CK(cudaMalloc((void **)&out_all, cbytes * CHUNKS));
    for (int c = 0; c < CHUNKS; c++) {
        d_in[c] = in_all + (size_t)c * chunk;
        d_out[c] = out_all + (size_t)c * chunk;
    }
#else
    for (int c = 0; c < CHUNKS; c++) {
        CK(cudaMalloc((void **)&d_in[c], cbytes));
        CK(cudaMalloc((void **)&d_out[c], cbytes));
    }
#endif
    cudaStream_t s0, s1, s2;
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t copied[CHUNKS], computed[CHUNKS];
    for (int c = 0; c < CHUNKS; c++) {
        CK(cudaEventCreateWithFlags(&copied[c], cudaEventDisableTiming));
        CK(cudaEventCreateWithFlags(&computed[c], cudaEventDisableTiming));
    }
    cudaFuncAttributes attr;
    CK(cudaFuncGetAttributes(&attr, scale_chunk)); /* load the kernel before the streams start */
    CK(cudaDeviceSynchronize());

    for (int c = 0; c < CHUNKS; c++) {
        CK(cudaMemcpyAsync(d_in[c], h_in + (size_t)c * chunk, cbytes, cudaMemcpyHostToDevice, s0));
        CK(cudaEventRecord(copied[c], s0));
        CK(cudaStreamWaitEvent(s1, copied[c], 0));
        scale_chunk<<<grid, block, 0, s1>>>(d_in[c], d_out[c], chunk, 200000LL);
        CK(cudaGetLastError());
        CK(cudaEventRecord(computed[c], s1));
#ifdef CC_DROP_WAIT
        if (c != DROPPED) /* BUG: chunk DROPPED is copied back without waiting for its kernel */
#endif
            CK(cudaStreamWaitEvent(s2, computed[c], 0));
        CK(cudaMemcpyAsync(h_out + (size_t)c * chunk, d_out[c], cbytes, cudaMemcpyDeviceToHost,
                           s2));
    }
    CK(cudaStreamSynchronize(s2));
    CK(cudaDeviceSynchronize());

    int wrong = 0;
    for (int i = 0; i < chunk * CHUNKS; i++)
        wrong += h_out[i] != 2.0f * (float)(i % 1000) + 1.0f;
    printf("pipeline%s%s: %d chunks through H2D (s0) -> scale_chunk (s1) -> D2H (s2): "
           "%d of %d values wrong\n",
#ifdef CC_DROP_WAIT
           " (one wait dropped)",
#else
           "",
#endif
#ifdef CC_ONE_BUFFER
           " (one buffer)",
#else
           "",
#endif
           CHUNKS, wrong, chunk * CHUNKS);

    for (int c = 0; c < CHUNKS; c++) {
        CK(cudaEventDestroy(copied[c]));
        CK(cudaEventDestroy(computed[c]));
#ifndef CC_ONE_BUFFER
        CK(cudaFree(d_in[c]));
        CK(cudaFree(d_out[c]));
#endif
    }
#ifdef CC_ONE_BUFFER
    CK(cudaFree(in_all));
    CK(cudaFree(out_all));
#endif
    CK(cudaStreamDestroy(s0));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFreeHost(h_in));
    CK(cudaFreeHost(h_out));
    return 0;
}
