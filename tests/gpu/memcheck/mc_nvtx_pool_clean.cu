/* memcheck test, clean twin of mc_nvtx_pool: two regions of an NVTX-registered 4 KiB pool,
 * each written only inside its bounds, one resized and unregistered after its last use, the
 * heap unregistered before the pool is freed; a write to the pool outside the heap's regions
 * happens only after nvtxMemHeapUnregister (plain cudaMalloc memory again). Expected: no
 * finding, exit status 0. */
#include "mc_common.h"
#include <stdint.h>
#include <nvtx3/nvToolsExtMem.h>

__global__ void iota8(uint8_t *v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] = (uint8_t)i;
}

static void region_register(nvtxDomainHandle_t d, nvtxMemHeapHandle_t heap, void *p, size_t n)
{
    nvtxMemVirtualRangeDesc_t r = {};
    r.ptr = p;
    r.size = n;
    nvtxMemRegionsRegisterBatch_t b = {};
    b.extCompatID = NVTX_EXT_COMPATID_MEM;
    b.structSize = sizeof b;
    b.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    b.heap = heap;
    b.regionCount = 1;
    b.regionDescElementSize = sizeof r;
    b.regionDescElements = &r;
    nvtxMemRegionsRegister(d, &b);
}

static void region_unregister(nvtxDomainHandle_t d, void *p)
{
    nvtxMemRegionRef_t ref;
    ref.pointer = p;
    nvtxMemRegionsUnregisterBatch_t b = {};
    b.extCompatID = NVTX_EXT_COMPATID_MEM;
    b.structSize = sizeof b;
    b.refType = NVTX_MEM_REGION_REF_TYPE_POINTER;
    b.refCount = 1;
    b.refElementSize = sizeof ref;
    b.refElements = &ref;
    nvtxMemRegionsUnregister(d, &b);
}

int main(void)
{
    const size_t pool_size = 4096;
    nvtxDomainHandle_t dom = nvtxDomainCreateA("mc-nvtx-pool-clean");
    uint8_t *pool;
    CHECK(cudaMalloc((void **)&pool, pool_size));
    nvtxMemVirtualRangeDesc_t whole = {};
    whole.ptr = pool;
    whole.size = pool_size;
    nvtxMemHeapDesc_t hd = {};
    hd.extCompatID = NVTX_EXT_COMPATID_MEM;
    hd.structSize = sizeof hd;
    hd.usage = NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR;
    hd.type = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    hd.typeSpecificDescSize = sizeof whole;
    hd.typeSpecificDesc = &whole;
    nvtxMemHeapHandle_t heap = nvtxMemHeapRegister(dom, &hd);
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
