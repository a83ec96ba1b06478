// synccheck's device patches (patch_records.h, "synccheck"): barriers, warp synchronizations
// and shuffles that not every thread they name takes part in, found on the device with a
// bounded per-block region of the launch's buffer (zero when the block starts) and no locks.
// Each group of lanes that runs a patched instruction together is handled by its lowest active
// lane: it notes its warp's exited lanes at the thread's exit, counts the warp's barrier rounds
// and notes each round's barrier in the warp's slot, and keeps the warp's synchronization in
// progress. A group that is all of its warp's live lanes (the common case) updates the warp's
// words with plain block-scope loads and stores, which the SM's L1 serves (nothing else of the
// warp runs); a part of a warp uses atomics. A round is checked after it completed, at the
// warp's next barrier or exit: its barrier against the next warp's (cyclically), so that warps
// at two barriers, or a warp that never got there (it exited), are found without any word
// that the block's warps share. A misuse is folded by (pc, kind, flags) into one of
// CC_SY_MAX_SITES host-visible records. The block's last exit clears its region, so that the
// next launch finds it zero without a memset. Every entry point is a thin gate: it checks that
// the launch is checked and calls the body (a patch saves every register it uses before its
// first instruction, so the gate keeps that short for unchecked launches).

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

// Loads and stores of the block's region: every thread that shares a word is of this block, so
// block scope suffices, and the SM's L1 can serve the loads (a volatile load goes to L2).
static __device__ __forceinline__ uint32_t cc_sy_load(const unsigned int *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.cta.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ unsigned long long cc_sy_load64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.cta.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

// A warp's two round slots (16 bytes, aligned) in one load.
static __device__ __forceinline__ void cc_sy_load_slots(const unsigned long long *p,
                                                        unsigned long long *s0,
                                                        unsigned long long *s1)
{
    asm volatile("ld.relaxed.cta.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(*s0), "=l"(*s1)
                 : "l"(p)
                 : "memory");
}

// The rounds a warp passed: the larger tag of its two slots.
static __device__ __forceinline__ uint32_t cc_sy_rounds(unsigned long long s0,
                                                        unsigned long long s1)
{
    return max((uint32_t)(s0 >> 32), (uint32_t)(s1 >> 32));
}

static __device__ __forceinline__ void cc_sy_store(unsigned int *p, uint32_t v)
{
    asm volatile("st.relaxed.cta.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

static __device__ __forceinline__ void cc_sy_store64(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.cta.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

// A pc from the 32 bits of pc >> 4 kept in a round or a warp sync, next to a full pc.
static __device__ __forceinline__ uint64_t cc_sy_pc_of(uint32_t low, uint64_t near)
{
    return (near & ~((1ull << 36) - 1ull)) | ((uint64_t)low << 4);
}

// `exited` for a record: the block's exited threads, counted by the thread that writes it.
#define CC_SY_COUNT_EXITED 0xffffffffu

static __device__ __forceinline__ cc_sy_block *cc_sy_region(const cc_sy_launch *L);

// The threads of this block whose exits were noted (from its warps' exited lanes).
static __device__ __forceinline__ uint32_t cc_sy_count_exited(const cc_sy_launch *L);

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
    r->exited = exited == CC_SY_COUNT_EXITED ? cc_sy_count_exited(L) : exited;
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

static __device__ __forceinline__ uint32_t cc_sy_nwarps()
{
    return (blockDim.x * blockDim.y * blockDim.z + 31u) >> 5;
}

static __device__ __forceinline__ uint32_t cc_sy_count_exited(const cc_sy_launch *L)
{
    const cc_sy_block *B = cc_sy_region(L);
    uint32_t exited = 0u, nwarps = cc_sy_nwarps();
    for (uint32_t w = 0; B != nullptr && w < nwarps; w++) {
        exited += (uint32_t)__popc(cc_sy_load(&B->warps[w].exited) & cc_sy_existing(w));
    }
    return exited;
}

// ---- block barriers ----

// The warp a warp checks its rounds against: the next one, cyclically (itself in a block of one
// warp: nothing to check).
static __device__ __forceinline__ uint32_t cc_sy_next_warp(uint32_t warp)
{
    return warp + 1u >= cc_sy_nwarps() ? 0u : warp + 1u;
}

// What a barrier or an exit reads, issued at once before any store (two sectors, one round
// trip): the warp's two slots and the next warp's, and the warp's exited lanes (returned).
static __device__ __forceinline__ uint32_t
cc_sy_read_round_words(const cc_sy_block *B, uint32_t warp, uint32_t next,
                       unsigned long long *mine0, unsigned long long *mine1,
                       unsigned long long *theirs0, unsigned long long *theirs1)
{
    cc_sy_load_slots(B->warps[warp].slot, mine0, mine1);
    uint32_t exited = cc_sy_load(&B->warps[warp].exited);
    cc_sy_load_slots(B->warps[next].slot, theirs0, theirs1);
    return exited;
}

// Round r of the block's barriers, after it completed (every warp of the block passed it or had
// exited, and what each wrote before it is visible): this warp's barrier (`mine`, its slot of
// r's parity) against the next warp's (`theirs`). Around the block, warps at two barriers of
// one round differ somewhere from their next warp, and a warp that never got there (it exited)
// leaves its slot on an older round. A next warp already a round further (possible only at this
// warp's exit) is not judged here: it went on after this warp exited, which its own previous
// warp finds. The misuse found (CC_SY_BLOCK_DIVERGENT, CC_SY_AFTER_EXIT) or 0.
static __device__ __forceinline__ uint32_t cc_sy_round_misuse(uint32_t r, unsigned long long mine,
                                                             unsigned long long theirs)
{
    if ((uint32_t)(mine >> 32) != r + 1u) {
        return 0u;
    }
    int32_t ahead = (int32_t)((uint32_t)(theirs >> 32) - (r + 1u));
    if (ahead == 0 && (uint32_t)theirs != (uint32_t)mine) {
        return CC_SY_BLOCK_DIVERGENT;
    }
    return ahead < 0 ? CC_SY_AFTER_EXIT : 0u;
}

// The slow end of a barrier or exit that found something (or the warp's round r - 1 to judge
// again): round r - 1 judged and recorded (its slots, stable until this warp's next barrier,
// read again), and with own_exits a barrier reached after lanes of this warp exited.
static __device__ __noinline__ void cc_sy_report_round(cc_sy_launch *L, uint64_t pc, uint32_t r,
                                                       uint32_t active, bool own_exits)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t warp = cc_sy_tid() >> 5, next = cc_sy_next_warp(warp);
    if (own_exits) {
        cc_sy_record_misuse(L, pc, CC_SY_AFTER_EXIT, 0u, active, 0u, CC_SY_COUNT_EXITED, 0ull, 0u);
    }
    if (r == 0u || next == warp) {
        return;
    }
    unsigned long long mine = cc_sy_load64(&B->warps[warp].slot[(r - 1u) & 1u]);
    unsigned long long theirs = cc_sy_load64(&B->warps[next].slot[(r - 1u) & 1u]);
    uint32_t kind = cc_sy_round_misuse(r - 1u, mine, theirs);
    if (kind == CC_SY_BLOCK_DIVERGENT) {
        cc_sy_record_misuse(L, cc_sy_pc_of((uint32_t)mine, pc), kind, 0u, active, 0u, 0u,
                            cc_sy_pc_of((uint32_t)theirs, pc), next * 32u);
    } else if (kind == CC_SY_AFTER_EXIT) {
        cc_sy_record_misuse(L, cc_sy_pc_of((uint32_t)mine, pc), kind, 0u, active, 0u,
                            CC_SY_COUNT_EXITED, 0ull, 0u);
    }
}

// A barrier reached by part of a warp's live lanes (atomics: other groups of the warp run too):
// the warp's next round claimed with its slot (an unaligned barrier's by the last of the warp's
// live lanes to arrive). The round claimed, with CC_SY_OWN_EXITS when lanes of the warp had
// exited, or CC_SY_ROUND_OPEN (nothing claimed: lanes of the warp still to arrive).
#define CC_SY_ROUND_OPEN 0xffffffffffffffffull
#define CC_SY_OWN_EXITS (1ull << 32)

static __device__ __noinline__ unsigned long long cc_sy_barrier_part(cc_sy_launch *L, uint64_t pc,
                                                                     uint32_t active,
                                                                     uint32_t flags)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t warp = cc_sy_tid() >> 5, existing = cc_sy_existing(warp);
    cc_sy_warp *W = &B->warps[warp];
    uint32_t live = existing & ~cc_sy_load(&W->exited);
    if (flags & SANITIZER_BARRIER_FLAG_UNALIGNED_ALLOWED) {
        // Lanes may arrive apart: the warp's round is done when its live lanes all arrived.
        uint32_t seen = atomicOr(&W->arrived, active) | active;
        if ((seen & live) != live) {
            return CC_SY_ROUND_OPEN;
        }
        atomicAnd(&W->arrived, ~seen);
    } else if (active != live) {
        cc_sy_record_misuse(L, pc, CC_SY_WARP_DIVERGENT, 0u, active, live & ~active, 0u, 0ull, 0u);
    }
    // Each group that gets here counts a round: its slot claimed by compare-and-swap against
    // another group of the warp doing the same.
    uint32_t r = 0u;
    for (int i = 0; i < 8; i++) {
        unsigned long long s0, s1;
        cc_sy_load_slots(W->slot, &s0, &s1);
        r = cc_sy_rounds(s0, s1);
        unsigned long long old = (r & 1u) ? s1 : s0;
        unsigned long long mine = ((unsigned long long)(r + 1u) << 32) | (uint32_t)(pc >> 4);
        if (atomicCAS(&W->slot[r & 1u], old, mine) == old) {
            break;
        }
    }
    return r | ((existing & ~live) != 0u ? CC_SY_OWN_EXITS : 0ull);
}

// A block barrier. The common case, all of the warp's live lanes at once, runs here with plain
// loads and stores and no call: the warp's slots and exited lanes and the next warp's slots
// read at once (two sectors, one round trip, before any store), the round's slot written, round
// r - 1 judged; anything found, and a part of a warp, goes to the slow end.
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
    uint32_t warp = tid >> 5, next = cc_sy_next_warp(warp), existing = cc_sy_existing(warp);
    cc_sy_warp *W = &B->warps[warp];
    unsigned long long mine0, mine1, theirs0, theirs1;
    uint32_t exited = cc_sy_read_round_words(B, warp, next, &mine0, &mine1, &theirs0, &theirs1);
    if (active != (existing & ~exited)) {
        unsigned long long got = cc_sy_barrier_part(L, pc, active, flags);
        if (got != CC_SY_ROUND_OPEN) {
            cc_sy_report_round(L, pc, (uint32_t)got, active, (got & CC_SY_OWN_EXITS) != 0ull);
        }
        return;
    }
    uint32_t r = cc_sy_rounds(mine0, mine1);
    cc_sy_store64(&W->slot[r & 1u], ((unsigned long long)(r + 1u) << 32) | (uint32_t)(pc >> 4));
    bool own_exits = (exited & existing) != 0u;
    bool misuse = r != 0u && next != warp &&
                  cc_sy_round_misuse(r - 1u, (r & 1u) ? mine0 : mine1,
                                     (r & 1u) ? theirs0 : theirs1) != 0u;
    if (own_exits || misuse) {
        cc_sy_report_round(L, pc, r, active, own_exits);
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
    uint32_t exited = cc_sy_load(&W->exited);
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
    uint32_t live = cc_sy_existing(tid >> 5) & ~cc_sy_load(&W->exited);
    if (active == live) {
        // All of the warp's live lanes: nothing else of the warp waits or runs.
        cc_sy_store(&W->sw_wait, 0u);
        cc_sy_store(&W->sw_mask, 0u);
    } else if ((atomicAnd(&W->sw_wait, ~active) & ~active) == 0u) {
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
        uint32_t bad = cc_sy_load(&W->sw_bad) != 0u ? atomicExch(&W->sw_bad, 0u) : 0u;
        if (bad != 0u) {
            cc_sy_record_misuse(L, pc, CC_SY_SHFL_MASK, bad, cc_sy_load(&W->sw_mask) | active,
                                cc_sy_load(&W->sw_bad_lanes), 0u, 0ull, 0u);
        }
        return;
    }
    uint32_t live = cc_sy_existing(tid >> 5) & ~cc_sy_load(&W->exited);
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

// The block's exits counted (`n` threads more, after the warp sync and every read of the region
// by the exiting group): the group that completes them clears the region, after a fence that
// orders every count before the clear.
static __device__ __forceinline__ void cc_sy_count_exits(cc_sy_launch *L, cc_sy_block *B,
                                                         uint32_t n)
{
    uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    __threadfence_block();
    if (atomicAdd(&B->done, n) + n == nthreads) {
        __threadfence_block();
        cc_sy_clear(L, B, nthreads);
    }
}

// Lanes exiting while others of their warp live (atomics: other groups of the warp run too):
// their exit noted; a warp sync of the other lanes that names them is a misuse (they exit
// instead of arriving). True when this group completes the warp's exits.
static __device__ __noinline__ bool cc_sy_exit_part(cc_sy_launch *L, uint64_t pc, uint32_t active)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t warp = cc_sy_tid() >> 5, existing = cc_sy_existing(warp);
    cc_sy_warp *W = &B->warps[warp];
    uint32_t was = atomicOr(&W->exited, active);
    uint32_t waiting = cc_sy_load(&W->sw_wait) & ~active;
    uint32_t named = cc_sy_load(&W->sw_mask) & active;
    if (waiting != 0u && named != 0u) {
        atomicOr(&W->sw_bad_lanes, named);
        atomicOr(&W->sw_bad, CC_SY_F_EXIT_WAITED);
        cc_sy_record_misuse(L, cc_sy_pc_of(cc_sy_load(&W->sw_pc), pc), CC_SY_SYNCWARP_MASK,
                            CC_SY_F_EXIT_WAITED, cc_sy_load(&W->sw_mask), named, 0u, 0ull, 0u);
    }
    return (existing & ~(was | active)) == 0u;
}

// A thread's exit (each group's leader, after its warp sync, so that every lane's earlier
// updates are ordered before the group's count). The common case, the warp's last live lanes,
// runs here with plain loads and stores: the exit noted and the warp's last round judged (as
// at a barrier: cc_sy_barrier_checked); anything found, and a part of a warp, goes to the slow
// end.
static __device__ __noinline__ void cc_sy_exit_checked(cc_sy_launch *L, uint64_t pc)
{
    cc_sy_block *B = cc_sy_region(L);
    uint32_t active = __activemask(), tid = cc_sy_tid();
    __syncwarp(active);
    if (B == nullptr || !cc_sy_leader(active, tid)) {
        return;
    }
    uint32_t warp = tid >> 5, next = cc_sy_next_warp(warp), existing = cc_sy_existing(warp);
    cc_sy_warp *W = &B->warps[warp];
    unsigned long long mine0, mine1, theirs0, theirs1;
    uint32_t exited = cc_sy_read_round_words(B, warp, next, &mine0, &mine1, &theirs0, &theirs1);
    uint32_t r = cc_sy_rounds(mine0, mine1);
    if (active != (existing & ~exited)) {
        if (cc_sy_exit_part(L, pc, active)) {
            cc_sy_report_round(L, pc, r, active, false); // the group that ends the warp
        }
    } else {
        cc_sy_store(&W->exited, exited | active);
        if (r != 0u && next != warp &&
            cc_sy_round_misuse(r - 1u, (r & 1u) ? mine0 : mine1, (r & 1u) ? theirs0 : theirs1)) {
            cc_sy_report_round(L, pc, r, active, false);
        }
    }
    cc_sy_count_exits(L, cc_sy_region(L), (uint32_t)__popc(active));
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
