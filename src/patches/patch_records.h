/* The layout shared by the device patch code (cucheck_patches.cu) and the agent: the per-launch
 * buffer a launch's patches write into (passed to them as `userdata`) and the names of the patch
 * functions the agent hands to sanitizerPatchInstructions. Plain C, valid in CUDA C++ too. */
#ifndef CUCHECK_PATCHES_PATCH_RECORDS_H
#define CUCHECK_PATCHES_PATCH_RECORDS_H

#include <stdint.h>

/* Memory spaces of a recorded access (same values as cc_mem_space in cucheck/finding.h). */
#define CC_PATCH_SPACE_GLOBAL 1u
#define CC_PATCH_SPACE_SHARED 2u
#define CC_PATCH_SPACE_LOCAL 3u

/* Access flags: the Compute Sanitizer device flags, unchanged. READ|WRITE together = atomic. */
#define CC_PATCH_ACCESS_READ 0x1u
#define CC_PATCH_ACCESS_WRITE 0x2u
#define CC_PATCH_ACCESS_ATOMSYS 0x4u
#define CC_PATCH_ACCESS_PREFETCH 0x8u

/* ---- memcheck: checks on the device, only violations leave it ----
 * A checked launch gets a cc_mc_launch (device memory) as userdata: the sorted table of live
 * allocations to check global accesses against, and dedup state. A violation is folded by
 * (pc, violation) into one of CC_MC_MAX_SITES sites; the first CC_MC_SAMPLES threads of a site
 * write a sample into the site's host-visible record (pinned host memory, so that it survives
 * a kernel that faults right after). */
#define CC_PATCH_FN_MC_GLOBAL "cc_mc_global_access"
#define CC_PATCH_FN_MC_SHARED "cc_mc_shared_access"
#define CC_PATCH_FN_MC_LOCAL "cc_mc_local_access"
#define CC_PATCH_FN_MC_MEMCPY_ASYNC "cc_mc_memcpy_async"     /* cp.async global -> shared */
#define CC_PATCH_FN_MC_DEVICE_MALLOC "cc_mc_device_malloc"   /* malloc / aligned malloc */
#define CC_PATCH_FN_MC_DEVICE_FREE "cc_mc_device_free"
/* Empty patches (CUCHECK_MC_PATCH=floor): the same instruction classes patched with functions
 * that return at once, to measure in one run what the patched calls cost without any check. */
#define CC_PATCH_FN_FLOOR_ACCESS "cc_floor_access"
#define CC_PATCH_FN_FLOOR_MEMCPY_ASYNC "cc_floor_memcpy_async"
#define CC_PATCH_FN_FLOOR_BARRIER "cc_floor_barrier"           /* racecheck's floor */
#define CC_PATCH_FN_FLOOR_SYNCWARP "cc_floor_syncwarp"
#define CC_PATCH_FN_FLOOR_CLUSTER_WAIT "cc_floor_cluster_wait"
#define CC_PATCH_FN_FLOOR_CUDA_BARRIER "cc_floor_cuda_barrier"

#define CC_MC_LAUNCH_MAGIC 0x4b434d43u /* "CMCK" */
#define CC_MC_INLINE_RANGES 8          /* tables this small travel in the launch header */
#define CC_MC_MAX_SITES 64
#define CC_MC_SAMPLES 4
#define CC_MC_FLAG_STOP 0x1u           /* the faulty warp exits before the invalid access */
#define CC_MC_FLAG_SHARED_WINDOW 0x2u  /* smem_lo/smem_end are set: shared window checks */
#define CC_MC_FLAG_LOCAL_WINDOW 0x4u   /* local_lo/local_end are set: local window checks */

