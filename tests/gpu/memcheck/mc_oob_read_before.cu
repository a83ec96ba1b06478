/* memcheck test (buggy): a 3-point stencil reads in[i - 1] without guarding i == 0, so thread 0
 * of block 0 reads 4 bytes before the start of the input buffer (a 2D grid so that block and
 * thread coordinates matter). Expected: invalid-global-read in stencil3, 4 bytes before the start
 * of a 4096-byte allocation (`out` is allocated first and padded, so the address is in no buffer). Clean twin: mc_clean.cu. */
#include "mc_common.h"

__global__ void stencil3(const float *in, float *out, int n)
{
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n - 1) {
        out[i] = in[i - 1] + in[i] + in[i + 1]; /* BUG: i - 1 is -1 for the first thread */
    }
}

int main(void)
{
    const int n = 1024;
    float *in, *out;
    CHECK(cudaMalloc((void **)&out, n * sizeof(float) + 100)); /* leaves a gap before `in` */
    CHECK(cudaMalloc((void **)&in, n * sizeof(float)));
    CHECK(cudaMemset(in, 0, n * sizeof(float)));
    stencil3<<<dim3(2, 2), 256>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("mc_oob_read_before: done\n");
    return 0;
}
