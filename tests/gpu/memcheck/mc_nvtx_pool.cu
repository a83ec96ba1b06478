/* memcheck test: a sub-allocator described with the NVTX memory API. A 4 KiB cudaMalloc pool
 * is registered as an NVTX heap; a 63-byte region at offset 16 is registered and a kernel of 64
 * threads writes one byte each, the last one past the region (still inside the pool). Then the
 * region grows to 64 bytes (clean launch), is unregistered (a write to it is an error), is
 * registered again and the heap is reset (a write to it is an error again). Natively (no NVTX
 * tool) the heap handle is NULL and every NVTX call a no-op: the writes stay inside the pool and
 * the program exits 0 either way; under cucheck the handle must be set (it prints which).
 * Expected: three invalid __global__ writes in iota8 at the kernel's store: the first past the
 * region (invalid-global-write), the other two in a region that is gone (use-after-free). */
#include "mc_common.h"
#include <stdint.h>
#include "mc_nvtx_common.h"

__global__ void iota8(uint8_t *v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] = (uint8_t)i; /* BUG: past the region, or in a region that is gone */
}

int main(void)
{
    const size_t pool_size = 4096, n = 63;
    nvtxDomainHandle_t dom = nvtxDomainCreateA("mc-nvtx-pool");
    uint8_t *pool;
    CHECK(cudaMalloc((void **)&pool, pool_size));
    nvtxMemHeapHandle_t heap = heap_register(dom, pool, pool_size);
    /* NULL: no NVTX tool is attached (natively); the NVTX calls below are then no-ops and the
     * writes stay inside the pool, so the program behaves the same with and without a tool. */
    printf("mc_nvtx_pool: NVTX heap handle %s\n", heap == NULL ? "NULL (no NVTX tool)" : "set");
    uint8_t *region = pool + 16;
    region_register(dom, heap, region, n);
    iota8<<<1, (unsigned)n>>>(region); /* clean */
    CHECK(cudaDeviceSynchronize());
    iota8<<<1, (unsigned)n + 1>>>(region); /* one byte past the region */
    CHECK(cudaDeviceSynchronize());
    region_resize(dom, region, n + 1);
    iota8<<<1, (unsigned)n + 1>>>(region); /* clean after the resize */
    CHECK(cudaDeviceSynchronize());
    region_unregister(dom, region);
    iota8<<<1, 1>>>(region); /* the region is gone */
    CHECK(cudaDeviceSynchronize());
    region_register(dom, heap, region, n);
    nvtxMemHeapReset(dom, heap);
    /* The heap was reset. Two threads, not one: a launch of the shape above with the same
     * argument against the same (absent) bounds would be a repeat, unchecked in adaptive mode. */
    iota8<<<1, 2>>>(region);
    CHECK(cudaDeviceSynchronize());
    nvtxMemHeapUnregister(dom, heap);
    CHECK(cudaFree(pool));
    printf("mc_nvtx_pool: done\n");
    return 0;
}