/* Violations (same values as CC_VIOLATION_* in cucheck/event.h). */
#define CC_MC_VIOL_OUT_OF_BOUNDS 1u
#define CC_MC_VIOL_MISALIGNED 2u
#define CC_MC_VIOL_WINDOW 3u
#define CC_MC_VIOL_DEVICE_FREE_INVALID 4u /* device free() of a pointer malloc() never returned */
#define CC_MC_VIOL_DEVICE_FREE_DOUBLE 5u  /* device free() of a block freed before */
#define CC_MC_VIOL_HEAP_OVERRUN 6u        /* global access in the device heap, in no live block */
#define CC_MC_VIOL_HEAP_FREED 7u          /* global access inside a device-heap block freed before */

/* Shared window (SHARED_MEMORY_ACCESS and cp.async destinations get offsets in the block's
 * window): [0, smem_lo) is the system's reserved part (1024 bytes on sm_90+ cubins), the
 * program's static shared memory follows, then the launch's dynamic shared memory, whose start
 * is aligned to CC_MC_DYN_SMEM_ALIGN (%dynamic_smem_size is read on the device). Offsets are
 * compared modulo 2^24 (higher bits may carry the CTA's rank in its cluster). Local window
 * (LOCAL_MEMORY_ACCESS gets offsets in the thread's window, whose stack grows down from just
 * under CC_MC_LOCAL_WINDOW_END): an offset below local_lo (under the kernel's frame and the
 * context's stack limit) or at/past local_end is outside the thread's stack (see
 * memcheck_windows.h, cc_mc_local_window). */
#define CC_MC_DYN_SMEM_ALIGN 16u
#define CC_MC_SMEM_OFFSET_MASK 0xffffffu
#define CC_MC_LOCAL_WINDOW_MAX (512u * 1024u) /* CUDA's most local memory per thread */
#define CC_MC_LOCAL_WINDOW_END 0x1000000u     /* a thread's local window ends at 16 MiB */

/* The device heap (device-side malloc/free): one table per context, device memory, kept across
 * launches. Blocks are appended (never reused); a block is published by its state, written
 * last. lo/hi bound every pointer malloc returned (recorded or not), so that with overflow != 0
 * an access in [lo, hi) that finds no block is let pass rather than reported. */
#define CC_MC_HEAP_MAGIC 0x50484d43u   /* "CMHP" */
#define CC_MC_HEAP_CAP 16384u
#define CC_MC_HEAP_LIVE 1u
#define CC_MC_HEAP_FREED 2u

typedef struct cc_mc_heap_block {
    unsigned long long base;
    unsigned long long end;   /* base + requested size */
    unsigned int state;       /* 0 = not yet published, CC_MC_HEAP_LIVE, CC_MC_HEAP_FREED */
    unsigned int reserved;
} cc_mc_heap_block;

typedef struct cc_mc_heap {   /* device memory, zeroed, then the header written by the agent */
    uint32_t magic;           /* CC_MC_HEAP_MAGIC */
    uint32_t cap;             /* CC_MC_HEAP_CAP */
    unsigned int next;        /* blocks handed out; past cap: not recorded */
    unsigned int overflow;    /* mallocs not recorded (table full) */
    unsigned long long lo;    /* lowest pointer malloc returned (initially ~0) */
    unsigned long long hi;    /* highest block end (initially 0) */
    cc_mc_heap_block blocks[CC_MC_HEAP_CAP];
} cc_mc_heap;

typedef struct cc_mc_range {  /* one live allocation: [base, end) */
    uint64_t base;
    uint64_t end;
} cc_mc_range;

typedef struct cc_mc_sample { /* one thread's invalid access, 40 bytes */
    uint64_t address;
    uint32_t size;
    uint16_t flags;           /* CC_PATCH_ACCESS_* */
    uint16_t space;           /* CC_PATCH_SPACE_* */
    uint32_t thread[3];
    uint32_t block[3];
} cc_mc_sample;

typedef struct cc_mc_site {   /* host-visible; valid flags are written last */
    uint64_t pc;
    uint32_t violation;
    uint32_t valid;
    uint32_t sample_valid[CC_MC_SAMPLES];
    cc_mc_sample samples[CC_MC_SAMPLES];
} cc_mc_site;

