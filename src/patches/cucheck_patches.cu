// Device patch code injected by the Compute Sanitizer API (compiled with
// `nvcc --fatbin --compile-as-tools-patch`, embedded into the agent; layouts in patch_records.h).
// cc_mc_*_access are memcheck's checks: they look each global access up in the launch's
// allocation table, check alignment, and write only violations (deduplicated by pc) back. Every patch runs before its instruction; returning
// SANITIZER_PATCH_ERROR makes the whole warp exit, which memcheck uses for --on-error stop.
#include <sanitizer_patching.h>
#include "patch_records.h"

// Compile-time checks that the patches match the header's callback type and record layout (the
// Sanitizer API itself checks nothing). Taking a patch's address is not allowed in a tools patch,
// so compare types only.
template <typename A, typename B> struct cc_same_type { static const bool value = false; };
template <typename A> struct cc_same_type<A, A> { static const bool value = true; };

// ---- memcheck (patch_records.h, "memcheck"): check on the device, keep only violations ----

// 1 if [a, a + size) lies inside one live allocation of the launch's table.
static __device__ __forceinline__ bool cc_mc_in_table(const cc_mc_range *t, uint64_t n, uint64_t a,
                                                      uint32_t size)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) { // first range with base > a
        uint64_t mid = (lo + hi) >> 1;
        if (t[mid].base <= a) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo > 0 && a + size <= t[lo - 1].end;
}

static __device__ __noinline__ void cc_mc_record(cc_mc_launch *L, uint64_t pc, uint64_t addr,
                                                 uint32_t size, uint32_t flags, uint16_t space,
                                                 uint32_t violation)
{
    unsigned long long key = (unsigned long long)pc * 4ull + violation;
    unsigned int h = (unsigned int)((pc >> 4) % CC_MC_MAX_SITES);
    int idx = -1;
    bool claimed = false;
    for (unsigned int i = 0; i < CC_MC_MAX_SITES; i++) {
        unsigned int j = (h + i) % CC_MC_MAX_SITES;
        unsigned long long old = atomicCAS(&L->keys[j], 0ull, key);
        if (old == 0ull || old == key) {
            idx = (int)j;
            claimed = old == 0ull;
            break;
        }
    }
    if (idx < 0) {
        atomicAdd(&L->overflow, 1u);
        return;
    }
    cc_mc_site *site = &L->sites[idx];
    if (claimed) {
        site->pc = pc;
        site->violation = violation;
        __threadfence_system();
        site->valid = 1u;
    }
    unsigned int n = atomicAdd(&L->counts[idx], 1u);
    if (n < CC_MC_SAMPLES) {
        cc_mc_sample *s = &site->samples[n];
        s->address = addr;
        s->size = size;
        s->flags = (uint16_t)(flags & 0xffu);
        s->space = space;
        s->thread[0] = threadIdx.x;
        s->thread[1] = threadIdx.y;
        s->thread[2] = threadIdx.z;
        s->block[0] = blockIdx.x;
        s->block[1] = blockIdx.y;
        s->block[2] = blockIdx.z;
        __threadfence_system();
        site->sample_valid[n] = 1u;
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_mc_global_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    const void *pData)
{
    (void)pData;
    cc_mc_launch *L = (cc_mc_launch *)userdata;
    if (L == nullptr) {
        return SANITIZER_PATCH_SUCCESS; // not a checked launch
    }
    // One cache line: issue the three loads together rather than one after the other.
    uint32_t magic = L->magic;
    uint64_t ntable = L->ntable;
    const cc_mc_range *table = L->table;
    if (magic != CC_MC_LAUNCH_MAGIC) {
        return SANITIZER_PATCH_SUCCESS;
    }
    if (!__isGlobal(ptr)) {
        return SANITIZER_PATCH_SUCCESS; // a generic access to shared/local memory
    }
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    uint32_t violation = 0;
    if (accessSize > 1 && (a & (uint64_t)(accessSize - 1)) != 0) {
        violation = CC_MC_VIOL_MISALIGNED;
    } else if (!cc_mc_in_table(table, ntable, a, accessSize)) {
        violation = CC_MC_VIOL_OUT_OF_BOUNDS;
    }
    if (violation == 0) {
        return SANITIZER_PATCH_SUCCESS;
    }
    cc_mc_record(L, pc, a, accessSize, flags, CC_PATCH_SPACE_GLOBAL, violation);
    return (L->flags & CC_MC_FLAG_STOP) ? SANITIZER_PATCH_ERROR : SANITIZER_PATCH_SUCCESS;
}

// Shared and local accesses arrive as offsets in the block's/thread's window, whose size the
// launch data does not carry: only alignment is checked (the hardware traps window overruns).
static __device__ __forceinline__ SanitizerPatchResult
cc_mc_window_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    uint16_t space)
{
    cc_mc_launch *L = (cc_mc_launch *)userdata;
    if (L == nullptr || L->magic != CC_MC_LAUNCH_MAGIC) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    if (accessSize <= 1 || (a & (uint64_t)(accessSize - 1)) == 0) {
        return SANITIZER_PATCH_SUCCESS;
    }
    cc_mc_record(L, pc, a, accessSize, flags, space, CC_MC_VIOL_MISALIGNED);
    return (L->flags & CC_MC_FLAG_STOP) ? SANITIZER_PATCH_ERROR : SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_mc_shared_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    const void *pData)
{
    (void)pData;
    return cc_mc_window_access(userdata, pc, ptr, accessSize, flags, CC_PATCH_SPACE_SHARED);
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_mc_local_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                   const void *pData)
{
    (void)pData;
    return cc_mc_window_access(userdata, pc, ptr, accessSize, flags, CC_PATCH_SPACE_LOCAL);
}

static_assert(cc_same_type<decltype(&cc_mc_global_access), SanitizerCallbackMemoryAccess>::value,
              "memcheck global patch signature");
static_assert(cc_same_type<decltype(&cc_mc_shared_access), SanitizerCallbackMemoryAccess>::value,
              "memcheck shared patch signature");
static_assert(cc_same_type<decltype(&cc_mc_local_access), SanitizerCallbackMemoryAccess>::value,
              "memcheck local patch signature");
static_assert(sizeof(cc_mc_sample) == 40, "cc_mc_sample layout");
static_assert(sizeof(cc_mc_range) == 16, "cc_mc_range layout");
