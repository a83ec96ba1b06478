// racecheck's device patches (patch_records.h, "racecheck"): hazards between threads of one
// launch found on the device, with bounded shadow state and no locks. Shared memory: one 64-bit
// shadow word per 4-byte word of the block's window in the block's region of the launch's
// shadow (zeroed before the launch); global memory: the context's fixed-size hashed table,
// entries tagged with the launch. Ordering: per-warp counts of block barriers, cluster barriers
// and __syncwarp, kept in the block's region by each warp's lowest active lane (no atomics): two
// accesses of one block are ordered when their block-barrier counts differ, of one warp also when
// their __syncwarp counts differ or they are one instruction; accesses of different blocks of a
// cluster when their cluster-barrier counts differ; global accesses of different blocks are
// recorded as cross-block hazards, which the agent drops when the kernel has a fence after the
// first access (fences cannot be patched). Atomics are neither checked nor recorded. A hazard
// is folded by (first pc, second pc, kind) into one of CC_RC_MAX_SITES host-visible records.

// Linear thread id in the block, and linear block id in the grid.
static __device__ __forceinline__ uint32_t cc_rc_tid()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ uint32_t cc_rc_block()
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// The block's rank in its cluster (0 without clusters, or before sm_90).
static __device__ __forceinline__ uint32_t cc_rc_rank()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
#else
    return 0u;
#endif
}

// Linear block id of the block of rank `rank` in this thread's cluster (own block before sm_90).
static __device__ __forceinline__ uint32_t cc_rc_block_of_rank(uint32_t rank)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t cx, cy, ix, iy, iz;
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(cx));
    asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(cy));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ix));
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(iy));
    asm("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(iz));
    uint32_t bx = blockIdx.x - ix + rank % cx;
    uint32_t by = blockIdx.y - iy + (rank / cx) % cy;
    uint32_t bz = blockIdx.z - iz + rank / (cx * cy);
    return bx + gridDim.x * (by + gridDim.y * bz);
#else
    (void)rank;
    return cc_rc_block();
#endif
}

static __device__ __forceinline__ volatile uint32_t *cc_rc_warps(const cc_rc_launch *L,
                                                                 uint32_t block)
{
    return (volatile uint32_t *)(L->smem + (unsigned long long)block * L->region_bytes);
}

static __device__ __forceinline__ unsigned long long *cc_rc_words(const cc_rc_launch *L,
                                                                  uint32_t block)
{
    return (unsigned long long *)(L->smem + (unsigned long long)block * L->region_bytes +
                                  CC_RC_WARPS * sizeof(uint32_t));
}