typedef struct cc_mc_launch { /* device memory; uploaded whole before each checked launch */
    /* The fields the patches read on every call come first: magic with the inline count (the
     * global patch's one 8-byte load), flags and the shared window's end (the shared patch's
     * one 16-byte load). A copy of the table rides in the header when it has at most
     * CC_MC_INLINE_RANGES entries (most programs, and PyTorch's caching allocator with its few
     * segments), at a fixed offset. The patches are bound by memory instructions per call. */
    uint32_t magic;
    uint32_t ninline;         /* entries of inline_table, or CC_MC_INLINE_RANGES + 1: use table */
    uint32_t flags;           /* CC_MC_FLAG_* */
    /* Windows; 0 (a zeroed header) = not checked. */
    uint32_t smem_end;        /* CC_MC_FLAG_SHARED_WINDOW: end of the static shared bytes */
    uint32_t smem_lo;         /* CC_MC_FLAG_SHARED_WINDOW: first byte the program owns */
    uint32_t reserved0;
    /* CC_MC_FLAG_LOCAL_WINDOW: local offsets must lie in [local_lo, local_end) (one 8-byte load
     * of the local patch; local_lo first). */
    uint32_t local_lo;
    uint32_t local_end;
    cc_mc_range inline_table[CC_MC_INLINE_RANGES];
    uint64_t ntable;
    const cc_mc_range *table; /* device pointer, sorted by base */
    cc_mc_site *sites;        /* pinned host memory, CC_MC_MAX_SITES of them */
    unsigned int overflow;    /* violations that found no free site */
    unsigned int reserved;
    cc_mc_heap *heap;         /* the context's device-heap table (device memory) or NULL */
    unsigned long long keys[CC_MC_MAX_SITES]; /* 0 = free, else pc * 8 + violation */
    unsigned int counts[CC_MC_MAX_SITES];     /* threads per site */
} cc_mc_launch;

/* ---- streamcheck: access sets reduced on the device, only per-range summaries leave it ----
 * An instrumented launch gets a cc_sc_launch (device memory) as userdata: the same sorted table
 * of live allocations as memcheck's (cc_mc_range) and, per table entry, one cc_sc_range_acc
 * (device memory, zeroed before the launch) where the global accesses that fall in that range
 * are folded with atomicMax: lowest and highest byte read, lowest and highest byte written. A
 * lowest byte is kept inverted (~address) so that zeroed memory means "none" and one atomicMax
 * serves both ends. Accesses in no range are only counted (the first one's address is kept). */
#define CC_PATCH_FN_SC_GLOBAL "cc_sc_global_access"

#define CC_SC_LAUNCH_MAGIC 0x4b435343u /* "CSCK" */

typedef struct cc_sc_range_acc {   /* per table entry, 32 bytes; all zero = not accessed */
    unsigned long long read_lo_inv;  /* ~(lowest byte read) */
    unsigned long long read_end;     /* highest byte read + 1 */
    unsigned long long write_lo_inv; /* ~(lowest byte written) */
    unsigned long long write_end;    /* highest byte written + 1 */
} cc_sc_range_acc;

typedef struct cc_sc_launch {      /* device memory; uploaded whole before each instrumented launch */
    uint32_t magic;                /* CC_SC_LAUNCH_MAGIC; cleared after the launch is drained */
    uint32_t reserved;
    uint64_t ntable;
    const cc_mc_range *table;      /* device pointer, sorted by base */
    cc_sc_range_acc *acc;          /* device pointer, ntable entries */
    unsigned long long outside;    /* accesses in no table range */
    unsigned long long outside_first; /* address of one of them (0 if none) */
} cc_sc_launch;

