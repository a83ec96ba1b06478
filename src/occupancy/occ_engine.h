/* Occupancy engine: a C reimplementation of the algorithm of the CUDA toolkit's cuda_occupancy.h
 * (CUDA 13.0), bit-exact in every integer, limiting-factor bit and error code (see
 * shared/research/occupancy_spec.md and docs/occupancy.md). Pure C, no CUDA dependency. */
#ifndef CUCHECK_OCCUPANCY_OCC_ENGINE_H
#define CUCHECK_OCCUPANCY_OCC_ENGINE_H

#include <stddef.h>

typedef enum {
    CC_OCC_OK = 0,
    CC_OCC_ERR_INVALID_INPUT = 1,
    CC_OCC_ERR_UNKNOWN_DEVICE = 2
} cc_occ_status;

/* The device, as cudaDeviceProp / cuDeviceGetAttribute describe it. */
typedef struct {
    int major, minor;
    int max_threads_per_block;
    int max_threads_per_sm;
    int regs_per_block;
    int regs_per_sm;
    int warp_size;
    size_t smem_per_block;          /* default per-block cap (48 KiB) */
    size_t smem_per_sm;
    int num_sms;
    size_t smem_per_block_optin;
    size_t reserved_smem_per_block; /* 1 KiB from sm_80 on */
} cc_occ_device;

typedef enum { CC_OCC_GC_OFF = 0, CC_OCC_GC_ON = 1, CC_OCC_GC_ON_STRICT = 2 } cc_occ_gc;
typedef enum { CC_OCC_SMEM_LIMIT_DEFAULT = 0, CC_OCC_SMEM_LIMIT_OPTIN = 1 } cc_occ_smem_limit;

/* The kernel. */
typedef struct {
    int max_threads_per_block;   /* __launch_bounds__ max threads; must be > 0 */
    int num_regs;                /* registers per thread */
    size_t static_smem;          /* static shared memory, bytes */
    cc_occ_gc gc;                /* partitioned global caching request */
    cc_occ_smem_limit smem_limit;
    size_t max_dyn_smem;         /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    int num_barriers;            /* used from CC 9 on only */
    int virtual_resources;       /* used on CC 10..12 only */
} cc_occ_func;

typedef enum {
    CC_OCC_CACHE_NONE = 0, CC_OCC_CACHE_SHARED = 1, CC_OCC_CACHE_L1 = 2, CC_OCC_CACHE_EQUAL = 3
} cc_occ_cache;

/* Launch state: carveout percent, -1 = default (0 = max L1, 100 = max shared). */
typedef struct {
    cc_occ_cache cache;
    int carveout;
} cc_occ_state;

enum {
    CC_OCC_LIMIT_WARPS = 0x01,
    CC_OCC_LIMIT_REGISTERS = 0x02,
    CC_OCC_LIMIT_SHARED_MEMORY = 0x04,
    CC_OCC_LIMIT_BLOCKS = 0x08,
    CC_OCC_LIMIT_BARRIERS = 0x10,
    CC_OCC_LIMIT_VIRTUAL = 0x20
};

#define CC_OCC_UNLIMITED 2147483647

typedef struct {
    int blocks_per_sm;
    unsigned limiting;            /* CC_OCC_LIMIT_* bits, as the header sets them */
    int lim_regs, lim_smem, lim_warps, lim_blocks, lim_barriers, lim_virtual; /* UNLIMITED = none */
    int alloc_regs_per_block;
    size_t alloc_smem_per_block;
    cc_occ_gc gc;                 /* after automatic switch-off */
} cc_occ_result;

/* Runtime-style kernel attributes (what the C++ constructor from cudaFuncAttributes builds):
 * opt-in shared-memory limit, one barrier; max_dyn = 0 means "48 KiB minus static". */
void cc_occ_func_runtime(cc_occ_func *f, int max_threads, int regs, size_t static_smem,
                         size_t max_dyn_smem, size_t default_smem_per_block);
/* Default launch state: no cache preference, carveout -1. */
cc_occ_state cc_occ_state_default(void);

/* = cudaOccMaxActiveBlocksPerMultiprocessor. A result of 0 blocks is CC_OCC_OK. */
cc_occ_status cc_occ_max_active_blocks(cc_occ_result *r, const cc_occ_device *d,
                                       const cc_occ_func *f, const cc_occ_state *s,
                                       int block_size, size_t dyn_smem);

/* = cudaOccMaxPotentialOccupancyBlockSize. dyn_of_block_size may be NULL (then dyn_smem is used). */
typedef size_t (*cc_occ_dyn_fn)(int block_size, void *ctx);
cc_occ_status cc_occ_max_potential_block_size(int *min_grid, int *block_size,
                                              const cc_occ_device *d, const cc_occ_func *f,
                                              const cc_occ_state *s, cc_occ_dyn_fn dyn_of_block_size,
                                              void *ctx, size_t dyn_smem);

/* = cudaOccAvailableDynamicSMemPerBlock (including its 1 KiB over-estimate on CC >= 8, see docs). */
cc_occ_status cc_occ_available_dyn_smem(size_t *bytes, const cc_occ_device *d,
                                        const cc_occ_func *f, const cc_occ_state *s,
                                        int num_blocks, int block_size);

/* Per-architecture rules hard-coded in the header (keyed on major/minor only). */
cc_occ_status cc_occ_smem_granularity(const cc_occ_device *d, int *bytes);
cc_occ_status cc_occ_max_regs_per_thread(const cc_occ_device *d, int *regs);
cc_occ_status cc_occ_sub_partitions(const cc_occ_device *d, int *n);
cc_occ_status cc_occ_max_blocks_per_sm(const cc_occ_device *d, int *n);
cc_occ_status cc_occ_barriers_per_sm(const cc_occ_device *d, int *n); /* 0 before CC 9 */
int cc_occ_virtual_resources_per_sm(const cc_occ_device *d);
int cc_occ_gc_supported(const cc_occ_device *d);
/* The shared-memory carveout configurations in bytes (ascending); count 0 if none (dedicated). */
int cc_occ_smem_configs(const cc_occ_device *d, size_t *out, int max_out);
/* Rounds size up to a carveout configuration (alignUpToConfig). */
cc_occ_status cc_occ_align_up_to_config(const cc_occ_device *d, size_t size, size_t *out);
/* Shared memory per SM the header assumes for this launch state (the carveout preference). */
cc_occ_status cc_occ_smem_preference(const cc_occ_device *d, const cc_occ_state *s, size_t *out);
/* Per-block shared-memory cap for this attribute set (includes the reserved 1 KiB on CC >= 8). */
cc_occ_status cc_occ_smem_per_block_limit(const cc_occ_device *d, cc_occ_smem_limit cfg,
                                          size_t smem_per_cta, size_t *out);

const char *cc_occ_status_str(cc_occ_status st);

#endif
