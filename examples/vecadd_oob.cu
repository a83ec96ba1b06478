/* Example (buggy): vector add whose kernel lacks the `if (idx < n)` guard. n = 1000 is not a
 * multiple of the block size (256), the grid is rounded up to 4 blocks, so the last 24 threads
 * read and write past the end of 4,000-byte cudaMalloc buffers. The overrun stays inside the
 * allocation granularity, so the program does not fault natively and its result looks right:
 * only a checker sees it (cucheck memcheck: invalid-global-write in vecadd).
 * Fixed twin: vecadd_ok.cu. */
#include "cuda_check.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    (void)n;
    c[idx] = a[idx] + b[idx]; /* BUG: no `if (idx < n)` guard, threads past n go out of bounds */
}

int main(void)
{
    const int n = 1000;
    const int block = 256;
    const int grid = (n + block - 1) / block; /* rounded up: 1024 threads for 1000 elements */
    size_t bytes = (size_t)n * sizeof(float);
    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
    if (!ha || !hb || !hc) {
        fprintf(stderr, "vecadd_oob: out of host memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        ha[i] = (float)i;
        hb[i] = 2.0f * (float)i;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes)); /* allocated last: its overrun lands in unused space */
    CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
    vecadd<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += hc[i] != 3.0f * (float)i;
    printf("vecadd_oob: added %d floats with %d threads (%d past the end, unguarded): "
           "%d wrong results\n", n, grid * block, grid * block - n, wrong);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(ha);
    free(hb);
    free(hc);
    return 0;
}
