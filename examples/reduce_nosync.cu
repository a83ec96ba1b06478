/* Example (buggy): shared-memory tree reduction that forgets the __syncthreads() between the
 * steps of its loop. From the step s = 64 on, threads of one warp read shared slots that threads
 * of another warp wrote in the previous step without a barrier in between: a shared-memory race
 * (read-after-write hazard) that cucheck racecheck reports in block_sum. Natively the sum may
 * or may not come out right; the program compares it with the CPU sum and prints both.
 * Fixed twin: reduce_ok.cu. */
#include "cuda_check.h"

#define BLOCK 256

__global__ void block_sum(const int *in, int *block_sums, int n)
{
    __shared__ int sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = (i < (unsigned)n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s]; /* BUG: no __syncthreads() after each step */
    }
    if (tid == 0)
        block_sums[blockIdx.x] = sdata[0];
}

int main(void)
{
    const int n = 1 << 20;
    const int grid = (n + BLOCK - 1) / BLOCK;
    int *h_in = (int *)malloc((size_t)n * sizeof(int));
    int *h_sums = (int *)malloc((size_t)grid * sizeof(int));
    if (!h_in || !h_sums) {
        fprintf(stderr, "reduce_nosync: out of host memory\n");
        return 1;
    }
    long long cpu = 0;
    for (int i = 0; i < n; i++) {
        h_in[i] = (i * 7 + 3) % 11;
        cpu += h_in[i];
    }
    int *d_in, *d_sums;
    CHECK(cudaMalloc((void **)&d_in, (size_t)n * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_sums, (size_t)grid * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
    block_sum<<<grid, BLOCK>>>(d_in, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_sums, d_sums, (size_t)grid * sizeof(int), cudaMemcpyDeviceToHost));
    long long gpu = 0;
    for (int b = 0; b < grid; b++)
        gpu += h_sums[b];
    printf("reduce_nosync: summed %d ints in %d blocks without barriers between steps: "
           "GPU %lld, CPU %lld (%s)\n", n, grid, gpu, cpu, gpu == cpu ? "match" : "MISMATCH");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    free(h_in);
    free(h_sums);
    return 0;
}
