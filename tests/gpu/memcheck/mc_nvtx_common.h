/* Shared by the memcheck NVTX programs (mc_nvtx_pool*.cu): a cudaMalloc pool registered as an
 * NVTX sub-allocator heap, and one-region batches of the NVTX memory API (register, resize,
 * unregister by pointer). */
#ifndef CUCHECK_TESTS_GPU_MEMCHECK_NVTX_COMMON_H
#define CUCHECK_TESTS_GPU_MEMCHECK_NVTX_COMMON_H

#include <stddef.h>
#include <nvtx3/nvToolsExtMem.h>

/* The heap over [pool, pool + size); NULL where no NVTX tool is attached (natively). */
static inline nvtxMemHeapHandle_t heap_register(nvtxDomainHandle_t d, void *pool, size_t size)
{
    nvtxMemVirtualRangeDesc_t whole = {};
    whole.ptr = pool;
    whole.size = size;
    nvtxMemHeapDesc_t hd = {};
    hd.extCompatID = NVTX_EXT_COMPATID_MEM;
    hd.structSize = sizeof hd;
    hd.usage = NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR;
    hd.type = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    hd.typeSpecificDescSize = sizeof whole;
    hd.typeSpecificDesc = &whole;
    return nvtxMemHeapRegister(d, &hd);
}

static inline void region_register(nvtxDomainHandle_t d, nvtxMemHeapHandle_t heap, void *p, size_t n)
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

static inline void region_resize(nvtxDomainHandle_t d, void *p, size_t n)
{
    nvtxMemVirtualRangeDesc_t r = {};
    r.ptr = p;
    r.size = n;
    nvtxMemRegionsResizeBatch_t b = {};
    b.extCompatID = NVTX_EXT_COMPATID_MEM;
    b.structSize = sizeof b;
    b.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    b.regionDescCount = 1;
    b.regionDescElementSize = sizeof r;
    b.regionDescElements = &r;
    nvtxMemRegionsResize(d, &b);
}

static inline void region_unregister(nvtxDomainHandle_t d, void *p)
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

#endif
