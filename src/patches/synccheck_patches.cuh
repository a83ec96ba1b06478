// synccheck's device patches (patch_records.h, "synccheck"): barriers, warp synchronizations
// and shuffles that not every thread they name takes part in, found on the device with a
// bounded per-block region of the launch's buffer (zero when the block starts) and no locks.
// Each group of lanes that runs a patched instruction together is handled by its lowest active
// lane, with atomics: it notes its warp's exited lanes at the thread's exit, counts the warp's
// barrier rounds (the first warp at round r claims the round with its barrier's pc, later warps
// compare), and keeps the warp's synchronization in progress. A misuse is folded by (pc, kind,
// flags) into one of CC_SY_MAX_SITES host-visible records. The block's last exit clears its
// region, so that the next launch finds it zero without a memset. Every entry point is a thin
// gate: it checks that the launch is checked and calls the body (a patch saves every register
// it uses before its first instruction, so the gate keeps that short for unchecked launches).

static __device__ __forceinline__ uint32_t cc_sy_tid()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ uint32_t cc_sy_block_id()
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// The header if this launch is checked, else NULL.
static __device__ __forceinline__ cc_sy_launch *cc_sy_header(void *userdata)
{
    cc_sy_launch *L = (cc_sy_launch *)userdata;
    return L != nullptr && L->magic == CC_SY_LAUNCH_MAGIC ? L : nullptr;
}

// The lanes of warp `warp` that exist (the block's last warp may be partial).
static __device__ __forceinline__ uint32_t cc_sy_existing(uint32_t warp)
{
    uint32_t n = blockDim.x * blockDim.y * blockDim.z - warp * 32u;
    return n >= 32u ? 0xffffffffu : (1u << n) - 1u;
}

// This thread is its group's lowest active lane.
static __device__ __forceinline__ bool cc_sy_leader(uint32_t active, uint32_t tid)
{
    return (tid & 31u) == (uint32_t)(__ffs((int)active) - 1);
}

static __device__ __forceinline__ uint32_t cc_sy_load(const unsigned int *p)
{
    return *(const volatile unsigned int *)p;
}

static __device__ __forceinline__ unsigned long long cc_sy_load64(const unsigned long long *p)
{
    return *(const volatile unsigned long long *)p;
}

// A pc from the 32 bits of pc >> 4 kept in a round or a warp sync, next to a full pc.
static __device__ __forceinline__ uint64_t cc_sy_pc_of(uint32_t low, uint64_t near)
{
    return (near & ~((1ull << 36) - 1ull)) | ((uint64_t)low << 4);
}

