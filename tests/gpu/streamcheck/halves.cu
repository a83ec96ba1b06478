/* GPU test program for streamcheck's instrumented and learned access sets: two kernels on two
 * unordered streams each write half of ONE buffer. Built as is, the halves are disjoint (no race:
 * --mode default and full must stay clean, --mode api reports a false positive because each
 * pointer's inferred range runs to the buffer's end). Built with -DCC_OVERLAP the second half
 * starts a quarter early, so both kernels write [n/4, n/2): a real race in every mode.
 * The pair runs ROUNDS times with a device synchronize between rounds, so that in the default
 * mode the first rounds are instrumented and the later ones use learned access sets. Built with
 * -DCC_WARM=N, the same two launches first run N times in order on one stream (no race), so that
 * the launches are learned and launch-end callbacks go off (after 4,096 quiet launches) before
 * the rounds: the steady state of a long job. */
#include "sc_common.h"

#define ROUNDS 6

/* Writes p[0..count) (slowly, so that the two halves really overlap in time). */
__global__ void fill_half(float *p, int count, float value, long long cycles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (i < count)
        p[i] = value;
}

int main(void)
{
    const int n = 1 << 16, half = n / 2, block = 256, grid = (half + block - 1) / block;
#ifdef CC_OVERLAP
    const int second = n / 4; /* BUG: overlaps the first half's [n/4, n/2) */
#else
    const int second = half;
#endif
    float *buf;
    CK(cudaMalloc((void **)&buf, (size_t)n * sizeof(float)));
    CK(cudaMemset(buf, 0, (size_t)n * sizeof(float)));
    cudaStream_t a, b;
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CK(cudaDeviceSynchronize());
#ifdef CC_WARM
    for (int w = 0; w < CC_WARM; w++) { /* ordered on one stream: no race */
        fill_half<<<grid, block, 0, a>>>(buf, half, 1.0f, 100000LL);
        fill_half<<<grid, block, 0, a>>>(buf + second, half, 2.0f, 100000LL);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
#endif
    for (int r = 0; r < ROUNDS; r++) {
        fill_half<<<grid, block, 0, a>>>(buf, half, 1.0f, 100000LL);
        CK(cudaGetLastError());
        fill_half<<<grid, block, 0, b>>>(buf + second, half, 2.0f, 100000LL);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize()); /* orders this round before the next */
    }
    float h[2];
    CK(cudaMemcpy(h, buf + n / 4, sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h + 1, buf + n - 1, sizeof(float), cudaMemcpyDeviceToHost));
    printf("halves%s: buf[n/4] = %.0f, buf[n-1] = %.0f\n",
#ifdef CC_OVERLAP
           " (overlapping)",
#else
           "",
#endif
           h[0], h[1]);
    CK(cudaFree(buf));
    return 0;
}
