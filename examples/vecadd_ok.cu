/* Example (fixed): the twin of vecadd_oob.cu. Same sizes (n = 1000, 4 blocks of 256 threads),
 * but the kernel guards its index with `if (idx < n)`, so the 24 extra threads do nothing.
 * Every cucheck tool should report nothing here. */
#include "cuda_check.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) /* FIX: threads past n do nothing */
        c[idx] = a[idx] + b[idx];
}

int main(void)
{
    const int n = 1000;
    const int block = 256;
    const int grid = (n + block - 1) / block;
    size_t bytes = (size_t)n * sizeof(float);
    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
    if (!ha || !hb || !hc) {
        fprintf(stderr, "vecadd_ok: out of host memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        ha[i] = (float)i;
        hb[i] = 2.0f * (float)i;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes));
    CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
    vecadd<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += hc[i] != 3.0f * (float)i;
    printf("vecadd_ok: added %d floats with %d threads (%d idle, guarded): %d wrong results\n",
           n, grid * block, grid * block - n, wrong);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(ha);
    free(hb);
    free(hc);
    return wrong ? 1 : 0;
}
