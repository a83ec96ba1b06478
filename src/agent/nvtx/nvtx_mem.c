/* The NVTX memory extension (nvToolsExtMem.h) as memcheck reads it: sub-allocator heaps
 * (nvtxMemHeapRegister with NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR over a virtual-address range)
 * and their regions (register, resize, unregister by pointer or handle), heap reset and
 * unregistration, handed to the sub-allocator layer (instr/instr_suballoc.h). Every descriptor is
 * checked (NULL pointers, extCompatID, structSize, element sizes, counts whose bytes overflow)
 * before a field is read; what cannot be read, and other heap usages or memory types (layout
 * heaps, CUDA arrays), is left alone. Every call answers as a tool does: heaps and permissions
 * get unique non-NULL handles (also when they are not tracked), a region's handle is its
 * pointer; names, permissions and the CUDA companions (nvToolsExtMemCudaRt.h) are accepted and
 * change nothing. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#define NVTX_NO_IMPL /* the types and ids only: the program's NVTX calls us */
#include <nvtx3/nvToolsExtMem.h>
#include "agent/instr/instr_suballoc.h"
#include "agent/nvtx/nvtx_mem.h"

/* Handles of heaps the layer does not track and of permissions: above every heap id. */
#define CC_NVTX_UNTRACKED_HEAP (1ull << 63)
#define CC_NVTX_PERMISSIONS (1ull << 62)

static atomic_uint_fast64_t cc_nvtx_untracked;
static atomic_uint_fast64_t cc_nvtx_permissions;

/* Same major version of the extension (its low byte may grow with appended fields, which
 * structSize covers). */
static int compat_ok(uint16_t id)
{
    return (id >> 8) == (NVTX_EXT_COMPATID_MEM >> 8) && id >= NVTX_EXT_COMPATID_MEM;
}

/* A batch's elements can be read: a pointer, element size at least `need`, and a byte count
 * that does not overflow. */
static int elements_ok(const void *elements, size_t count, size_t element_size, size_t need)
{
    return elements != NULL && element_size >= need && count <= SIZE_MAX / element_size;
}

static nvtxMemHeapHandle_t untracked_heap(void)
{
    uint64_t n = atomic_fetch_add(&cc_nvtx_untracked, 1) + 1;
    return (nvtxMemHeapHandle_t)(uintptr_t)(CC_NVTX_UNTRACKED_HEAP | n);
}

/* The layer's heap id of a handle, 0 for the process-wide heap (NULL) and untracked ones. */
static uint64_t heap_id(nvtxMemHeapHandle_t heap)
{
    uint64_t v = (uint64_t)(uintptr_t)heap;
    return (v & CC_NVTX_UNTRACKED_HEAP) ? 0 : v;
}

#define HAS_FIELD(desc, type, field)                                                          \
    ((desc)->structSize >= offsetof(type, field) + sizeof((desc)->field))

static nvtxMemHeapHandle_t NVTX_API mem_heap_register(nvtxDomainHandle_t domain,
                                                      nvtxMemHeapDesc_t const *desc)
{
    (void)domain;
    if (desc == NULL || !compat_ok(desc->extCompatID) ||
        !HAS_FIELD(desc, nvtxMemHeapDesc_t, typeSpecificDesc) ||
        desc->usage != NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR ||
        desc->type != NVTX_MEM_TYPE_VIRTUAL_ADDRESS || desc->typeSpecificDesc == NULL ||
        desc->typeSpecificDescSize < sizeof(nvtxMemVirtualRangeDesc_t)) {
        return untracked_heap();
    }
    const nvtxMemVirtualRangeDesc_t *range = desc->typeSpecificDesc;
    if (range->ptr == NULL || range->size == 0) {
        return untracked_heap();
    }
    uint64_t id = cc_suballoc_heap_register(CC_SUBALLOC_NVTX, (uint64_t)(uintptr_t)range->ptr,
                                            (uint64_t)range->size);
    if (id == 0 || (id & (CC_NVTX_UNTRACKED_HEAP | CC_NVTX_PERMISSIONS)) != 0) {
        return untracked_heap();
    }
    return (nvtxMemHeapHandle_t)(uintptr_t)id;
}

static void NVTX_API mem_heap_unregister(nvtxDomainHandle_t domain, nvtxMemHeapHandle_t heap)
{
    (void)domain;
    uint64_t id = heap_id(heap);
    if (id != 0) {
        cc_suballoc_heap_unregister(id);
    }
}

static void NVTX_API mem_heap_reset(nvtxDomainHandle_t domain, nvtxMemHeapHandle_t heap)
{
    (void)domain;
    uint64_t id = heap_id(heap);
    if (id != 0) {
        cc_suballoc_heap_reset(id);
    }
}

