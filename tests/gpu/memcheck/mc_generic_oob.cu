/* memcheck test (buggy twin of mc_generic_clean): the same generic stores to shared, local and
 * global memory through a function that is not inlined, but the global store of the last thread
 * lands past the end of `out` (2,060 bytes; into the allocation's padding). Expected: one
 * invalid-global-write at the store in store_through, thread 127 of block 3, 4 bytes; the
 * generic stores to shared and local memory are not reported. */
#include "mc_common.h"

__device__ __noinline__ void store_through(int *p, int v)
{
    *p = v; // BUG: the last thread of generic_mix passes a pointer past the end of out
}

__global__ void generic_mix(int *out)
{
    __shared__ int tile[128];
    int local[8];
    int t = threadIdx.x;
    store_through(&tile[t], t);                 /* generic -> shared */
    for (int k = 0; k < 8; k++) {
        store_through(&local[k], t + k);        /* generic -> local */
    }
    __syncthreads();
    int sum = tile[127 - t] + local[t % 8];
    int i = blockIdx.x * blockDim.x + t;
    store_through(&out[i + 4], sum);            /* generic -> global, 4 elements late */
}

int main(void)
{
    const int n = 4 * 128;
    int *out;
    CHECK(cudaMalloc((void **)&out, (n + 3) * sizeof(int)));
    generic_mix<<<n / 128, 128>>>(out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(out));
    printf("mc_generic_oob: done\n");
    return 0;
}
