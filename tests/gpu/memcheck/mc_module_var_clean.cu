/* memcheck test, clean twin of mc_module_var: aligned writes to the __device__ variable `flag`
 * and in-range writes to the 64-int __device__ array `table`, read back with
 * cudaMemcpyFromSymbol. Expected: no finding, exit status 0. */
#include "mc_common.h"

__device__ int flag;
__device__ int table[64];

__global__ void bump_flag(int off)
{
    int *p = (int *)((char *)&flag + off);
    *p = 1;
}

__global__ void fill_table(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        table[i] = i;
    }
}

int main(void)
{
    fill_table<<<1, 96>>>(64);
    bump_flag<<<1, 1>>>(0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int h[64], f = 0;
    CHECK(cudaMemcpyFromSymbol(h, table, sizeof h));
    CHECK(cudaMemcpyFromSymbol(&f, flag, sizeof f));
    printf("mc_module_var_clean: table[63]=%d flag=%d\n", h[63], f);
    return h[63] == 63 && f == 1 ? 0 : 1;
}