/* ---- run: launch progress marks for exact attribution of asynchronous errors ----
 * Every module is patched at its block entries and exits (cc_progress_block_enter/_exit); every
 * kernel function gets its context's cc_progress_hdr (device memory) as userdata. Slot =
 * gridid & mask. At entry, the first warp that finds entered[slot] (device memory) not yet
 * holding its grid id writes the grid id into started[slot] (pinned host memory). At exit, the
 * exiting threads of a warp add their number to their block's shard counter,
 * counts[shard * CC_PROGRESS_SLOTS + slot] with shard = linear block index % CC_PROGRESS_SHARDS
 * (device memory; shards spread the atomics of a large grid over many addresses); the warp that
 * completes a shard resets it and counts the shard in counts[CC_PROGRESS_SHARDS * SLOTS + slot],
 * and the warp that completes the last shard resets that and writes the grid id into done[slot]
 * (pinned host memory). Host memory stays readable after the context died: a launch whose grid
 * id is in `done` had every thread exit and cannot have faulted; one not in `started` never
 * ran. */
#define CC_PATCH_FN_PROGRESS_ENTER "cc_progress_block_enter"
#define CC_PATCH_FN_PROGRESS_EXIT "cc_progress_block_exit"

#define CC_PROGRESS_SLOTS (1u << 14) /* per context; a power of two */
#define CC_PROGRESS_SHARDS 32u       /* exit counters per grid */

typedef struct cc_progress_hdr {   /* device memory; uploaded once per context */
    unsigned long long *counts;    /* device pointer, (CC_PROGRESS_SHARDS + 1) * SLOTS counts */
    unsigned long long *entered;   /* device pointer, CC_PROGRESS_SLOTS grid ids */
    unsigned long long *done;      /* pinned host pointer, CC_PROGRESS_SLOTS grid ids */
    unsigned long long *started;   /* pinned host pointer, CC_PROGRESS_SLOTS grid ids */
    unsigned long long mask;       /* CC_PROGRESS_SLOTS - 1 */
    unsigned long long flags;      /* CC_PROGRESS_FLAG_* */
} cc_progress_hdr;

/* The started mark is followed by a system-scope fence, so that it has reached host memory
 * before the grid's later instructions can fault (CUCHECK_PROGRESS_FENCE=0: without). */
#define CC_PROGRESS_FLAG_FENCE_STARTED 0x1ull

/* ---- racecheck: hazards inside one launch found on the device, only pc pairs leave it ----
 * A checked launch gets a cc_rc_launch (device memory) as userdata. Per block (linear block id
 * below nblocks) a region of the launch's shared shadow (device memory, zeroed before the
 * launch): CC_RC_WARPS warp states (u32: barrier counts of the warp, below) and then one 64-bit
 * shadow word per 4-byte word of the block's shared window (region_words of them; offsets past
 * them are not checked). Global accesses go to the context's fixed-size direct-mapped table
 * (gtable, gmask + 1 entries of cc_rc_gentry, kept across launches, entries tagged with the
 * launch's tag; a colliding address evicts: misses, never false hazards). Shadow words and
 * entries change by compare-and-swap, so that accesses at the same moment see each other.
 * A hazard is folded by (first pc, second pc, kind) into one of CC_RC_MAX_SITES records
 * (pinned host memory). */
#define CC_PATCH_FN_RC_SHARED "cc_rc_shared_access"
#define CC_PATCH_FN_RC_REMOTE_SHARED "cc_rc_remote_shared_access" /* distributed shared memory */
#define CC_PATCH_FN_RC_GLOBAL "cc_rc_global_access"
#define CC_PATCH_FN_RC_BARRIER "cc_rc_barrier"                 /* __syncthreads, bar.sync */
#define CC_PATCH_FN_RC_SYNCWARP "cc_rc_syncwarp"               /* __syncwarp (after release) */
#define CC_PATCH_FN_RC_CLUSTER_WAIT "cc_rc_cluster_wait"       /* barrier.cluster.wait */
#define CC_PATCH_FN_RC_CUDA_BARRIER "cc_rc_cuda_barrier"       /* mbarrier: ordering not modelled */
/* CUCHECK_RC_PATCH=shadow-floor: one exchange per word into its shadow slot, nothing checked */
#define CC_PATCH_FN_RC_SHADOW_FLOOR_SHARED "cc_rc_shadow_floor_shared"
#define CC_PATCH_FN_RC_SHADOW_FLOOR_GLOBAL "cc_rc_shadow_floor_global"

