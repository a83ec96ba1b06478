/* memcheck test: module (__device__) variables. fill_table writes the 64-int __device__ array
 * `table` in range; bump_flag then writes a 4-byte int through a pointer one byte into the
 * 4-byte __device__ variable `flag` (misaligned, as NVIDIA's memcheck_demo does), which faults
 * natively (misaligned address). Expected: a misaligned global write at the store, explained as
 * offset 1 of the 4-byte __device__ variable `flag`, and the fault as the launch's async-error.
 * (A write past `table` into the next variable stays inside the module's memory: neither
 * cucheck nor compute-sanitizer reports it.) */
#include "mc_common.h"

__device__ int flag;
__device__ int table[64];

__global__ void bump_flag(int off)
{
    int *p = (int *)((char *)&flag + off);
    *p = 1; // BUG: p is one byte into the int `flag` (misaligned)
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
    CHECK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    printf("mc_module_var: fill_table %s\n", cudaGetErrorName(e));
    bump_flag<<<1, 1>>>(1);
    e = cudaDeviceSynchronize();
    printf("mc_module_var: bump_flag %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
