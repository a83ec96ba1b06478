// streamcheck's device patch (included at the end of cucheck_patches.cu; layouts in
// patch_records.h, "streamcheck"): every global (and generic-to-global) access of an
// instrumented launch is looked up in the launch's sorted allocation table and folded into that
// range's lowest/highest byte read and written (cc_sc_range_acc) with atomicMax; accesses in no
// range are counted. Lanes are grouped by (range, kind of access) with __match_any_sync; when the
// whole warp forms one group it is reduced with shuffles and one lane does the atomics (the
// __reduce_*_sync instructions are not allowed in a tools patch), otherwise each lane folds its
// own access after a plain read that skips the atomic when the range already covers it. Nothing
// per access leaves the device; the agent reads the ranges back after the launch. Never stops
// the kernel.

#define CC_SC_OUTSIDE 0x3fffffffu // range index for "in no range" (also caps the table index)

// Index of the range holding address a, or CC_SC_OUTSIDE.
static __device__ __forceinline__ unsigned int cc_sc_find(const cc_mc_range *t, uint64_t n,
                                                          uint64_t a)
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
    if (lo == 0 || a >= t[lo - 1].end || lo - 1 >= CC_SC_OUTSIDE) {
        return CC_SC_OUTSIDE;
    }
    return (unsigned int)(lo - 1);
}

// Raise *p to v unless it already is at least v (a plain read first spares most atomics).
static __device__ __forceinline__ void cc_sc_raise(unsigned long long *p, unsigned long long v)
{
    if (*(volatile unsigned long long *)p < v) {
        atomicMax(p, v);
    }
}

static __device__ __forceinline__ void cc_sc_fold(cc_sc_range_acc *r, unsigned int rw,
                                                  unsigned long long lo, unsigned long long end)
{
    if (rw & CC_PATCH_ACCESS_READ) {
        cc_sc_raise(&r->read_lo_inv, ~lo);
        cc_sc_raise(&r->read_end, end);
    }
    if (rw & CC_PATCH_ACCESS_WRITE) {
        cc_sc_raise(&r->write_lo_inv, ~lo);
        cc_sc_raise(&r->write_end, end);
    }
}

// Minimum of lo and maximum of end over a whole converged warp (every lane gets them).
static __device__ __forceinline__ void cc_sc_warp_minmax(unsigned long long *lo,
                                                         unsigned long long *end)
{
    for (int off = 16; off > 0; off >>= 1) {
        unsigned long long olo = __shfl_xor_sync(0xffffffffu, *lo, off);
        unsigned long long oend = __shfl_xor_sync(0xffffffffu, *end, off);
        *lo = olo < *lo ? olo : *lo;
        *end = oend > *end ? oend : *end;
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_sc_global_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    const void *pData)
{
    (void)pc;
    (void)pData;
    cc_sc_launch *L = (cc_sc_launch *)userdata;
    if (L == nullptr) {
        return SANITIZER_PATCH_SUCCESS; // not an instrumented launch
    }
    uint32_t magic = L->magic;
    uint64_t ntable = L->ntable;
    const cc_mc_range *table = L->table;
    cc_sc_range_acc *acc = L->acc;
    unsigned int rw = flags & (CC_PATCH_ACCESS_READ | CC_PATCH_ACCESS_WRITE); // atomics: both
    if (magic != CC_SC_LAUNCH_MAGIC || rw == 0 || !__isGlobal(ptr)) {
        return SANITIZER_PATCH_SUCCESS; // prefetches, generic accesses to shared/local memory
    }
    unsigned long long lo = (unsigned long long)(uintptr_t)ptr;
    unsigned long long end = lo + (accessSize != 0 ? accessSize : 1);
    unsigned int idx = cc_sc_find(table, ntable, lo);
    // Lanes that hit the same range with the same kind of access form a group; its lowest lane
    // does the atomics for all of them.
    unsigned int active = __activemask();
    unsigned int group = __match_any_sync(active, (idx << 2) | rw);
    unsigned int lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    bool leader = lane == (unsigned int)(__ffs(group) - 1);
    if (idx == CC_SC_OUTSIDE) {
        if (leader) {
            atomicAdd(&L->outside, (unsigned long long)__popc(group));
            if (*(volatile unsigned long long *)&L->outside_first == 0ull) {
                atomicCAS(&L->outside_first, 0ull, lo);
            }
        }
        return SANITIZER_PATCH_SUCCESS;
    }
    if (group == 0xffffffffu) { // the whole warp, one range, one kind: reduce, one lane folds
        cc_sc_warp_minmax(&lo, &end);
        if (leader) {
            cc_sc_fold(&acc[idx], rw, lo, end);
        }
    } else { // mixed: every lane folds its own access (the plain read spares most atomics)
        cc_sc_fold(&acc[idx], rw, lo, end);
    }
    return SANITIZER_PATCH_SUCCESS;
}

static_assert(cc_same_type<decltype(&cc_sc_global_access), SanitizerCallbackMemoryAccess>::value,
              "streamcheck global patch signature");
static_assert(sizeof(cc_sc_range_acc) == 32, "cc_sc_range_acc layout");