#define CC_RC_LAUNCH_MAGIC 0x4b435243u /* "CRCK" */
#define CC_RC_MAX_SITES 64
#define CC_RC_WARPS 32                 /* warp states per block region (1024 threads) */
#define CC_RC_FLAG_SHARED 0x1u         /* shared shadow present (nblocks > 0) */
#define CC_RC_FLAG_GLOBAL 0x2u         /* global table present */
#define CC_RC_FLAG_NO_RECORD 0x4u      /* find hazards, record none (CUCHECK_RC_RECORD=off) */
#define CC_RC_FLAG_NO_VALUE 0x8u       /* record without reading the stored bytes (=no-value) */
#define CC_RC_FLAG_COUNT_ONLY 0x10u    /* claim and count records, write no sides (=count-only) */
#define CC_RC_FLAG_SPIN 0x20u          /* a hazard costs a 2 us wait, nothing recorded (=spin) */
#define CC_RC_FLAG_FULL_PATH 0x40u     /* every shared access takes the full path (=full-path) */
#define CC_RC_FLAG_SPIN_ALL 0x80u      /* every global access costs the wait (=spin-all) */
#define CC_RC_FLAG_SYS_FENCE 0x100u    /* a record is fenced at system scope (=sys-fence) */
#define CC_RC_FLAG_WRITE_CAS 0x200u    /* a global write loads and compares-and-swaps its entry
                                        * instead of one 128-bit exchange (=write-cas, sm_90) */

/* A warp's state (u32, written by the warp's lowest active lane only): */
#define CC_RC_WS_BAR_MASK 0xfffu       /* block barriers passed (mod 4096) */
#define CC_RC_WS_CLUSTER_SHIFT 12      /* cluster barriers passed (mod 16) */
#define CC_RC_WS_WARP_SHIFT 16         /* __syncwarp passed (mod 16) */
#define CC_RC_WS_UNMODELLED 0x80000000u /* passed a partial/named barrier or used an mbarrier:
                                        * its hazards are counted as suppressed, not reported */

/* A shadow word (shared) and the state word of a global entry, 64 bits:
 *   [0,12) block barrier count, [12,16) cluster barrier count, [16,20) __syncwarp count of the
 *   accessor's warp, [20,30) thread (linear, in its block), [30,34) the accessor's rank in its
 *   cluster (0 without clusters), [34,54) pc >> 4 (mod 2^20: 16 MiB of code), [54,58) the
 *   bytes of the word the access touched (accesses to different bytes never conflict), bit 61 written
 *   in this interval (the fields name the writer), bit 62 read (the fields name the last
 *   reader), bit 63 read by more than one thread. */
#define CC_RC_SH_TID_SHIFT 20
#define CC_RC_SH_RANK_SHIFT 30
#define CC_RC_SH_PC_SHIFT 34
#define CC_RC_SH_PC_BITS 20
#define CC_RC_SH_BYTES_SHIFT 54
#define CC_RC_SH_W (1ull << 61)
#define CC_RC_SH_R (1ull << 62)
#define CC_RC_SH_MR (1ull << 63)

/* Hazard kinds (same values as CC_RACE_* in cucheck/event.h). */
#define CC_RC_RAW 1u
#define CC_RC_WAR 2u
#define CC_RC_WAW 3u

/* Record flags (beyond CC_RACE_FLAG_* of cucheck/event.h, same low values). */
#define CC_RC_REC_SAME_VALUE 0x1u
#define CC_RC_REC_INTRA_WARP 0x2u
#define CC_RC_REC_CLUSTER 0x4u
#define CC_RC_REC_CROSS_BLOCK 0x100u   /* global, blocks differ: the host drops it when the
                                        * kernel has a fence after the first access's pc */

