// Device patch code injected by the Compute Sanitizer API (compiled with
// `nvcc --fatbin --compile-as-tools-patch`, embedded into the agent; layouts in patch_records.h).
// cc_mc_* are memcheck's checks: global accesses against the launch's allocation table (a scan of
// up to 8 ranges, a binary search beyond) and the context's device-heap table,
// shared/local accesses against their windows, cp.async, device-side malloc/free; only
// violations (deduplicated by pc) go back. Every patch runs before its instruction; returning
// SANITIZER_PATCH_ERROR makes the whole warp exit, which memcheck uses for --on-error stop.
#include <stddef.h>
#include <sanitizer_patching.h>
#include "patch_records.h"

// Compile-time checks that the patches match the header's callback type and record layout (the
// Sanitizer API itself checks nothing). Taking a patch's address is not allowed in a tools patch,
// so compare types only.
template <typename A, typename B> struct cc_same_type { static const bool value = false; };
template <typename A> struct cc_same_type<A, A> { static const bool value = true; };

// ---- memcheck (patch_records.h, "memcheck"): check on the device, keep only violations ----

// Index of the first range with base > a (0: a lies before every range) in a table of more than
// 8 ranges: a binary search, rolled, in few registers (an unrolled 8-ary search needed so many
// that cuBLAS's GEMM kernel could no longer be launched once patched, seen on the H200). Lanes
// of a warp whose accesses fall in one allocation take the same path and load the same
// addresses (broadcast), so the warp pays for one search.
static __device__ __noinline__ uint64_t cc_mc_upper_large(const cc_mc_range *t, uint64_t n,
                                                          uint64_t a)
{
    uint64_t lo = 0, hi = n;
#pragma unroll 1
    while (lo < hi) {
        uint64_t mid = lo + ((hi - lo) >> 1);
        if (t[mid].base <= a) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// The same for a table of at most CC_MC_INLINE_RANGES ranges: scanned in order, with a 32-bit
// index (a 64-bit one cost the global patch one more saved register).
static __device__ __forceinline__ uint32_t cc_mc_upper_small(const cc_mc_range *t, uint32_t n,
                                                             uint64_t a)
{
    uint32_t i = 0;
#pragma unroll 1
    while (i < n && t[i].base <= a) {
        i++;
    }
    return i;
}

// 1 if [a, a + size) lies inside one of the n <= CC_MC_INLINE_RANGES ranges of t.
static __device__ __forceinline__ bool cc_mc_in_small_table(const cc_mc_range *t, uint32_t n,
                                                            uint64_t a, uint32_t size)
{
    uint32_t i = cc_mc_upper_small(t, n, a);
    return i > 0u && a + size <= t[i - 1].end;
}

// 1 if [a, a + size) lies inside one live allocation of the launch's table (any size).
static __device__ __forceinline__ bool cc_mc_in_table(const cc_mc_range *t, uint64_t n, uint64_t a,
                                                      uint32_t size)
{
    if (n <= CC_MC_INLINE_RANGES) {
        return cc_mc_in_small_table(t, (uint32_t)n, a, size);
    }
    uint64_t i = cc_mc_upper_large(t, n, a);
    return i > 0 && a + size <= t[i - 1].end;
}

// Device heap verdict for a global access that is in no table range: 0 (inside a live device
// malloc block, or in the heap's span while some blocks went unrecorded), CC_MC_VIOL_HEAP_* (in
// the heap's span but in no live block), or CC_MC_VIOL_OUT_OF_BOUNDS (not heap memory).
static __device__ __noinline__ uint32_t cc_mc_heap_verdict(cc_mc_heap *h, uint64_t a, uint32_t size)
{
    if (h == nullptr || h->magic != CC_MC_HEAP_MAGIC) {
        return CC_MC_VIOL_OUT_OF_BOUNDS;
    }
    volatile cc_mc_heap *vh = h;
    if (a < vh->lo || a >= vh->hi) {
        return CC_MC_VIOL_OUT_OF_BOUNDS;
    }
    unsigned int n = vh->next;
    n = n < CC_MC_HEAP_CAP ? n : CC_MC_HEAP_CAP;
    uint32_t verdict = CC_MC_VIOL_HEAP_OVERRUN;
    for (unsigned int i = n; i-- > 0;) { // newest first: a freed block's address may be reused
        volatile cc_mc_heap_block *b = &vh->blocks[i];
        unsigned int state = b->state;
        if (state == 0u || a < b->base || a >= b->end) {
            continue;
        }
        if (state == CC_MC_HEAP_LIVE) {
            return a + size <= b->end ? 0u : CC_MC_VIOL_HEAP_OVERRUN;
        }
        if (verdict == CC_MC_VIOL_HEAP_OVERRUN) {
            verdict = CC_MC_VIOL_HEAP_FREED; // keep looking for a live block at this address
        }
    }
    return vh->overflow != 0u ? 0u : verdict;
}

static __device__ __noinline__ void cc_mc_record(cc_mc_launch *L, uint64_t pc, uint64_t addr,
                                                 uint32_t size, uint32_t flags, uint16_t space,
                                                 uint32_t violation)
{
    unsigned long long key = (unsigned long long)pc * 8ull + violation;
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

static __device__ __forceinline__ SanitizerPatchResult cc_mc_verdict(cc_mc_launch *L,
                                                                     uint32_t violation)
{
    return violation != 0u && (L->flags & CC_MC_FLAG_STOP) ? SANITIZER_PATCH_ERROR
                                                           : SANITIZER_PATCH_SUCCESS;
}

// The violation of a global access (0 if none); global = false for a generic pointer to
// shared/local memory.
static __device__ __forceinline__ uint32_t cc_mc_global_violation(cc_mc_launch *L, const cc_mc_range *t,
                                                                  uint64_t n, uint64_t a,
                                                                  uint32_t size, bool global)
{
    if (!global) {
        return 0u;
    }
    if (size > 1u && (a & (uint64_t)(size - 1u)) != 0u) {
        return CC_MC_VIOL_MISALIGNED;
    }
    return cc_mc_in_table(t, n, a, size) ? 0u : cc_mc_heap_verdict(L->heap, a, size);
}

// The slow ends of the global-access patch, each called in tail position so that the patch
// keeps nothing live across a call and needs no stack frame (ptxas -v: an inlined search and
// record had cost every call a 120-byte frame and 300 bytes of spill traffic).
// A global access in no range of a small table: heap verdict, record, verdict.
static __device__ __noinline__ SanitizerPatchResult cc_mc_global_miss(cc_mc_launch *L, uint64_t pc,
                                                                      uint64_t a, uint32_t size,
                                                                      uint32_t flags)
{
    if (!__isGlobal((const void *)(uintptr_t)a)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint32_t violation = cc_mc_heap_verdict(L->heap, a, size);
    if (violation != 0u) {
        cc_mc_record(L, pc, a, size, flags, CC_PATCH_SPACE_GLOBAL, violation);
    }
    return cc_mc_verdict(L, violation);
}

// A global access with a known violation (misaligned).
static __device__ __noinline__ SanitizerPatchResult
cc_mc_global_report(cc_mc_launch *L, uint64_t pc, uint64_t a, uint32_t size, uint32_t flags,
                    uint32_t violation)
{
    if (!__isGlobal((const void *)(uintptr_t)a)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    cc_mc_record(L, pc, a, size, flags, CC_PATCH_SPACE_GLOBAL, violation);
    return cc_mc_verdict(L, violation);
}

// A global access checked against a table of more than 8 ranges.
static __device__ __noinline__ SanitizerPatchResult cc_mc_global_large(cc_mc_launch *L, uint64_t pc,
                                                                       uint64_t a, uint32_t size,
                                                                       uint32_t flags)
{
    if (cc_mc_in_table(L->table, L->ntable, a, size) || !__isGlobal((const void *)(uintptr_t)a)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint32_t violation = cc_mc_heap_verdict(L->heap, a, size); // as cc_mc_global_miss, one call
    if (violation != 0u) {                                     // level less deep
        cc_mc_record(L, pc, a, size, flags, CC_PATCH_SPACE_GLOBAL, violation);
    }
    return cc_mc_verdict(L, violation);
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
    // Scalar loads at fixed offsets from L, not one vector load: the patch is bound by memory
    // instructions per call (its register saves included), not by their latency (measured).
    uint32_t magic = L->magic;
    uint32_t n = L->ninline;
    if (magic != CC_MC_LAUNCH_MAGIC) {
        return SANITIZER_PATCH_SUCCESS;
    }
    // A generic access to shared or local memory is not checked here; whether the address is
    // global is asked only on the slow paths (an address inside an allocation is global).
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    if (accessSize > 1u && (a & (uint64_t)(accessSize - 1u)) != 0u) {
        return cc_mc_global_report(L, pc, a, accessSize, flags, CC_MC_VIOL_MISALIGNED);
    }
    if (n > CC_MC_INLINE_RANGES) {
        return cc_mc_global_large(L, pc, a, accessSize, flags);
    }
    // Up to CC_MC_INLINE_RANGES ranges, in the header, sorted by base.
    if (cc_mc_in_small_table(L->inline_table, n, a, accessSize)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    return cc_mc_global_miss(L, pc, a, accessSize, flags);
}

// End of the block's shared window: exact without dynamic shared memory; with it, the larger of
// the aligned static part plus %dynamic_smem_size and %total_smem_size (the launch's whole
// allocation, rounded up to the allocation unit), so that an over-aligned extern array never
// reads as an overrun.
static __device__ __forceinline__ uint32_t cc_mc_smem_end(const cc_mc_launch *L, uint32_t end)
{
    uint32_t dyn, total;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    if (dyn != 0u) {
        asm("mov.u32 %0, %%total_smem_size;" : "=r"(total));
        uint32_t lo = L->smem_lo;
        uint32_t aligned = (end - lo + CC_MC_DYN_SMEM_ALIGN - 1u) & ~(CC_MC_DYN_SMEM_ALIGN - 1u);
        uint32_t e1 = lo + aligned + dyn, e2 = lo + total;
        end = e1 > e2 ? e1 : e2;
    }
    return end;
}

// Shared and local accesses arrive as offsets in the block's/thread's window: alignment, and
// the window where the launch carries it (CC_MC_FLAG_SHARED_WINDOW / _LOCAL_WINDOW).
// flags and smem_end come from the caller's one load of the header's first 16 bytes. The local
// window [local_lo, local_end) is one 8-byte load and one unsigned compare: an offset below
// local_lo wraps to a distance larger than the window.
static __device__ __forceinline__ uint32_t cc_mc_window_violation(const cc_mc_launch *L, uint64_t a,
                                                                  uint32_t size, uint16_t space,
                                                                  uint32_t flags, uint32_t smem_end)
{
    if (size > 1u && (a & (uint64_t)(size - 1u)) != 0u) {
        return CC_MC_VIOL_MISALIGNED;
    }
    if (space == CC_PATCH_SPACE_SHARED && (flags & CC_MC_FLAG_SHARED_WINDOW)) {
        uint64_t off = a & CC_MC_SMEM_OFFSET_MASK;
        return off + size > cc_mc_smem_end(L, smem_end) ? CC_MC_VIOL_WINDOW : 0u;
    }
    if (space == CC_PATCH_SPACE_LOCAL && (flags & CC_MC_FLAG_LOCAL_WINDOW)) {
        const uint2 w = *reinterpret_cast<const uint2 *>(&L->local_lo); // lo, end
        uint32_t from_lo = (uint32_t)a - w.x;
        return (uint64_t)from_lo + size > (uint64_t)(w.y - w.x) ? CC_MC_VIOL_WINDOW : 0u;
    }
    return 0u;
}

// A shared or local access with a violation: record it; the verdict. Called in tail position
// (see cc_mc_global_miss).
static __device__ __noinline__ SanitizerPatchResult
cc_mc_window_report(cc_mc_launch *L, uint64_t pc, uint64_t a, uint32_t size, uint32_t flags,
                    uint16_t space, uint32_t violation)
{
    cc_mc_record(L, pc, a, size, flags, space, violation);
    return cc_mc_verdict(L, violation);
}

static __device__ __forceinline__ SanitizerPatchResult
cc_mc_window_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    uint16_t space)
{
    cc_mc_launch *L = (cc_mc_launch *)userdata;
    if (L == nullptr) {
        return SANITIZER_PATCH_SUCCESS;
    }
    const uint4 head = *reinterpret_cast<const uint4 *>(L); // magic, ninline, flags, smem_end
    if (head.x != CC_MC_LAUNCH_MAGIC) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    uint32_t violation = cc_mc_window_violation(L, a, accessSize, space, head.z, head.w);
    if (violation == 0u) {
        return SANITIZER_PATCH_SUCCESS;
    }
    return cc_mc_window_report(L, pc, a, accessSize, flags, space, violation);
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

// cp.async, the slow end: both verdicts again, recorded. Called in tail position (see
// cc_mc_global_miss) only when the fast path below did not clear the copy.
static __device__ __noinline__ SanitizerPatchResult cc_mc_memcpy_async_slow(cc_mc_launch *L,
                                                                            uint64_t pc,
                                                                            void *src, uint32_t dst,
                                                                            uint32_t size)
{
    uint64_t a = (uint64_t)(uintptr_t)src;
    uint32_t v = cc_mc_global_violation(L, L->table, L->ntable, a, size,
                                        src != nullptr && __isGlobal(src));
    if (v != 0u) {
        cc_mc_record(L, pc, a, size, CC_PATCH_ACCESS_READ, CC_PATCH_SPACE_GLOBAL, v);
    }
    uint32_t w = cc_mc_window_violation(L, dst, size, CC_PATCH_SPACE_SHARED, L->flags,
                                        L->smem_end);
    if (w != 0u) {
        cc_mc_record(L, pc, dst, size, CC_PATCH_ACCESS_WRITE, CC_PATCH_SPACE_SHARED, w);
    }
    return cc_mc_verdict(L, v | w);
}

// cp.async: a global read (src; NULL when nothing is read) and a shared write (dst, an offset in
// the shared window), each checked like the plain access. The fast path clears the common
// case (destination inside the window, source aligned and inside an inline range) with the
// header's first 16 bytes and the inline table, keeping recording out of this function's
// registers (it had a 64-byte frame and 168 bytes of spill traffic per call).
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_mc_memcpy_async(void *userdata, uint64_t pc, void *src, uint32_t dst, uint32_t accessSize)
{
    cc_mc_launch *L = (cc_mc_launch *)userdata;
    if (L == nullptr) {
        return SANITIZER_PATCH_SUCCESS;
    }
    const uint4 head = *reinterpret_cast<const uint4 *>(L); // magic, ninline, flags, smem_end
    if (head.x != CC_MC_LAUNCH_MAGIC) {
        return SANITIZER_PATCH_SUCCESS;
    }
    if (cc_mc_window_violation(L, dst, accessSize, CC_PATCH_SPACE_SHARED, head.z, head.w) != 0u) {
        return cc_mc_memcpy_async_slow(L, pc, src, dst, accessSize);
    }
    uint64_t a = (uint64_t)(uintptr_t)src;
    if (src == nullptr) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint32_t n = head.y;
    if (n > CC_MC_INLINE_RANGES || (accessSize > 1u && (a & (uint64_t)(accessSize - 1u)) != 0u)) {
        return cc_mc_memcpy_async_slow(L, pc, src, dst, accessSize);
    }
    if (cc_mc_in_small_table(L->inline_table, n, a, accessSize)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    return cc_mc_memcpy_async_slow(L, pc, src, dst, accessSize);
}

// Device-side malloc (called after it returned): the block joins the context's heap table.
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_mc_device_malloc(void *userdata, uint64_t pc, void *allocatedPtr, uint64_t allocatedSize)
{
    (void)pc;
    cc_mc_launch *L = (cc_mc_launch *)userdata;
    if (L == nullptr || L->magic != CC_MC_LAUNCH_MAGIC || allocatedPtr == nullptr) {
        return SANITIZER_PATCH_SUCCESS;
    }
    cc_mc_heap *h = L->heap;
    if (h == nullptr || h->magic != CC_MC_HEAP_MAGIC) {
        return SANITIZER_PATCH_SUCCESS;
    }
    unsigned long long base = (unsigned long long)(uintptr_t)allocatedPtr;
    unsigned long long end = base + (allocatedSize > 0 ? allocatedSize : 1ull);
    atomicMin(&h->lo, base);
    atomicMax(&h->hi, end);
    unsigned int i = atomicAdd(&h->next, 1u);
    if (i >= CC_MC_HEAP_CAP) {
        atomicAdd(&h->overflow, 1u);
        return SANITIZER_PATCH_SUCCESS;
    }
    h->blocks[i].base = base;
    h->blocks[i].end = base + allocatedSize;
    __threadfence();
    atomicExch(&h->blocks[i].state, CC_MC_HEAP_LIVE);
    return SANITIZER_PATCH_SUCCESS;
}

// Device-side free (called before it runs): the newest block starting at ptr must be live.
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_mc_device_free(void *userdata, uint64_t pc, void *ptr)
{
    cc_mc_launch *L = (cc_mc_launch *)userdata;
    if (L == nullptr || L->magic != CC_MC_LAUNCH_MAGIC || ptr == nullptr) {
        return SANITIZER_PATCH_SUCCESS; // free(NULL) does nothing
    }
    cc_mc_heap *h = L->heap;
    if (h == nullptr || h->magic != CC_MC_HEAP_MAGIC) {
        return SANITIZER_PATCH_SUCCESS;
    }
    volatile cc_mc_heap *vh = h;
    unsigned long long a = (unsigned long long)(uintptr_t)ptr;
    unsigned int n = vh->next;
    n = n < CC_MC_HEAP_CAP ? n : CC_MC_HEAP_CAP;
    uint32_t violation = CC_MC_VIOL_DEVICE_FREE_INVALID;
    for (unsigned int i = n; i-- > 0;) {
        if (vh->blocks[i].state == 0u || vh->blocks[i].base != a) {
            continue;
        }
        unsigned int old = atomicCAS(&h->blocks[i].state, CC_MC_HEAP_LIVE, CC_MC_HEAP_FREED);
        violation = old == CC_MC_HEAP_LIVE ? 0u : CC_MC_VIOL_DEVICE_FREE_DOUBLE;
        break;
    }
    if (violation == CC_MC_VIOL_DEVICE_FREE_INVALID && vh->overflow != 0u) {
        violation = 0u; // maybe a block the full table could not record
    }
    if (violation != 0u) {
        cc_mc_record(L, pc, a, 0u, 0u, CC_PATCH_SPACE_GLOBAL, violation);
    }
    return cc_mc_verdict(L, violation);
}

// ---- the floor (CUCHECK_MC_PATCH=floor): patched calls that check nothing ----

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_floor_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                const void *pData)
{
    (void)userdata, (void)pc, (void)ptr, (void)accessSize, (void)flags, (void)pData;
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_floor_memcpy_async(void *userdata, uint64_t pc, void *src, uint32_t dst, uint32_t accessSize)
{
    (void)userdata, (void)pc, (void)src, (void)dst, (void)accessSize;
    return SANITIZER_PATCH_SUCCESS;
}

// racecheck's floor (CUCHECK_RC_PATCH=floor) also patches its synchronization classes.
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_floor_barrier(void *userdata, uint64_t pc, uint32_t barIndex, uint32_t threadCount,
                 uint32_t flags)
{
    (void)userdata, (void)pc, (void)barIndex, (void)threadCount, (void)flags;
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_floor_syncwarp(void *userdata, uint64_t pc, uint32_t mask)
{
    (void)userdata, (void)pc, (void)mask;
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult cc_floor_cluster_wait(void *userdata,
                                                                             uint64_t pc)
{
    (void)userdata, (void)pc;
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_floor_cuda_barrier(void *userdata, uint64_t pc, void *barrier, uint32_t kind, uint32_t data)
{
    (void)userdata, (void)pc, (void)barrier, (void)kind, (void)data;
    return SANITIZER_PATCH_SUCCESS;
}

// synccheck's floor (CUCHECK_SY_PATCH=floor): its shuffle and block-exit classes.
extern "C" __device__ __noinline__ SanitizerPatchResult cc_floor_pc(void *userdata, uint64_t pc)
{
    (void)userdata, (void)pc;
    return SANITIZER_PATCH_SUCCESS;
}

static_assert(cc_same_type<decltype(&cc_floor_pc), SanitizerCallbackShfl>::value &&
                  cc_same_type<decltype(&cc_floor_pc), SanitizerCallbackBlockExit>::value,
              "floor pc patch signature");
static_assert(cc_same_type<decltype(&cc_floor_barrier), SanitizerCallbackBarrier>::value,
              "floor barrier patch signature");
static_assert(cc_same_type<decltype(&cc_floor_syncwarp), SanitizerCallbackSyncwarp>::value,
              "floor syncwarp patch signature");
static_assert(cc_same_type<decltype(&cc_floor_cluster_wait),
                           SanitizerCallbackClusterBarrierWait>::value,
              "floor cluster barrier patch signature");
static_assert(cc_same_type<decltype(&cc_floor_cuda_barrier), SanitizerCallbackCudaBarrier>::value,
              "floor mbarrier patch signature");
static_assert(cc_same_type<decltype(&cc_floor_access), SanitizerCallbackMemoryAccess>::value,
              "floor access patch signature");
static_assert(cc_same_type<decltype(&cc_floor_memcpy_async), SanitizerCallbackMemcpyAsync>::value,
              "floor cp.async patch signature");
static_assert(cc_same_type<decltype(&cc_mc_global_access), SanitizerCallbackMemoryAccess>::value,
              "memcheck global patch signature");
static_assert(cc_same_type<decltype(&cc_mc_shared_access), SanitizerCallbackMemoryAccess>::value,
              "memcheck shared patch signature");
static_assert(cc_same_type<decltype(&cc_mc_local_access), SanitizerCallbackMemoryAccess>::value,
              "memcheck local patch signature");
static_assert(offsetof(cc_mc_launch, local_end) == offsetof(cc_mc_launch, local_lo) + 4 &&
                  offsetof(cc_mc_launch, local_lo) % 8 == 0,
              "the local window is one aligned 8-byte load");
static_assert(cc_same_type<decltype(&cc_mc_memcpy_async), SanitizerCallbackMemcpyAsync>::value,
              "memcheck cp.async patch signature");
static_assert(cc_same_type<decltype(&cc_mc_device_malloc), SanitizerCallbackDeviceSideMalloc>::value,
              "memcheck device malloc patch signature");
static_assert(cc_same_type<decltype(&cc_mc_device_free), SanitizerCallbackDeviceSideFree>::value,
              "memcheck device free patch signature");
static_assert(sizeof(cc_mc_sample) == 40, "cc_mc_sample layout");
static_assert(sizeof(cc_mc_range) == 16, "cc_mc_range layout");
static_assert(sizeof(cc_mc_heap_block) == 24, "cc_mc_heap_block layout");

#include "streamcheck_patches.cuh"
#include "progress_patches.cuh"
#include "racecheck_patches.cuh"
#include "synccheck_patches.cuh"
#include "initcheck_patches.cuh"

static_assert(cc_same_type<decltype(&cc_rc_shared_access), SanitizerCallbackMemoryAccess>::value,
              "racecheck shared patch signature");
static_assert(cc_same_type<decltype(&cc_rc_remote_shared_access),
                           SanitizerCallbackMemoryAccess>::value,
              "racecheck remote shared patch signature");
static_assert(cc_same_type<decltype(&cc_rc_shadow_floor_shared),
                           SanitizerCallbackMemoryAccess>::value &&
                  cc_same_type<decltype(&cc_rc_shadow_floor_global),
                               SanitizerCallbackMemoryAccess>::value,
              "racecheck shadow floor patch signature");
static_assert(cc_same_type<decltype(&cc_rc_global_access), SanitizerCallbackMemoryAccess>::value,
              "racecheck global patch signature");
static_assert(cc_same_type<decltype(&cc_rc_barrier), SanitizerCallbackBarrier>::value,
              "racecheck barrier patch signature");
static_assert(cc_same_type<decltype(&cc_rc_syncwarp), SanitizerCallbackSyncwarp>::value,
              "racecheck syncwarp patch signature");
static_assert(cc_same_type<decltype(&cc_rc_cluster_wait),
                           SanitizerCallbackClusterBarrierWait>::value,
              "racecheck cluster barrier patch signature");
static_assert(cc_same_type<decltype(&cc_rc_cuda_barrier), SanitizerCallbackCudaBarrier>::value,
              "racecheck mbarrier patch signature");
static_assert(sizeof(cc_rc_gentry) == 16 && alignof(cc_rc_gentry) == 16, "cc_rc_gentry layout");
static_assert(cc_same_type<decltype(&cc_sy_barrier), SanitizerCallbackBarrier>::value,
              "synccheck barrier patch signature");
static_assert(cc_same_type<decltype(&cc_sy_syncwarp), SanitizerCallbackSyncwarp>::value &&
                  cc_same_type<decltype(&cc_sy_syncwarp_release), SanitizerCallbackSyncwarp>::value,
              "synccheck syncwarp patch signatures");
static_assert(cc_same_type<decltype(&cc_sy_shfl), SanitizerCallbackShfl>::value,
              "synccheck shuffle patch signature");
static_assert(cc_same_type<decltype(&cc_sy_block_exit), SanitizerCallbackBlockExit>::value,
              "synccheck block exit patch signature");
static_assert(sizeof(cc_sy_warp) == 64 && offsetof(cc_sy_block, warps) == CC_SY_REGION_BYTES(0) &&
                  sizeof(cc_sy_block) == CC_SY_REGION_BYTES(CC_SY_WARPS),
              "cc_sy_block layout");
static_assert(cc_same_type<decltype(&cc_ic_global_access), SanitizerCallbackMemoryAccess>::value,
              "initcheck global patch signature");
static_assert(sizeof(cc_ic_range) == 32 && sizeof(cc_ic_record) == 56, "initcheck layouts");
