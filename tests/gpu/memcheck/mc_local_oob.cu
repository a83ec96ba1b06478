/* memcheck test: a local (stack) array read far past its end. Each thread counts its 64 input
 * values into a 16-bin histogram (data-dependent indices: the array lives in local memory),
 * then reads back the bin its query names. Thread 5 of block 1 queries bin 2064: the read lands
 * 8,192 bytes past the histogram, above the thread's stack window (its top is at most 16 MiB),
 * and faults natively (illegal address).
 * Expected: an invalid __local__ read at this file's line of the read, thread 5 of block 1,
 * size 4; the fault as the launch's async-error. */
#include "mc_common.h"

__global__ void bin_count(const int *values, const int *query, int *out)
{
    int hist[16];
    for (int k = 0; k < 16; k++) {
        hist[k] = 0;
    }
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 64; k++) {
        hist[values[(t + k) % 64] & 15]++;
    }
    out[t] = hist[query[t]]; /* BUG: bin 2064 of a 16-bin histogram (thread 5 of block 1) */
}

int main(void)
{
    int hv[64], hq[64], *values, *query, *out;
    for (int k = 0; k < 64; k++) {
        hv[k] = (k * 7) % 23;
        hq[k] = k % 16;
    }
    hq[32 + 5] = 2064; /* thread 5 of block 1 */
    CHECK(cudaMalloc((void **)&values, sizeof hv));
    CHECK(cudaMalloc((void **)&query, sizeof hq));
    CHECK(cudaMalloc((void **)&out, sizeof hq));
    CHECK(cudaMemcpy(values, hv, sizeof hv, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(query, hq, sizeof hq, cudaMemcpyHostToDevice));
    bin_count<<<2, 32>>>(values, query, out);
    CHECK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    printf("mc_local_oob: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
