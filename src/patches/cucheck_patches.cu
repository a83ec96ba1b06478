// Device patch code injected by the Compute Sanitizer API (compiled with
// `nvcc --fatbin --compile-as-tools-patch`, embedded into the agent). For now: memory-access
// callbacks for global, shared and local memory that record the first `capacity` accesses of a
// launch into the per-launch buffer passed as userdata (patch_records.h). Every patch runs
// before its instruction; returning SANITIZER_PATCH_ERROR would make the whole warp exit, so these
// always return success.
#include <sanitizer_patching.h>
#include "patch_records.h"

static __device__ __forceinline__ void cc_record_access(void *userdata, uint64_t pc, void *ptr,
                                                        uint32_t size, uint32_t flags,
                                                        uint16_t space)
{
    cc_patch_launch_buffer *buf = (cc_patch_launch_buffer *)userdata;
    if (buf == nullptr || buf->magic != CC_PATCH_BUFFER_MAGIC) {
        return; // no buffer bound to this launch
    }
    unsigned long long slot = atomicAdd(&buf->count, 1ull);
    if (slot >= buf->capacity) {
        return; // full: the host sees count > capacity and reports the drop
    }
    cc_patch_access *rec = (cc_patch_access *)(buf + 1) + slot;
    rec->pc = pc;
    rec->address = (uint64_t)(uintptr_t)ptr;
    rec->size = size;
    rec->flags = (uint16_t)(flags & 0xffu);
    rec->space = space;
    rec->thread[0] = threadIdx.x;
    rec->thread[1] = threadIdx.y;
    rec->thread[2] = threadIdx.z;
    rec->block[0] = blockIdx.x;
    rec->block[1] = blockIdx.y;
    rec->block[2] = blockIdx.z;
}

// Signature: SanitizerCallbackMemoryAccess (sanitizer_patching.h).
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_patch_global_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                       const void *pData)
{
    (void)pData;
    cc_record_access(userdata, pc, ptr, accessSize, flags, CC_PATCH_SPACE_GLOBAL);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_patch_shared_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                       const void *pData)
{
    (void)pData;
    cc_record_access(userdata, pc, ptr, accessSize, flags, CC_PATCH_SPACE_SHARED);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_patch_local_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                      const void *pData)
{
    (void)pData;
    cc_record_access(userdata, pc, ptr, accessSize, flags, CC_PATCH_SPACE_LOCAL);
    return SANITIZER_PATCH_SUCCESS;
}

// Compile-time checks that the patches match the header's callback type and record layout (the
// Sanitizer API itself checks nothing). Taking a patch's address is not allowed in a tools patch,
// so compare types only.
template <typename A, typename B> struct cc_same_type { static const bool value = false; };
template <typename A> struct cc_same_type<A, A> { static const bool value = true; };
static_assert(cc_same_type<decltype(&cc_patch_global_access), SanitizerCallbackMemoryAccess>::value,
              "global access patch signature");
static_assert(cc_same_type<decltype(&cc_patch_shared_access), SanitizerCallbackMemoryAccess>::value,
              "shared access patch signature");
static_assert(cc_same_type<decltype(&cc_patch_local_access), SanitizerCallbackMemoryAccess>::value,
              "local access patch signature");
static_assert(sizeof(cc_patch_access) == 48, "cc_patch_access layout");
static_assert(sizeof(cc_patch_launch_buffer) == 32, "cc_patch_launch_buffer layout");