// This thread's warp state: written by its own warp only (cc_rc_warp_add), so a block-scope load
// suffices, which the SM's L1 can serve (a volatile load would go to L2 on every access).
static __device__ __forceinline__ uint32_t cc_rc_my_warp_state(const cc_rc_launch *L,
                                                               uint32_t block, uint32_t tid)
{
    uint32_t v;
    const volatile uint32_t *p = cc_rc_warps(L, block) + (tid >> 5);
    asm volatile("ld.relaxed.cta.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

// The header if this launch is checked, else NULL.
static __device__ __forceinline__ cc_rc_launch *cc_rc_header(void *userdata)
{
    cc_rc_launch *L = (cc_rc_launch *)userdata;
    return L != nullptr && L->magic == CC_RC_LAUNCH_MAGIC ? L : nullptr;
}

// The first access's pc from its 20 stored bits, next to the second's.
static __device__ __forceinline__ uint64_t cc_rc_pc_of(unsigned long long shadow, uint64_t pc2)
{
    const uint64_t span = 1ull << (CC_RC_SH_PC_BITS + 4);
    uint64_t low = ((shadow >> CC_RC_SH_PC_SHIFT) & ((1ull << CC_RC_SH_PC_BITS) - 1ull)) << 4;
    return (pc2 & ~(span - 1ull)) | low;
}

// Record one hazard (the slow path): dedup by (first pc, second pc, kind), the first thread
// of a record writes its sides, every one counts.
static __device__ __noinline__ void cc_rc_record_hazard(cc_rc_launch *L, uint64_t pc2,
                                                        unsigned long long old, uint64_t addr,
                                                        uint32_t block1, uint32_t block2,
                                                        uint32_t size, uint32_t access2,
                                                        uint32_t kind, uint32_t flags,
                                                        uint32_t space)
{
    uint64_t pc1 = cc_rc_pc_of(old, pc2);
    unsigned long long key = ((unsigned long long)((pc1 >> 4) & 0xffffffffull) << 32) |
                             ((unsigned long long)((pc2 >> 4) & 0x3fffffffull) << 2) | kind;
    unsigned int h = (unsigned int)(((pc1 >> 4) * 31u + (pc2 >> 4)) % CC_RC_MAX_SITES);
    int idx = -1;
    bool claimed = false;
    for (unsigned int i = 0; i < CC_RC_MAX_SITES; i++) {
        unsigned int j = (h + i) % CC_RC_MAX_SITES;
        unsigned long long prev = atomicCAS(&L->keys[j], 0ull, key);
        if (prev == 0ull || prev == key) {
            idx = (int)j;
            claimed = prev == 0ull;
            break;
        }
    }
    if (idx < 0) {
        atomicAdd(&L->overflow, 1u);
        return;
    }
    atomicAdd(&L->counts[idx], 1u);
    if (!claimed || (L->flags & CC_RC_FLAG_COUNT_ONLY)) {
        return;
    }
    cc_rc_record *r = &L->records[idx];
    r->pc[0] = pc1;
    r->pc[1] = pc2;
    r->address = addr;
    r->block[0] = block1;
    r->block[1] = block2;
    r->thread[0] = (uint32_t)(old >> CC_RC_SH_TID_SHIFT) & 0x3ffu;
    r->thread[1] = cc_rc_tid();
    r->size = size;
    r->access[0] = (old & CC_RC_SH_W) ? CC_PATCH_ACCESS_WRITE : CC_PATCH_ACCESS_READ;
    r->access[1] = access2;
    r->kind = kind;
    r->flags = flags;
    r->space = space;
    if (L->flags & CC_RC_FLAG_SYS_FENCE) {
        __threadfence_system();
    }
    r->valid = 1u; // read once the launch is done (its writes are then visible)
}

// 1 if the `size` bytes at p equal the `size` bytes at q (sizes 1..16; a write's pData).
static __device__ __forceinline__ bool cc_rc_same_bytes(const volatile unsigned char *p,
                                                        const unsigned char *q, uint32_t size)
{
    for (uint32_t i = 0; i < size && i < 16u; i++) {
        if (p[i] != q[i]) {
            return false;
        }
    }
    return true;
}

// The shadow step of one word: the hazard kind of this access against the stored state (0
// none) and the new state. me: this access's counts, thread, rank and pc fields. same: the stored
// accessor is of this thread's block. cross: the count bits that order accesses of different
// blocks (the cluster count for shared memory, none for global memory). *renamed: the new state
// names this access (else the stored accessor stays named). A read of a word other threads
// read in the same interval keeps the first reader named and only adds its bytes, so that
// repeated reads (a broadcast value) leave the word unchanged.
static __device__ __forceinline__ unsigned long long
cc_rc_step(unsigned long long old, unsigned long long me, bool same, unsigned long long cross,
           bool write, uint32_t *kind, uint32_t *flags, bool *renamed)
{
    const unsigned long long id = 0x3fffull << CC_RC_SH_TID_SHIFT; // thread and rank
    const unsigned long long bytes = 0xfull << CC_RC_SH_BYTES_SHIFT;
    bool any = (old & (CC_RC_SH_W | CC_RC_SH_R)) != 0ull &&
               ((old & me) >> CC_RC_SH_BYTES_SHIFT & 0xfull) != 0ull; // a byte in common
    bool overlap = any && (same ? ((old ^ me) & CC_RC_WS_BAR_MASK) == 0ull
                                : ((old ^ me) & cross) == 0ull);
    bool self = same && ((old ^ me) & id) == 0ull;
    bool warp = same && (((old ^ me) >> (CC_RC_SH_TID_SHIFT + 5)) & 0x1full) == 0ull;
    *kind = 0u;
    *flags = 0u;
    *renamed = false;
    if (overlap && !self) {
        bool ordered = warp && ((((old ^ me) >> CC_RC_WS_WARP_SHIFT) & 0xfull) != 0ull ||
                                (((old ^ me) >> CC_RC_SH_PC_SHIFT) &
                                 ((1ull << CC_RC_SH_PC_BITS) - 1ull)) == 0ull);
        if (!ordered && (old & CC_RC_SH_W)) {
            *kind = write ? CC_RC_WAW : CC_RC_RAW;
        } else if (!ordered && write) {
            *kind = CC_RC_WAR;
        }
        *flags = warp ? CC_RC_REC_INTRA_WARP : (same ? 0u : CC_RC_REC_CLUSTER);
    }
    if (write) {
        *renamed = true;
        return me | CC_RC_SH_W;
    }
    if (overlap && (old & CC_RC_SH_W)) {
        return old; // the interval's writer stays named
    }
    if (overlap && !self) {
        return old | (me & bytes) | CC_RC_SH_R | CC_RC_SH_MR;
    }
    if (overlap) {
        return old;
    }
    *renamed = true;
    return me | CC_RC_SH_R;
}

// The bytes of its 4-byte word an access of `size` bytes at byte offset `addr` touches (all
// four for a word or more).
static __device__ __forceinline__ unsigned long long cc_rc_bytes(uint64_t addr, uint32_t size)
{
    unsigned long long b = size >= 4u ? 0xfull : ((1ull << size) - 1ull) << (addr & 3u);
    return (b & 0xfull) << CC_RC_SH_BYTES_SHIFT;
}

// This thread's warp state and the shadow fields of an access by it (without its bytes).
static __device__ __forceinline__ unsigned long long cc_rc_me(uint32_t ws, uint32_t tid,
                                                              uint32_t rank, uint64_t pc)
{
    return (unsigned long long)(ws & 0xfffffu) |
           ((unsigned long long)tid << CC_RC_SH_TID_SHIFT) |
           ((unsigned long long)(rank & 0xfu) << CC_RC_SH_RANK_SHIFT) |
           (((pc >> 4) & ((1ull << CC_RC_SH_PC_BITS) - 1ull)) << CC_RC_SH_PC_SHIFT);
}

// A shared hazard (the slow end, called in tail position): same value, the first side's block,
// the record.
static __device__ __noinline__ SanitizerPatchResult
cc_rc_report_shared(cc_rc_launch *L, uint64_t pc, unsigned long long old, uint32_t off,
                    uint32_t size, uint32_t flags, const void *pData, uint32_t what)
{
    uint32_t kind = what & 0xfu, rflags = (what >> 4) & 0xfffu;
    if (what & CC_RC_WS_UNMODELLED) {
        atomicAdd(&L->suppressed, 1u);
        return SANITIZER_PATCH_SUCCESS;
    }
    if (kind == CC_RC_WAW && pData != nullptr && !(rflags & CC_RC_REC_CLUSTER) && size <= 16u &&
        !(L->flags & CC_RC_FLAG_NO_VALUE)) {
        // The patch runs before the store: compare the stored bytes, one at a time, exactly the
        // access's (a wider aligned load could reach past the end of the block's shared memory).
        bool same = true;
        for (uint32_t i = 0; i < size && same; i++) {
            uint32_t b;
            asm volatile("ld.shared.u8 %0, [%1];" : "=r"(b) : "r"(off + i));
            same = (unsigned char)b == ((const unsigned char *)pData)[i];
        }
        if (same) {
            rflags |= CC_RC_REC_SAME_VALUE;
        }
    }
    uint32_t rank1 = (uint32_t)(old >> CC_RC_SH_RANK_SHIFT) & 0xfu;
    uint32_t b1 = rank1 == (cc_rc_rank() & 0xfu) ? cc_rc_block() : cc_rc_block_of_rank(rank1);
    if (b1 != cc_rc_block()) {
        rflags |= CC_RC_REC_CLUSTER;
    }
    cc_rc_record_hazard(L, pc, old, off, b1, cc_rc_block(), size, flags, kind, rflags,
                        CC_PATCH_SPACE_SHARED);
    return SANITIZER_PATCH_SUCCESS;
}

// The step of a shared shadow word against `old`: `same` from the stored rank.
static __device__ __forceinline__ unsigned long long
cc_rc_shared_step(unsigned long long old, unsigned long long me, uint32_t rank, bool write,
                  uint32_t *kind, uint32_t *rflags)
{
    bool same = ((old >> CC_RC_SH_RANK_SHIFT) & 0xfull) == rank, renamed;
    return cc_rc_step(old, me, same, 0xfull << CC_RC_WS_CLUSTER_SHIFT, write, kind, rflags,
                      &renamed);
}

// Compare-and-swap rounds before an update gives up (an unseen hazard, never a false one).
#define CC_RC_CAS_TRIES 16

// One word of a shared access to the window of block `target_block` at window offset `off`:
// the shadow step, the new state stored atomically (a write's new state does not depend on the
// old one: one exchange; a read's does: compare-and-swap, and none when the word stays as it
// is), a hazard reported in tail position (no frame).
static __device__ __forceinline__ SanitizerPatchResult
cc_rc_shared_word(cc_rc_launch *L, uint64_t pc, uint32_t off, uint32_t target_block,
                  uint32_t size, uint32_t flags, const void *pData, bool remote, uint32_t word,
                  bool *hazard)
{
    uint32_t tid = cc_rc_tid();
    uint32_t ws = cc_rc_my_warp_state(L, cc_rc_block(), tid);
    uint32_t rank = cc_rc_rank() & 0xfu;
    unsigned long long me = cc_rc_me(ws, tid, rank, pc) | cc_rc_bytes(off, size);
    unsigned long long *w = cc_rc_words(L, target_block) + word;
    bool write = (flags & CC_PATCH_ACCESS_WRITE) != 0u;
    uint32_t kind, rflags;
    unsigned long long old;
    if (write) {
        old = atomicExch(w, me | CC_RC_SH_W);
        (void)cc_rc_shared_step(old, me, rank, true, &kind, &rflags);
    } else {
        old = *(volatile unsigned long long *)w;
        for (int i = 0; i < CC_RC_CAS_TRIES; i++) {
            unsigned long long nv = cc_rc_shared_step(old, me, rank, false, &kind, &rflags);
            if (nv == old) {
                break;
            }
            unsigned long long prev = atomicCAS(w, old, nv);
            if (prev == old) {
                break;
            }
            old = prev;
            kind = 0u;
        }
    }
    *hazard = kind != 0u;
    if (kind != 0u && !(L->flags & CC_RC_FLAG_NO_RECORD)) { // one hazard per access
        return cc_rc_report_shared(L, pc, old, off, size, flags, pData,
                                   kind | (rflags | (remote ? CC_RC_REC_CLUSTER : 0u)) << 4 |
                                       (ws & CC_RC_WS_UNMODELLED));
    }
    return SANITIZER_PATCH_SUCCESS;
}

// The full path of a shared access to the window of block `target_block` (this block's own
// for a plain shared access, one of its cluster's for distributed shared memory) at window
// offset `off`, from its word `first` on: word by word, up to the first hazard. Called last: by
// the distributed shared memory patch, and by the shared patch for the words its fast path does
// not settle.
static __device__ __noinline__ SanitizerPatchResult
cc_rc_shared_from(cc_rc_launch *L, uint64_t pc, uint32_t off, uint32_t target_block,
                  uint32_t size, uint32_t flags, const void *pData, bool remote, uint32_t first)
{
    uint32_t nblocks = L->nblocks;
    if (target_block >= nblocks || cc_rc_block() >= nblocks) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint32_t n = size > 4u ? size >> 2 : 1u;
    if ((off >> 2) + n > L->region_words) {
        return SANITIZER_PATCH_SUCCESS; // past the shadowed part of the window
    }
    bool hazard = false;
    for (uint32_t i = first; i < n && !hazard; i++) {
        cc_rc_shared_word(L, pc, off, target_block, size, flags, pData, remote, (off >> 2) + i,
                          &hazard);
    }
    return SANITIZER_PATCH_SUCCESS;
}

// A plain shared write whose exchange of word `i` of the access replaced `old`, a state the
// fast path could not settle: the step against it (the word is already this write's), its
// hazard reported, else the access's next words on the full path.
static __device__ __noinline__ SanitizerPatchResult
cc_rc_shared_judge(cc_rc_launch *L, uint64_t pc, uint32_t off, uint32_t size, uint32_t flags,
                   const void *pData, uint32_t i, unsigned long long old)
{
    uint32_t tid = cc_rc_tid();
    uint32_t ws = cc_rc_my_warp_state(L, cc_rc_block(), tid);
    uint32_t rank = cc_rc_rank() & 0xfu;
    unsigned long long me = cc_rc_me(ws, tid, rank, pc) | cc_rc_bytes(off, size);
    uint32_t kind, rflags;
    (void)cc_rc_shared_step(old, me, rank, true, &kind, &rflags);
    if (kind != 0u && !(L->flags & CC_RC_FLAG_NO_RECORD)) {
        return cc_rc_report_shared(L, pc, old, off, size, flags, pData,
                                   kind | rflags << 4 | (ws & CC_RC_WS_UNMODELLED));
    }
    if (kind != 0u) {
        return SANITIZER_PATCH_SUCCESS;
    }
    return cc_rc_shared_from(L, pc, off, cc_rc_block(), size, flags, pData, false, i + 1u);
}

static __device__ __forceinline__ bool cc_rc_atomic_or_prefetch(uint32_t flags)
{
    return (flags & (CC_PATCH_ACCESS_READ | CC_PATCH_ACCESS_WRITE)) ==
               (CC_PATCH_ACCESS_READ | CC_PATCH_ACCESS_WRITE) ||
           (flags & CC_PATCH_ACCESS_PREFETCH) != 0u;
}

// A plain shared access. The common cases run here with few live values (a patch's registers
// are capped at the ABI's minimum, so each value more is a spill on every call), each word
// settled by one access to its shadow word: a write's exchange
// that replaced nothing of this interval's (a word not touched since the launch began, touched
// before the last barrier this warp passed, or by this same thread); a read of such a word
// (renamed by one compare-and-swap), or of one several threads of this interval read already
// (unchanged). Everything else, and an update that lost a race, goes to the full path.
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_shared_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    const void *pData)
{
    const unsigned long long id = 0x3fffull << CC_RC_SH_TID_SHIFT; // thread and rank
    const unsigned long long bytes = 0xfull << CC_RC_SH_BYTES_SHIFT;
    const unsigned long long rank_bits = 0xfull << CC_RC_SH_RANK_SHIFT;
    cc_rc_launch *L = cc_rc_header(userdata);
    if (L == nullptr || !(L->flags & CC_RC_FLAG_SHARED) || cc_rc_atomic_or_prefetch(flags)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint32_t off = (uint32_t)(uintptr_t)ptr & CC_MC_SMEM_OFFSET_MASK;
    uint32_t block = cc_rc_block();
    uint32_t n = accessSize > 4u ? accessSize >> 2 : 1u;
    if (block >= L->nblocks || (off >> 2) + n > L->region_words) {
        return SANITIZER_PATCH_SUCCESS;
    }
    if (L->flags & CC_RC_FLAG_FULL_PATH) {
        return cc_rc_shared_from(L, pc, off, block, accessSize, flags, pData, false, 0u);
    }
    uint32_t tid = cc_rc_tid();
    unsigned long long me = cc_rc_me(cc_rc_my_warp_state(L, block, tid), tid, cc_rc_rank(), pc) |
                            cc_rc_bytes(off, accessSize);
    unsigned long long *w = cc_rc_words(L, block) + (off >> 2);
    for (uint32_t i = 0; i < n; i++) {
        unsigned long long old;
        if (flags & CC_PATCH_ACCESS_WRITE) {
            old = atomicExch(&w[i], me | CC_RC_SH_W);
            unsigned long long x = old ^ me;
            bool quiet = old == 0ull || ((x & rank_bits) == 0ull &&
                                         ((x & CC_RC_WS_BAR_MASK) != 0ull || (x & id) == 0ull));
            if (!quiet) {
                return cc_rc_shared_judge(L, pc, off, accessSize, flags, pData, i, old);
            }
            continue;
        }
        old = *(volatile unsigned long long *)&w[i];
        unsigned long long x = old ^ me;
        bool interval = (x & (rank_bits | CC_RC_WS_BAR_MASK)) == 0ull; // same block, interval
        if (old == 0ull || ((x & rank_bits) == 0ull && !interval)) {
            if (atomicCAS(&w[i], old, me | CC_RC_SH_R) == old) {
                continue; // renamed: nothing of this interval to compare against
            }
        } else if (interval && (old & me & bytes) != 0ull &&
                   ((x & id) == 0ull || (old & (CC_RC_SH_W | CC_RC_SH_MR)) == CC_RC_SH_MR) &&
                   (me & bytes & ~old) == 0ull) {
            continue; // unchanged: this thread's own state, or read by several already
        }
        return cc_rc_shared_from(L, pc, off, block, accessSize, flags, pData, false, i);
    }
    return SANITIZER_PATCH_SUCCESS;
}

// Distributed shared memory: the window offset's bits above CC_MC_SMEM_OFFSET_MASK carry the
// target block's rank in the cluster.
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_remote_shared_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize,
                           uint32_t flags, const void *pData)
{
    cc_rc_launch *L = cc_rc_header(userdata);
    if (L == nullptr || !(L->flags & CC_RC_FLAG_SHARED) || cc_rc_atomic_or_prefetch(flags)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    uint32_t rank = (uint32_t)(a >> 24) & 0xffu;
    if (rank >= 16u) {
        return SANITIZER_PATCH_SUCCESS;
    }
    return cc_rc_shared_from(L, pc, (uint32_t)a & CC_MC_SMEM_OFFSET_MASK,
                             cc_rc_block_of_rank(rank), accessSize, flags, pData,
                             rank != cc_rc_rank(), 0u);
}

// A global hazard (the slow end, called in tail position).
static __device__ __noinline__ SanitizerPatchResult
cc_rc_report_global(cc_rc_launch *L, uint64_t pc, unsigned long long old, void *ptr,
                    uint32_t block1, uint32_t size, uint32_t flags, const void *pData,
                    uint32_t what)
{
    uint32_t kind = what & 0xfu, rflags = (what >> 4) & 0xfffu;
    if (what & CC_RC_WS_UNMODELLED) {
        atomicAdd(&L->suppressed, 1u);
        return SANITIZER_PATCH_SUCCESS;
    }
    rflags &= ~CC_RC_REC_CLUSTER;
    if (kind == CC_RC_WAW && pData != nullptr && !(L->flags & CC_RC_FLAG_NO_VALUE) &&
        cc_rc_same_bytes((const volatile unsigned char *)ptr, (const unsigned char *)pData, size)) {
        rflags |= CC_RC_REC_SAME_VALUE; // the patch runs before the store: the stored value
    }
    cc_rc_record_hazard(L, pc, old, (uint64_t)(uintptr_t)ptr, block1, cc_rc_block(), size, flags,
                        kind, rflags, CC_PATCH_SPACE_GLOBAL);
    return SANITIZER_PATCH_SUCCESS;
}

// The entry {key, state} at e replaced by {nk, ns} if it still is {k, s}: true, else false.
// One 128-bit compare-and-swap on sm_90 and later; before, the state's 64-bit one and then the
// key. A function of its own, so that the 128-bit operands do not weigh on the caller's
// registers (the patch's frame).
static __device__ __noinline__ bool cc_rc_entry_cas(cc_rc_gentry *e, unsigned long long k,
                                                    unsigned long long s, unsigned long long nk,
                                                    unsigned long long ns)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned long long gk, gs;
    asm volatile("{\n\t.reg .b128 cmp, val, got;\n\t"
                 "mov.b128 cmp, {%2, %3};\n\t"
                 "mov.b128 val, {%4, %5};\n\t"
                 "atom.global.cas.b128 got, [%6], cmp, val;\n\t"
                 "mov.b128 {%0, %1}, got;\n\t}"
                 : "=l"(gk), "=l"(gs)
                 : "l"(k), "l"(s), "l"(nk), "l"(ns), "l"(e)
                 : "memory");
    return gk == k && gs == s;
#else
    if (atomicCAS(&e->state, s, ns) != s) {
        return false;
    }
    if (nk != k) {
        *(volatile unsigned long long *)&e->key = nk;
    }
    return true;
#endif
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// The entry at e replaced by {nk, ns} in one 128-bit exchange (sm_90 and later): a write's new
// entry does not depend on the old one, so one L2 round trip instead of a load and a
// compare-and-swap. *k, *s: the entry it replaced.
static __device__ __noinline__ void cc_rc_entry_exch(cc_rc_gentry *e, unsigned long long nk,
                                                     unsigned long long ns,
                                                     unsigned long long *k,
                                                     unsigned long long *s)
{
    unsigned long long gk, gs;
    asm volatile("{\n\t.reg .b128 val, got;\n\t"
                 "mov.b128 val, {%2, %3};\n\t"
                 "atom.global.exch.b128 got, [%4], val;\n\t"
                 "mov.b128 {%0, %1}, got;\n\t}"
                 : "=l"(gk), "=l"(gs)
                 : "l"(nk), "l"(ns), "l"(e)
                 : "memory");
    *k = gk;
    *s = gs;
}
#endif

// The entry as it is now (key, state).
static __device__ __forceinline__ void cc_rc_entry_load(const cc_rc_gentry *e,
                                                        unsigned long long *k,
                                                        unsigned long long *s)
{
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(*k), "=l"(*s) : "l"(e));
}

// One word (address a, 4-byte aligned) of a global access by this thread: the entry's step,
// the entry replaced atomically when it changes (and confirmed unchanged when it does not but
// the step found a hazard), a hazard reported in tail position.
static __device__ __forceinline__ SanitizerPatchResult
cc_rc_global_word(cc_rc_launch *L, uint64_t pc, void *ptr, unsigned long long a, uint32_t size,
                  uint32_t flags, const void *pData, bool *hazard)
{
    const unsigned long long block_mask = (1ull << CC_RC_KEY_BLOCK_BITS) - 1ull;
    uint32_t block = cc_rc_block();
    uint32_t tid = cc_rc_tid();
    uint32_t ws = cc_rc_my_warp_state(L, block, tid);
    cc_rc_gentry *e = &L->gtable[(a >> 2) & L->gmask];
    unsigned long long base =
        ((a >> (2 + __popc(L->gmask))) << CC_RC_KEY_ADDR_SHIFT) |
        (((unsigned long long)L->tag & CC_RC_KEY_TAG_MASK) << CC_RC_KEY_TAG_SHIFT);
    unsigned long long me = cc_rc_me(ws & ~(0xfu << CC_RC_WS_CLUSTER_SHIFT), tid, 0u, pc) |
                            cc_rc_bytes((uint64_t)(uintptr_t)ptr, size);
    bool write = (flags & CC_PATCH_ACCESS_WRITE) != 0u;
    unsigned long long k, s, old = 0ull;
    uint32_t kind = 0u, rflags = 0u, eblock = block;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    bool exchange = write && !(L->flags & CC_RC_FLAG_WRITE_CAS);
#else
    bool exchange = false;
#endif
    if (exchange) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        cc_rc_entry_exch(e, base | block, me | CC_RC_SH_W, &k, &s);
        bool match = (k & ~block_mask) == base;
        old = match ? s : 0ull;
        eblock = match ? (uint32_t)(k & block_mask) : block;
        bool renamed;
        (void)cc_rc_step(old, me, eblock == block, 0ull, true, &kind, &rflags, &renamed);
#endif
    } else {
        cc_rc_entry_load(e, &k, &s);
        for (int i = 0; i < CC_RC_CAS_TRIES; i++) {
            bool match = (k & ~block_mask) == base; // else empty, another address's or launch's
            old = match ? s : 0ull;
            eblock = match ? (uint32_t)(k & block_mask) : block;
            bool renamed;
            unsigned long long nv = cc_rc_step(old, me, eblock == block, 0ull, write, &kind,
                                               &rflags, &renamed);
            unsigned long long nk = renamed || !match ? (base | block) : k;
            if (match && nv == old && nk == k && kind == 0u) {
                break; // unchanged, nothing to report
            }
            if (cc_rc_entry_cas(e, k, s, nk, nv)) {
                break;
            }
            cc_rc_entry_load(e, &k, &s);
            kind = 0u;
        }
    }
    *hazard = kind != 0u;
    if ((kind != 0u && (L->flags & CC_RC_FLAG_SPIN)) || (L->flags & CC_RC_FLAG_SPIN_ALL)) {
        long long t0 = clock64(); // diagnostic: a delay in place of the report path
        while (clock64() - t0 < (long long)L->spin_cycles) {
        }
        return SANITIZER_PATCH_SUCCESS;
    }
    if (kind != 0u && !(L->flags & CC_RC_FLAG_NO_RECORD)) { // one hazard per access
        return cc_rc_report_global(L, pc, old, ptr, eblock, size, flags, pData,
                                   kind | (rflags | (eblock == block ? 0u
                                                                     : CC_RC_REC_CROSS_BLOCK))
                                                  << 4 |
                                       (ws & CC_RC_WS_UNMODELLED));
    }
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_global_access(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize, uint32_t flags,
                    const void *pData)
{
    cc_rc_launch *L = cc_rc_header(userdata);
    if (L == nullptr || !(L->flags & CC_RC_FLAG_GLOBAL) || cc_rc_atomic_or_prefetch(flags) ||
        cc_rc_block() >= L->nblocks || !__isGlobal(ptr)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    // Word by word, up to the first hazard, in this function: a helper of its own adds its frame
    // to the deepest chain of calls, and the shared patch's split into a fast path and a helper
    // made CUB's look-back scans fault when tried here (docs/racecheck.md, "Cost").
    unsigned long long a = (unsigned long long)(uintptr_t)ptr & ~3ull;
    uint32_t words = accessSize > 4u ? accessSize >> 2 : 1u;
    bool hazard = false;
    for (uint32_t i = 0; i < words && !hazard; i++) {
        cc_rc_global_word(L, pc, ptr, a + 4ull * i, accessSize, flags, pData, &hazard);
    }
    return SANITIZER_PATCH_SUCCESS;
}

// The warp's lowest active lane adds `add` to its warp's state (in `mask`'s lanes).
static __device__ __forceinline__ void cc_rc_warp_add(void *userdata, uint32_t mask,
                                                      uint32_t bar, uint32_t cluster,
                                                      uint32_t warp, uint32_t set)
{
    cc_rc_launch *L = cc_rc_header(userdata);
    if (L == nullptr) {
        return;
    }
    uint32_t block = cc_rc_block();
    if (block >= L->nblocks) {
        return;
    }
    uint32_t tid = cc_rc_tid();
    uint32_t active = __activemask() & mask;
    if (active == 0u) {
        active = __activemask();
    }
    if ((tid & 31u) == (uint32_t)(__ffs((int)active) - 1)) {
        volatile uint32_t *w = &cc_rc_warps(L, block)[tid >> 5];
        uint32_t s = cc_rc_my_warp_state(L, block, tid);
        uint32_t b = (s + bar) & CC_RC_WS_BAR_MASK;
        uint32_t c = ((s >> CC_RC_WS_CLUSTER_SHIFT) + cluster) & 0xfu;
        uint32_t v = ((s >> CC_RC_WS_WARP_SHIFT) + warp) & 0xfu;
        *w = (s & CC_RC_WS_UNMODELLED) | set | b | (c << CC_RC_WS_CLUSTER_SHIFT) |
             (v << CC_RC_WS_WARP_SHIFT);
        __threadfence_block();
    }
    __syncwarp(active);
}

// A block barrier (before it): every warp counts it; a barrier of part of the block (a named
// barrier with a thread count, or one that may be reached unaligned) leaves the ordering
// unmodelled in the warps that pass it.
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_barrier(void *userdata, uint64_t pc, uint32_t barIndex, uint32_t threadCount,
              uint32_t flags)
{
    (void)pc;
    (void)flags;
    uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    bool partial = barIndex != 0u || (threadCount != 0u && threadCount < nthreads);
    cc_rc_warp_add(userdata, 0xffffffffu, 1u, 0u, 0u, partial ? CC_RC_WS_UNMODELLED : 0u);
    return SANITIZER_PATCH_SUCCESS;
}

// __syncwarp, after every lane of the mask arrived.
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_syncwarp(void *userdata, uint64_t pc, uint32_t mask)
{
    (void)pc;
    cc_rc_warp_add(userdata, mask, 0u, 0u, 1u, 0u);
    return SANITIZER_PATCH_SUCCESS;
}

// barrier.cluster.wait: orders the whole cluster (and so the block).
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_cluster_wait(void *userdata, uint64_t pc)
{
    (void)pc;
    cc_rc_warp_add(userdata, 0xffffffffu, 1u, 1u, 0u, 0u);
    return SANITIZER_PATCH_SUCCESS;
}

// An mbarrier (cuda::barrier, TMA pipelines): its ordering is not modelled, so the warps that
// use one report no hazards (they are counted as suppressed).
extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_cuda_barrier(void *userdata, uint64_t pc, void *barrier, uint32_t kind, uint32_t data)
{
    (void)pc;
    (void)barrier;
    (void)kind;
    (void)data;
    cc_rc_warp_add(userdata, 0xffffffffu, 0u, 0u, 0u, CC_RC_WS_UNMODELLED);
    return SANITIZER_PATCH_SUCCESS;
}

// ---- the shadow floor (CUCHECK_RC_PATCH=shadow-floor, a measuring aid) ----
// Each word an access touches costs one 64-bit atomic exchange into its shadow slot (the block's
// shadow word for shared memory, the table entry's state for global memory) whose old value is
// waited for, and nothing else: no state is compared, no hazard found. What the memory traffic
// of an exact per-word shadow costs at the least, beside the empty-patch floor.

// Keeps the exchange's result live (the patch waits for it, as a real check would).
static __device__ __forceinline__ void cc_rc_shadow_floor_use(cc_rc_launch *L,
                                                              unsigned long long old)
{
    if (old == ~0ull) {
        L->spare = 1u;
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_shadow_floor_shared(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize,
                          uint32_t flags, const void *pData)
{
    (void)flags, (void)pData;
    cc_rc_launch *L = cc_rc_header(userdata);
    uint32_t block = cc_rc_block();
    if (L == nullptr || !(L->flags & CC_RC_FLAG_SHARED) || block >= L->nblocks) {
        return SANITIZER_PATCH_SUCCESS;
    }
    uint32_t word = ((uint32_t)(uintptr_t)ptr & CC_MC_SMEM_OFFSET_MASK) >> 2;
    uint32_t n = accessSize > 4u ? accessSize >> 2 : 1u;
    unsigned long long *w = cc_rc_words(L, block);
    for (uint32_t i = 0; i < n && word + i < L->region_words; i++) {
        cc_rc_shadow_floor_use(L, atomicExch(&w[word + i], (unsigned long long)pc));
    }
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_rc_shadow_floor_global(void *userdata, uint64_t pc, void *ptr, uint32_t accessSize,
                          uint32_t flags, const void *pData)
{
    (void)flags, (void)pData;
    cc_rc_launch *L = cc_rc_header(userdata);
    if (L == nullptr || !(L->flags & CC_RC_FLAG_GLOBAL) || !__isGlobal(ptr)) {
        return SANITIZER_PATCH_SUCCESS;
    }
    unsigned long long a = (unsigned long long)(uintptr_t)ptr >> 2;
    uint32_t n = accessSize > 4u ? accessSize >> 2 : 1u;
    for (uint32_t i = 0; i < n; i++) {
        cc_rc_gentry *e = &L->gtable[(a + i) & L->gmask];
        cc_rc_shadow_floor_use(L, atomicExch(&e->state, (unsigned long long)pc));
    }
    return SANITIZER_PATCH_SUCCESS;
}