/* One global table entry, 16 bytes, 16-aligned, updated as one 128-bit compare-and-swap on
 * sm_90 and later, a write's as one 128-bit exchange (a 64-bit compare-and-swap of the state on
 * older GPUs, where an access that evicts another address's entry at the moment a third thread
 * reads it may leave a hazard unseen).
 * The table is direct-mapped: entry (address >> 2) & gmask; the key names the rest. */
typedef struct __attribute__((aligned(16))) cc_rc_gentry {
    unsigned long long key;     /* 0 = empty; else CC_RC_KEY_* fields below */
    unsigned long long state;   /* shadow word as above */
} cc_rc_gentry;
#define CC_RC_KEY_BLOCK_BITS 23 /* [0,23) linear block id of the accessor named by state */
#define CC_RC_KEY_TAG_SHIFT 23  /* [23,35) the launch's tag (cc_rc_launch.tag, 1..4095) */
#define CC_RC_KEY_TAG_MASK 0xfffull
#define CC_RC_KEY_ADDR_SHIFT 35 /* [35,64) address >> (2 + log2(gmask + 1)) */
#define CC_RC_TAG_MAX 0xfffu

typedef struct cc_rc_record {   /* host-visible; valid is written last */
    uint64_t pc[2];             /* first (from the shadow: pc >> 4 << 4, low bits of the pc
                                 * only, see CC_RC_SH_PC_BITS), second (exact) */
    uint64_t address;           /* global: device address; shared: window offset */
    uint32_t block[2];          /* linear block ids */
    uint32_t thread[2];         /* linear thread ids in their blocks */
    uint32_t size;              /* bytes of the second access */
    uint32_t access[2];         /* CC_PATCH_ACCESS_* of each side */
    uint32_t kind;              /* CC_RACE_RAW / WAR / WAW */
    uint32_t flags;             /* CC_RC_REC_* */
    uint32_t space;             /* CC_PATCH_SPACE_* */
    uint32_t valid;
} cc_rc_record;

typedef struct cc_rc_launch {   /* device memory; uploaded whole before each checked launch */
    uint32_t magic;
    uint32_t flags;             /* CC_RC_FLAG_* */
    uint32_t nblocks;           /* blocks with a region (linear id below it); others unchecked */
    uint32_t region_words;      /* shadow words per region */
    unsigned long long region_bytes; /* stride: CC_RC_WARPS * 4 + region_words * 8 */
    unsigned char *smem;        /* device: the launch's shared shadow (nblocks regions) */
    cc_rc_gentry *gtable;       /* device: the context's global table */
    uint32_t gmask;             /* global entries - 1 (a power of two) */
    uint32_t tag;               /* the launch's tag, 1..CC_RC_TAG_MAX */
    cc_rc_record *records;      /* pinned host memory, CC_RC_MAX_SITES of them */
    unsigned int overflow;      /* hazards that found no free record */
    unsigned int suppressed;    /* hazards in warps with unmodelled synchronization */
    unsigned int spin_cycles;   /* CC_RC_FLAG_SPIN(_ALL): the wait, in clock cycles */
    unsigned int spare;
    unsigned long long keys[CC_RC_MAX_SITES]; /* 0 = free */
    unsigned int counts[CC_RC_MAX_SITES];     /* hazards per record */
} cc_rc_launch;

/* ---- synccheck: misused synchronization found on the device, only (pc, kind) records leave it
 * A checked launch gets a cc_sy_launch (device memory) as userdata. Per block (linear block id
 * below nblocks) a cc_sy_block region of the launch's buffer (device memory, region_bytes: the
 * header and one cc_sy_warp per warp of the block): per warp the barrier of each of its last
 * two rounds (which also count its rounds; checked against the next warp's once the round
 * completed), its exited lanes and its warp synchronization in progress. Updated by each group's lowest
 * active lane: with plain block-scope loads and stores when the group is all of its warp's live
 * lanes, else with atomics (no locks); a misuse is folded by (pc, kind, flags) into one of
 * CC_SY_MAX_SITES records (pinned host memory). A region is zero when its block starts: zeroed
 * once when the buffer is new (or after a launch that did not clear every region), then cleared
 * by its block's last exit (`done`), so that a slot's next launch finds it zero. */