static void NVTX_API mem_regions_register(nvtxDomainHandle_t domain,
                                          nvtxMemRegionsRegisterBatch_t const *desc)
{
    (void)domain;
    if (desc == NULL || !compat_ok(desc->extCompatID) ||
        !HAS_FIELD(desc, nvtxMemRegionsRegisterBatch_t, regionDescElements) ||
        desc->regionType != NVTX_MEM_TYPE_VIRTUAL_ADDRESS ||
        !elements_ok(desc->regionDescElements, desc->regionCount, desc->regionDescElementSize,
                     sizeof(nvtxMemVirtualRangeDesc_t))) {
        return;
    }
    nvtxMemRegionHandle_t *out =
        HAS_FIELD(desc, nvtxMemRegionsRegisterBatch_t, regionHandleElementsOut)
            ? desc->regionHandleElementsOut
            : NULL;
    uint64_t id = heap_id(desc->heap);
    const unsigned char *at = desc->regionDescElements;
    for (size_t i = 0; i < desc->regionCount; i++, at += desc->regionDescElementSize) {
        const nvtxMemVirtualRangeDesc_t *r = (const nvtxMemVirtualRangeDesc_t *)(const void *)at;
        if (out != NULL) {
            out[i] = (nvtxMemRegionHandle_t)(uintptr_t)r->ptr; /* a region is named by its start */
        }
        if (id != 0 && r->ptr != NULL && r->size > 0) {
            cc_suballoc_region_register(id, (uint64_t)(uintptr_t)r->ptr, (uint64_t)r->size);
        }
    }
}

static void NVTX_API mem_regions_resize(nvtxDomainHandle_t domain,
                                        nvtxMemRegionsResizeBatch_t const *desc)
{
    (void)domain;
    if (desc == NULL || !compat_ok(desc->extCompatID) ||
        !HAS_FIELD(desc, nvtxMemRegionsResizeBatch_t, regionDescElements) ||
        desc->regionType != NVTX_MEM_TYPE_VIRTUAL_ADDRESS ||
        !elements_ok(desc->regionDescElements, desc->regionDescCount,
                     desc->regionDescElementSize, sizeof(nvtxMemVirtualRangeDesc_t))) {
        return;
    }
    const unsigned char *at = desc->regionDescElements;
    for (size_t i = 0; i < desc->regionDescCount; i++, at += desc->regionDescElementSize) {
        const nvtxMemVirtualRangeDesc_t *r = (const nvtxMemVirtualRangeDesc_t *)(const void *)at;
        if (r->ptr != NULL && r->size > 0) {
            cc_suballoc_region_resize((uint64_t)(uintptr_t)r->ptr, (uint64_t)r->size);
        }
    }
}

static void NVTX_API mem_regions_unregister(nvtxDomainHandle_t domain,
                                            nvtxMemRegionsUnregisterBatch_t const *desc)
{
    (void)domain;
    if (desc == NULL || !compat_ok(desc->extCompatID) ||
        !HAS_FIELD(desc, nvtxMemRegionsUnregisterBatch_t, refElements) ||
        (desc->refType != NVTX_MEM_REGION_REF_TYPE_POINTER &&
         desc->refType != NVTX_MEM_REGION_REF_TYPE_HANDLE) ||
        !elements_ok(desc->refElements, desc->refCount, desc->refElementSize,
                     sizeof(nvtxMemRegionRef_t))) {
        return;
    }
    const unsigned char *at = (const unsigned char *)desc->refElements;
    for (size_t i = 0; i < desc->refCount; i++, at += desc->refElementSize) {
        const nvtxMemRegionRef_t *ref = (const nvtxMemRegionRef_t *)(const void *)at;
        /* a handle is the region's pointer (mem_regions_register) */
        uint64_t base = desc->refType == NVTX_MEM_REGION_REF_TYPE_POINTER
                            ? (uint64_t)(uintptr_t)ref->pointer
                            : (uint64_t)(uintptr_t)ref->handle;
        if (base != 0 && base != UINT64_MAX) {
            cc_suballoc_region_unregister(base);
        }
    }
}

static void NVTX_API mem_regions_name(nvtxDomainHandle_t domain,
                                      nvtxMemRegionsNameBatch_t const *desc)
{
    (void)domain;
    (void)desc;
}

static void NVTX_API mem_permissions_assign(nvtxDomainHandle_t domain,
                                            nvtxMemPermissionsAssignBatch_t const *desc)
{
    (void)domain;
    (void)desc;
}

static nvtxMemPermissionsHandle_t new_permissions(void)
{
    uint64_t n = atomic_fetch_add(&cc_nvtx_permissions, 1) + 1;
    return (nvtxMemPermissionsHandle_t)(uintptr_t)(CC_NVTX_PERMISSIONS | n);
}

static nvtxMemPermissionsHandle_t NVTX_API mem_permissions_create(nvtxDomainHandle_t domain,
                                                                  int32_t flags)
{
    (void)domain;
    (void)flags;
    return new_permissions();
}