// Record one misuse (the slow end): dedup by (pc, kind, flags), the first thread of a record
// writes it, every one counts.
static __device__ __noinline__ void cc_sy_record_misuse(cc_sy_launch *L, uint64_t pc,
                                                        uint32_t kind, uint32_t flags,
                                                        uint32_t mask, uint32_t lanes,
                                                        uint32_t exited, uint64_t other_pc,
                                                        uint32_t other_thread)
{
    unsigned long long key = ((unsigned long long)(pc >> 4) << 16) |
                             ((unsigned long long)(flags & 0xfffu) << 4) | kind;
    unsigned int h = (unsigned int)(((pc >> 4) * 31u + kind * 7u + flags) % CC_SY_MAX_SITES);
    int idx = -1;
    bool claimed = false;
    for (unsigned int i = 0; i < CC_SY_MAX_SITES; i++) {
        unsigned int j = (h + i) % CC_SY_MAX_SITES;
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
    if (!claimed) {
        return;
    }
    cc_sy_record *r = &L->records[idx];
    r->pc = pc;
    r->other_pc = other_pc;
    r->kind = kind;
    r->flags = flags;
    r->block = cc_sy_block_id();
    r->thread = cc_sy_tid();
    r->other_thread = other_thread;
    r->mask = mask;
    r->lanes = lanes;
    r->exited = exited;
    __threadfence_system();
    r->valid = 1u;
}

// The block's region, or NULL for a block past the checked ones.
static __device__ __forceinline__ cc_sy_block *cc_sy_region(const cc_sy_launch *L)
{
    uint32_t b = cc_sy_block_id();
    return b < L->nblocks ? (cc_sy_block *)((char *)L->blocks + (size_t)b * L->region_bytes)
                          : nullptr;
}

// ---- block barriers ----

// Round r of the block's barriers at pc, for this warp: the first warp there claims the round
// (one atomic max: an empty slot or an older round is below (r + 1) << 32); a later one at
// another barrier instruction finds warps of the block at different barriers (whichever pc the
// slot keeps, one of the two sees the other's).
static __device__ __forceinline__ void cc_sy_round(cc_sy_launch *L, cc_sy_block *B, uint64_t pc,
                                                   uint32_t r, uint32_t active, uint32_t tid)
{
    unsigned long long want = ((unsigned long long)(r + 1u) << 32) | (uint32_t)(pc >> 4);
    unsigned long long cur = atomicMax(&B->round[r & 1u], want);
    if (cur < want) {
        *(volatile unsigned int *)&B->round_tid[r & 1u] = tid; // the thread the slot's pc names
    }
    if ((cur >> 32) == (unsigned long long)(r + 1u) && (uint32_t)cur != (uint32_t)(pc >> 4)) {
        cc_sy_record_misuse(L, pc, CC_SY_BLOCK_DIVERGENT, 0u, active, 0u, 0u,
                            cc_sy_pc_of((uint32_t)cur, pc), cc_sy_load(&B->round_tid[r & 1u]));
    }
}

static __device__ __noinline__ void cc_sy_barrier_checked(cc_sy_launch *L, uint64_t pc,
                                                          uint32_t barIndex,
                                                          uint32_t threadCount, uint32_t flags)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t active = __activemask(), tid = cc_sy_tid();
    if (B == nullptr || !cc_sy_leader(active, tid)) {
        return;
    }
    uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    if (barIndex != 0u || (threadCount != 0u && threadCount < nthreads)) {
        atomicAdd(&L->unmodelled, 1u); // a named or partial barrier: not modelled
        return;
    }
    cc_sy_warp *W = &B->warps[tid >> 5];
    uint32_t existing = cc_sy_existing(tid >> 5);
    uint32_t r;
    if (flags & SANITIZER_BARRIER_FLAG_UNALIGNED_ALLOWED) {
        // Lanes may arrive apart: the warp's round is done when its live lanes all arrived.
        uint32_t live = existing & ~(uint32_t)cc_sy_load64(&W->rounds_exited);
        uint32_t seen = atomicOr(&W->arrived, active) | active;
        if ((seen & live) != live) {
            r = 0xffffffffu;
        } else {
            atomicAnd(&W->arrived, ~seen);
            r = (uint32_t)(atomicAdd(&W->rounds_exited, 1ull << 32) >> 32);
        }
    } else {
        // The round counted and the warp's exited lanes read in one atomic.
        unsigned long long was = atomicAdd(&W->rounds_exited, 1ull << 32);
        uint32_t live = existing & ~(uint32_t)was;
        r = (uint32_t)(was >> 32);
        if (active != live) {
            cc_sy_record_misuse(L, pc, CC_SY_WARP_DIVERGENT, 0u, active, live & ~active, 0u, 0ull,
                                0u);
        }
    }
    if (r != 0xffffffffu) {
        cc_sy_round(L, B, pc, r, active, tid);
    }
    // The round claimed before the exits are read (cc_sy_exit_checked: after). Both sides are
    // threads of one block, so a block-scope fence orders them (a GPU-scope one cost more).
    __threadfence_block();
    uint32_t exited = cc_sy_load(&B->exited);
    if (exited != 0u) {
        cc_sy_record_misuse(L, pc, CC_SY_AFTER_EXIT, 0u, active, 0u, exited, 0ull, 0u);
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_sy_barrier(void *userdata, uint64_t pc, uint32_t barIndex, uint32_t threadCount,
              uint32_t flags)
{
    cc_sy_launch *L = cc_sy_header(userdata);
    if (L != nullptr) {
        cc_sy_barrier_checked(L, pc, barIndex, threadCount, flags);
    }
    return SANITIZER_PATCH_SUCCESS;
}

// ---- warp synchronization (__syncwarp, and the warp sync before a shuffle) ----

static __device__ __noinline__ void cc_sy_syncwarp_checked(cc_sy_launch *L, uint64_t pc,
                                                           uint32_t mask)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t active = __activemask(), tid = cc_sy_tid();
    if (B == nullptr || !cc_sy_leader(active, tid)) {
        return;
    }
    uint32_t warp = tid >> 5, existing = cc_sy_existing(warp);
    cc_sy_warp *W = &B->warps[warp];
    uint32_t exited = (uint32_t)cc_sy_load64(&W->rounds_exited);
    uint32_t bad = 0u, lanes = 0u;
    if (active & ~mask) {
        bad |= CC_SY_F_NOT_IN_MASK;
        lanes |= active & ~mask;
    }
    if (mask & ~existing) {
        bad |= CC_SY_F_NO_THREAD;
        lanes |= mask & ~existing;
    }
    if (mask & existing & exited) {
        bad |= CC_SY_F_EXITED;
        lanes |= mask & existing & exited;
    }
    atomicOr(&W->sw_mask, mask);
    atomicOr(&W->sw_wait, active);
    atomicExch(&W->sw_pc, (uint32_t)(pc >> 4));
    atomicExch(&W->sw_last_mask, mask);
    atomicExch(&W->sw_bad_lanes, lanes);
    atomicExch(&W->sw_bad, bad);
    if (bad != 0u) {
        cc_sy_record_misuse(L, pc, CC_SY_SYNCWARP_MASK, bad, mask, lanes, 0u, 0ull, 0u);
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_sy_syncwarp(void *userdata, uint64_t pc, uint32_t mask)
{
    cc_sy_launch *L = cc_sy_header(userdata);
    if (L != nullptr) {
        cc_sy_syncwarp_checked(L, pc, mask);
    }
    return SANITIZER_PATCH_SUCCESS;
}

static __device__ __noinline__ void cc_sy_syncwarp_release_checked(cc_sy_launch *L)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t active = __activemask(), tid = cc_sy_tid();
    if (B == nullptr || !cc_sy_leader(active, tid)) {
        return;
    }
    cc_sy_warp *W = &B->warps[tid >> 5];
    if ((atomicAnd(&W->sw_wait, ~active) & ~active) == 0u) {
        atomicAnd(&W->sw_mask, 0u); // nobody waits any more
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult
cc_sy_syncwarp_release(void *userdata, uint64_t pc, uint32_t mask)
{
    (void)pc, (void)mask;
    cc_sy_launch *L = cc_sy_header(userdata);
    if (L != nullptr) {
        cc_sy_syncwarp_release_checked(L);
    }
    return SANITIZER_PATCH_SUCCESS;
}

// A shuffle (before it; its mask is not passed): the warp sync just before it (within
// CC_SY_SHFL_WINDOW instructions) is taken as its own, and what was found on that one is the
// shuffle's; with none, a shuffle run by part of its warp's live lanes is a warning, unless the
// warp's last warp sync named exactly the lanes that run it.
static __device__ __noinline__ void cc_sy_shfl_checked(cc_sy_launch *L, uint64_t pc)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t active = __activemask(), tid = cc_sy_tid();
    if (B == nullptr || !cc_sy_leader(active, tid)) {
        return;
    }
    cc_sy_warp *W = &B->warps[tid >> 5];
    uint32_t sync_pc = cc_sy_load(&W->sw_pc);
    uint32_t dist = (uint32_t)(pc >> 4) - sync_pc;
    if (sync_pc != 0u && dist >= 1u && dist <= CC_SY_SHFL_WINDOW) {
        uint32_t bad = atomicExch(&W->sw_bad, 0u);
        if (bad != 0u) {
            cc_sy_record_misuse(L, pc, CC_SY_SHFL_MASK, bad, cc_sy_load(&W->sw_mask) | active,
                                cc_sy_load(&W->sw_bad_lanes), 0u, 0ull, 0u);
        }
        return;
    }
    uint32_t live = cc_sy_existing(tid >> 5) & ~(uint32_t)cc_sy_load64(&W->rounds_exited);
    if (active != live && cc_sy_load(&W->sw_last_mask) != active) {
        cc_sy_record_misuse(L, pc, CC_SY_SHFL_MASK, CC_SY_F_MASK_UNKNOWN, active, live & ~active,
                            0u, 0ull, 0u);
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult cc_sy_shfl(void *userdata, uint64_t pc)
{
    cc_sy_launch *L = cc_sy_header(userdata);
    if (L != nullptr) {
        cc_sy_shfl_checked(L, pc);
    }
    return SANITIZER_PATCH_SUCCESS;
}

// ---- thread exit ----

// Zero a block's region (its header and its warps), by the thread that handled its last exit.
static __device__ __noinline__ void cc_sy_clear(cc_sy_launch *L, cc_sy_block *B, uint32_t nthreads)
{
    uint4 *p = (uint4 *)B;
    uint32_t n = CC_SY_REGION_BYTES((nthreads + 31u) / 32u) / 16u;
    for (uint32_t i = 0; i < n; i++) {
        p[i] = make_uint4(0u, 0u, 0u, 0u);
    }
    atomicAdd(&L->cleaned, 1u);
}

// The exiting lanes are noted; a barrier round this warp never reached that another warp is in
// (it waits for threads that exit) and a warp sync of the warp's other lanes that names them
// (they exit instead of arriving) are misuses. The group that completes the block's exits
// clears the region: every lane's earlier updates are ordered before its group's count (the
// warp sync, then the leader's fence), and the clear after every count (the fence after it).
static __device__ __noinline__ void cc_sy_exit_checked(cc_sy_launch *L, uint64_t pc)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t active = __activemask(), tid = cc_sy_tid();
    __syncwarp(active);
    if (B == nullptr || !cc_sy_leader(active, tid)) {
        return;
    }
    cc_sy_warp *W = &B->warps[tid >> 5];
    uint32_t n = (uint32_t)__popc(active);
    uint32_t r = (uint32_t)(atomicOr(&W->rounds_exited, (unsigned long long)active) >> 32);
    uint32_t exited = atomicAdd(&B->exited, n) + n;
    __threadfence_block(); // the exit counted before the rounds are read (the same block)
    unsigned long long cur = *(volatile unsigned long long *)&B->round[r & 1u];
    if ((cur >> 32) == (unsigned long long)(r + 1u)) {
        cc_sy_record_misuse(L, cc_sy_pc_of((uint32_t)cur, pc), CC_SY_AFTER_EXIT, CC_SY_F_AT_EXIT,
                            active, active, exited, 0ull, 0u);
    }
    uint32_t waiting = cc_sy_load(&W->sw_wait) & ~active;
    uint32_t named = cc_sy_load(&W->sw_mask) & active;
    if (waiting != 0u && named != 0u) {
        atomicOr(&W->sw_bad_lanes, named);
        atomicOr(&W->sw_bad, CC_SY_F_EXIT_WAITED);
        cc_sy_record_misuse(L, cc_sy_pc_of(cc_sy_load(&W->sw_pc), pc), CC_SY_SYNCWARP_MASK,
                            CC_SY_F_EXIT_WAITED, cc_sy_load(&W->sw_mask), named, 0u, 0ull, 0u);
    }
    uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    __threadfence_block();
    if (atomicAdd(&B->done, n) + n == nthreads) {
        __threadfence_block();
        cc_sy_clear(L, B, nthreads);
    }
}

extern "C" __device__ __noinline__ SanitizerPatchResult cc_sy_block_exit(void *userdata,
                                                                        uint64_t pc)
{
    cc_sy_launch *L = cc_sy_header(userdata);
    if (L != nullptr) {
        cc_sy_exit_checked(L, pc);
    }
    return SANITIZER_PATCH_SUCCESS;
}
