/* memcheck test (clean): generic pointers to shared and local memory, dereferenced in a function
 * that is not inlined (so the accesses are generic loads and stores, not shared/local ones), next
 * to generic pointers to global memory. Expected: no finding (a generic access that lands in
 * shared or local memory is not a global access outside every allocation). */
#include "mc_common.h"

__device__ __noinline__ void store_through(int *p, int v)
{
    *p = v;
}

__device__ __noinline__ int load_through(const int *p)
{
    return *p;
}

__global__ void generic_mix(int *out, int n)
{
    __shared__ int tile[128];
    int local[8];
    int t = threadIdx.x;
    store_through(&tile[t], t);                 /* generic -> shared */
    for (int k = 0; k < 8; k++) {
        store_through(&local[k], t + k);        /* generic -> local */
    }
    __syncthreads();
    int sum = load_through(&tile[127 - t]);
    for (int k = 0; k < 8; k++) {
        sum += load_through(&local[(t + k) % 8]);
    }
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        store_through(&out[i], sum);            /* generic -> global */
    }
}

int main(void)
{
    const int n = 4 * 128;
    int *out;
    CHECK(cudaMalloc((void **)&out, n * sizeof(int)));
    generic_mix<<<n / 128, 128>>>(out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(out));
    printf("mc_generic_clean: done\n");
    return 0;
}