#define CC_PATCH_FN_SY_BARRIER "cc_sy_barrier"                 /* before bar.sync */
#define CC_PATCH_FN_SY_SYNCWARP "cc_sy_syncwarp"               /* before a warp sync */
#define CC_PATCH_FN_SY_SYNCWARP_RELEASE "cc_sy_syncwarp_release" /* after it released */
#define CC_PATCH_FN_SY_SHFL "cc_sy_shfl"                       /* before a shuffle */
#define CC_PATCH_FN_SY_BLOCK_EXIT "cc_sy_block_exit"           /* a thread's exit */
/* synccheck's floor (CUCHECK_SY_PATCH=floor) for the classes with (userdata, pc) patches. */
#define CC_PATCH_FN_FLOOR_PC "cc_floor_pc"

#define CC_SY_LAUNCH_MAGIC 0x4b435953u /* "SYCK" */
#define CC_SY_MAX_SITES 64
#define CC_SY_WARPS 32                 /* warps per block at most (1024 threads) */
#define CC_SY_SHFL_WINDOW 8u           /* a warp sync at most this many instructions (16 bytes)
                                        * before a shuffle is taken as the shuffle's own */

/* Kinds and flags: the same values as CC_SYNC_* and CC_SYNC_FLAG_* of cucheck/event.h. */
#define CC_SY_WARP_DIVERGENT 1u
#define CC_SY_BLOCK_DIVERGENT 2u
#define CC_SY_AFTER_EXIT 3u
#define CC_SY_SYNCWARP_MASK 4u
#define CC_SY_SHFL_MASK 5u
#define CC_SY_F_NOT_IN_MASK 0x1u
#define CC_SY_F_NO_THREAD 0x2u
#define CC_SY_F_EXITED 0x4u
#define CC_SY_F_EXIT_WAITED 0x8u
#define CC_SY_F_MASK_UNKNOWN 0x10u

typedef struct cc_sy_warp {      /* 64 bytes; what a barrier reads is in its first 32 */
    /* The barrier of the warp's round r (0, 1, ...) in slot[r & 1]: (r + 1) << 32 | (pc >> 4)
     * (low 32 bits); 0 = none yet. The warp's rounds passed are the larger tag of the two.
     * Written before the barrier, read by the previous warp (cyclically) after it: the block's
     * barrier holds the warps within one round of each other, so two slots suffice. */
    unsigned long long slot[2];
    unsigned int exited;         /* the warp's lanes that exited */
    unsigned int arrived;        /* unaligned barrier: lanes arrived in the current round */
    unsigned int sw_wait;        /* lanes waiting in a warp sync (set before it, cleared after) */
    unsigned int sw_mask;        /* the masks they wait on, together */
    unsigned int sw_pc;          /* pc >> 4 (low 32 bits) of the warp's last warp sync */
    unsigned int sw_bad;         /* CC_SY_F_* found on it so far (a shuffle after it takes them) */
    unsigned int sw_bad_lanes;   /* the lanes at fault */
    unsigned int sw_last_mask;   /* the mask of the warp's last warp sync */
    unsigned int reserved[4];
} cc_sy_warp;

typedef struct cc_sy_block {     /* one block's region: zero when the block starts */
    unsigned int done;           /* threads whose exit was handled: the last clears the region */
    unsigned int reserved[7];    /* so that each warp's first 32 bytes are one sector */
    cc_sy_warp warps[CC_SY_WARPS]; /* the block's warps: a region holds only those */
} cc_sy_block;

/* The bytes of a region for a block of `nwarps` warps (a multiple of 32). */
#define CC_SY_REGION_BYTES(nwarps) (32u + 64u * (unsigned)(nwarps))

