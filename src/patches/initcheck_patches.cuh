// initcheck's device patches (layouts in patch_records.h, "initcheck"): a global write sets the
// bits of the launch's write bitmap for the bytes it covers that lie in the launch's
// uninitialised ranges; a global read of such a byte whose bit is clear is an uninitialised
// read, folded by pc into the launch's records. The gate (cc_ic_global_access) returns with a
// few registers for every access outside the ranges' span, of an unchecked launch, or not to
// global memory; the body (cc_ic_checked) runs only for accesses that may touch a range. An
// atomic only writes (its read of uninitialised memory is not reported). Included by
// cucheck_patches.cu.

// Index of the last range with lo <= a, or n when a lies before every range.
static __device__ __forceinline__ uint64_t cc_ic_find(const cc_ic_range *t, uint64_t n, uint64_t a)
{
    uint64_t lo = 0, hi = n;
#pragma unroll 1
    while (lo < hi) {
        uint64_t mid = lo + ((hi - lo) >> 1);
        if (t[mid].lo <= a) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo == 0 ? n : lo - 1;
}

static __device__ __noinline__ void cc_ic_record_read(cc_ic_launch *L, uint64_t pc, uint64_t a,
                                                      uint64_t first, uint32_t size)
{
    unsigned long long key = (unsigned long long)pc + 1ull;
    unsigned int h = (unsigned int)((pc >> 4) % CC_IC_MAX_SITES);
    int idx = -1;
    bool claimed = false;
#pragma unroll 1
    for (unsigned int i = 0; i < CC_IC_MAX_SITES; i++) {
        unsigned int j = (h + i) % CC_IC_MAX_SITES;
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
    atomicAdd(&L->counts[idx], 1u);
    if (claimed) {
        cc_ic_record *r = &L->records[idx];
        r->pc = pc;
        r->address = a;
        r->first = first;
        r->size = size;
        r->block[0] = blockIdx.x, r->block[1] = blockIdx.y, r->block[2] = blockIdx.z;
        r->thread[0] = threadIdx.x, r->thread[1] = threadIdx.y, r->thread[2] = threadIdx.z;
        __threadfence_system();
        r->valid = 1u;
    }
}

// The body: the ranges [a, a + size) overlaps, byte by byte against their bits.
static __device__ __noinline__ SanitizerPatchResult
cc_ic_checked(cc_ic_launch *L, uint64_t pc, uint64_t a, uint32_t size, uint32_t flags)
{
    cc_ic_range *t = L->ranges;
    uint64_t n = L->nranges;
    uint64_t end = a + size;
    uint64_t i = cc_ic_find(t, n, a);
    if (i == n) {
        i = 0;
    }
    bool write = (flags & CC_PATCH_ACCESS_WRITE) != 0u;
#pragma unroll 1
    for (; i < n && t[i].lo < end; i++) {
        uint64_t lo = t[i].lo, hi = t[i].hi;
        if (hi <= a) {
            continue;
        }
        uint64_t from = a > lo ? a : lo, to = end < hi ? end : hi;
        uint64_t b0 = t[i].bit + (from - lo), b1 = t[i].bit + (to - lo);
        if (write) {
            if (t[i].dirty == 0u) {
                t[i].dirty = 1u;
            }
#pragma unroll 1
            for (uint64_t b = b0; b < b1;) { // whole words at once
                uint64_t w = b >> 5;
                uint64_t stop = (w + 1) << 5 < b1 ? (w + 1) << 5 : b1;
                uint32_t bits = (uint32_t)(stop - b == 32 ? 0xffffffffu
                                                          : ((1u << (stop - b)) - 1u) << (b & 31));
                atomicOr(&L->bits[w], bits);
                b = stop;
            }
        } else {
            const volatile uint32_t *vb = L->bits;
#pragma unroll 1
            for (uint64_t b = b0; b < b1; b++) {
                if (((vb[b >> 5] >> (b & 31)) & 1u) == 0u) {
                    cc_ic_record_read(L, pc, a, lo + (b - t[i].bit), size);
                    return SANITIZER_PATCH_SUCCESS; // one record per access
                }
            }
        }
    }
    return SANITIZER_PATCH_SUCCESS;
}

// The gate of every patched global access (see the comment on cc_rc_global_access: a patch
// function saves every register it uses, so the early returns stay apart from the body).
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_ic_global_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    const void *pData)
{
    (void)pData;
    cc_ic_launch *L = (cc_ic_launch *)userdata;
    if (L == nullptr) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    if (L->magic != CC_IC_LAUNCH_MAGIC || a >= L->hi || a + accessSize <= L->lo ||
        !__isGlobal(ptr)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    return cc_ic_checked(L, pc, a, accessSize, flags);
}