static void NVTX_API mem_permissions_destroy(nvtxDomainHandle_t domain,
                                             nvtxMemPermissionsHandle_t permissions)
{
    (void)domain;
    (void)permissions;
}

static void NVTX_API mem_permissions_reset(nvtxDomainHandle_t domain,
                                           nvtxMemPermissionsHandle_t permissions)
{
    (void)domain;
    (void)permissions;
}

static void NVTX_API mem_permissions_bind(nvtxDomainHandle_t domain,
                                          nvtxMemPermissionsHandle_t permissions,
                                          uint32_t scope, uint32_t flags)
{
    (void)domain;
    (void)permissions;
    (void)scope;
    (void)flags;
}

static void NVTX_API mem_permissions_unbind(nvtxDomainHandle_t domain, uint32_t scope)
{
    (void)domain;
    (void)scope;
}

/* nvToolsExtMemCudaRt.h's functions share the extension's slots; their CUDA types are
 * pointers (cudaStream_t) and plain integers here. */
static nvtxMemPermissionsHandle_t NVTX_API mem_cuda_process_permissions(nvtxDomainHandle_t d)
{
    (void)d;
    return (nvtxMemPermissionsHandle_t)(uintptr_t)(CC_NVTX_PERMISSIONS | (1ull << 41));
}

static nvtxMemPermissionsHandle_t NVTX_API mem_cuda_device_permissions(nvtxDomainHandle_t d,
                                                                       int device)
{
    (void)d;
    /* one per device: a fixed handle from the device's number */
    return (nvtxMemPermissionsHandle_t)(uintptr_t)(CC_NVTX_PERMISSIONS | (1ull << 40) |
                                                   (uint32_t)device);
}

static void NVTX_API mem_cuda_set_peer_access(nvtxDomainHandle_t d,
                                              nvtxMemPermissionsHandle_t permissions,
                                              int peer, uint32_t flags)
{
    (void)d;
    (void)permissions;
    (void)peer;
    (void)flags;
}

static void NVTX_API mem_cuda_mark_initialized(nvtxDomainHandle_t d, void *stream,
                                               uint8_t per_thread, const void *desc)
{
    (void)d;
    (void)stream;
    (void)per_thread;
    (void)desc;
}

size_t cc_nvtx_mem_fill(intptr_t *slots, size_t slot_count)
{
    static const struct {
        size_t id;
        intptr_t fn;
    } fns[] = {
        {NVTX3EXT_CBID_nvtxMemHeapRegister, (intptr_t)mem_heap_register},
        {NVTX3EXT_CBID_nvtxMemHeapUnregister, (intptr_t)mem_heap_unregister},
        {NVTX3EXT_CBID_nvtxMemHeapReset, (intptr_t)mem_heap_reset},
        {NVTX3EXT_CBID_nvtxMemRegionsRegister, (intptr_t)mem_regions_register},
        {NVTX3EXT_CBID_nvtxMemRegionsResize, (intptr_t)mem_regions_resize},
        {NVTX3EXT_CBID_nvtxMemRegionsUnregister, (intptr_t)mem_regions_unregister},
        {NVTX3EXT_CBID_nvtxMemRegionsName, (intptr_t)mem_regions_name},
        {NVTX3EXT_CBID_nvtxMemPermissionsAssign, (intptr_t)mem_permissions_assign},
        {NVTX3EXT_CBID_nvtxMemPermissionsCreate, (intptr_t)mem_permissions_create},
        {NVTX3EXT_CBID_nvtxMemPermissionsDestroy, (intptr_t)mem_permissions_destroy},
        {NVTX3EXT_CBID_nvtxMemPermissionsReset, (intptr_t)mem_permissions_reset},
        {NVTX3EXT_CBID_nvtxMemPermissionsBind, (intptr_t)mem_permissions_bind},
        {NVTX3EXT_CBID_nvtxMemPermissionsUnbind, (intptr_t)mem_permissions_unbind},
        {NVTX3EXT_CBID_nvtxMemCudaGetProcessWidePermissions,
         (intptr_t)mem_cuda_process_permissions},
        {NVTX3EXT_CBID_nvtxMemCudaGetDeviceWidePermissions, (intptr_t)mem_cuda_device_permissions},
        {NVTX3EXT_CBID_nvtxMemCudaSetPeerAccess, (intptr_t)mem_cuda_set_peer_access},
        {NVTX3EXT_CBID_nvtxMemCudaMarkInitialized, (intptr_t)mem_cuda_mark_initialized},
    };
    size_t filled = 0;
    if (slots == NULL) {
        return 0;
    }
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        if (fns[i].id < slot_count) {
            slots[fns[i].id] = fns[i].fn;
            filled++;
        }
    }
    return filled;
}