typedef struct cc_sy_record {    /* host-visible; valid is written last */
    uint64_t pc;                 /* exact */
    uint64_t other_pc;           /* block_divergent: the other barrier (low 36 bits, see round) */
    uint32_t kind;               /* CC_SY_* */
    uint32_t flags;              /* CC_SY_F_* */
    uint32_t block;              /* linear block id */
    uint32_t thread;             /* linear thread id in the block */
    uint32_t other_thread;       /* block_divergent: a thread at the other barrier */
    uint32_t mask;               /* the mask, or the lanes that took part */
    uint32_t lanes;              /* the lanes at fault */
    uint32_t exited;             /* after_exit: threads of the block that had exited */
    uint32_t valid;
    uint32_t reserved;
} cc_sy_record;

typedef struct cc_sy_launch {    /* device memory; uploaded whole before each checked launch */
    uint32_t magic;
    uint32_t nblocks;            /* blocks with a region (linear id below it); others unchecked */
    cc_sy_block *blocks;         /* device: nblocks regions of region_bytes each */
    cc_sy_record *records;       /* pinned host memory, CC_SY_MAX_SITES of them */
    unsigned int overflow;       /* misuses that found no free record */
    unsigned int unmodelled;     /* named or partial barriers passed (not checked) */
    unsigned int cleaned;        /* blocks whose last exit cleared their region */
    unsigned int region_bytes;   /* CC_SY_REGION_BYTES(warps per block) */
    unsigned long long keys[CC_SY_MAX_SITES]; /* 0 = free, else (pc >> 4) << 16 | flags << 4 | kind */
    unsigned int counts[CC_SY_MAX_SITES];     /* occurrences per record */
} cc_sy_launch;

/* ---- initcheck: uninitialised global reads found on the device ----
 * A checked launch gets a cc_ic_launch (device memory) as userdata: the uninitialised byte
 * ranges of its context's device allocations (sorted, disjoint, binary-searched) and a write
 * bitmap over those ranges only (one bit per byte; each range's bits start at a 32-bit word).
 * A global write sets its bits (and marks its range dirty); a global read of a byte in a range
 * whose bit is clear is folded by pc into one of CC_IC_MAX_SITES records (pinned host memory).
 * After the launch the agent reads the dirty ranges' bits back as INIT_WRITE ranges. An access
 * outside [lo, hi), the span of all ranges, returns after one compare. */
#define CC_PATCH_FN_IC_GLOBAL "cc_ic_global_access"
#define CC_IC_LAUNCH_MAGIC 0x4b434943u /* "CICK" */
#define CC_IC_MAX_SITES 64

typedef struct cc_ic_range {   /* device memory, 32 bytes */
    uint64_t lo, hi;           /* [lo, hi): uninitialised when the launch began */
    uint64_t bit;              /* its first bit in the bitmap (a multiple of 32) */
    uint32_t dirty;            /* set by the first write into it */
    uint32_t reserved;
} cc_ic_range;

typedef struct cc_ic_record {  /* host-visible; valid written last */
    uint64_t pc;
    uint64_t address;          /* the access */
    uint64_t first;            /* its first uninitialised byte */
    uint32_t size;
    uint32_t valid;
    uint32_t block[3];
    uint32_t thread[3];
} cc_ic_record;

typedef struct cc_ic_launch {  /* device memory; uploaded before each checked launch */
    uint32_t magic;            /* CC_IC_LAUNCH_MAGIC */
    uint32_t reserved0;
    uint64_t lo, hi;           /* span of the ranges (lo == hi: none) */
    uint64_t nranges;
    cc_ic_range *ranges;       /* device memory, sorted */
    uint32_t *bits;            /* device memory, zeroed per launch */
    cc_ic_record *records;     /* pinned host memory, CC_IC_MAX_SITES of them */
    unsigned int overflow;     /* reads that found no free record */
    unsigned int reserved1;
    unsigned long long keys[CC_IC_MAX_SITES]; /* 0 = free, else pc + 1 */
    unsigned int counts[CC_IC_MAX_SITES];
} cc_ic_launch;

#endif
