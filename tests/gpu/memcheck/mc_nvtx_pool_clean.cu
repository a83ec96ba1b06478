/* memcheck test, clean twin of mc_nvtx_pool: two regions of an NVTX-registered 4 KiB pool,
 * each written only inside its bounds, one resized and unregistered after its last use, the
 * heap unregistered before the pool is freed; a write to the pool outside the heap's regions
 * happens only after nvtxMemHeapUnregister (plain cudaMalloc memory again). Expected: no
 * finding, exit status 0. */
#include "mc_common.h"
#include <stdint.h>
#include "mc_nvtx_common.h"

__global__ void iota8(uint8_t *v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] = (uint8_t)i;
}

int main(void)
{
    const size_t pool_size = 4096;
    nvtxDomainHandle_t dom = nvtxDomainCreateA("mc-nvtx-pool-clean");
    uint8_t *pool;
    CHECK(cudaMalloc((void **)&pool, pool_size));
    nvtxMemHeapHandle_t heap = heap_register(dom, pool, pool_size);
    /* NULL: no NVTX tool is attached (natively); the NVTX calls below are then no-ops and the
     * writes stay inside the pool, so the program behaves the same with and without a tool. */
    printf("mc_nvtx_pool_clean: NVTX heap handle %s\n",
           heap == NULL ? "NULL (no NVTX tool)" : "set");
    region_register(dom, heap, pool + 64, 128);
    region_register(dom, heap, pool + 1024, 256);
    iota8<<<1, 128>>>(pool + 64);
    iota8<<<2, 128>>>(pool + 1024);
    CHECK(cudaDeviceSynchronize());
    region_unregister(dom, pool + 64);
    nvtxMemHeapUnregister(dom, heap);
    iota8<<<4, 1024>>>(pool); /* the whole pool: plain cudaMalloc memory again */
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(pool));
    printf("mc_nvtx_pool_clean: done\n");
    return 0;
}
