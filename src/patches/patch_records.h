/* The layout shared by the device patch code (cucheck_patches.cu) and the agent: the per-launch
 * buffer a launch's patches write into (passed to them as `userdata`) and the names of the patch
 * functions the agent hands to sanitizerPatchInstructions. Plain C, valid in CUDA C++ too. */
#ifndef CUCHECK_PATCHES_PATCH_RECORDS_H
#define CUCHECK_PATCHES_PATCH_RECORDS_H

#include <stdint.h>

/* Patch function names (extern "C" in cucheck_patches.cu). */
#define CC_PATCH_FN_GLOBAL_ACCESS "cc_patch_global_access"
#define CC_PATCH_FN_SHARED_ACCESS "cc_patch_shared_access"
#define CC_PATCH_FN_LOCAL_ACCESS "cc_patch_local_access"

#define CC_PATCH_BUFFER_MAGIC 0x43435042u /* "BPCC": set by the host, checked by every patch */

/* Memory spaces of a recorded access (same values as cc_mem_space in cucheck/finding.h). */
#define CC_PATCH_SPACE_GLOBAL 1u
#define CC_PATCH_SPACE_SHARED 2u
#define CC_PATCH_SPACE_LOCAL 3u

/* Access flags: the Compute Sanitizer device flags, unchanged. READ|WRITE together = atomic. */
#define CC_PATCH_ACCESS_READ 0x1u
#define CC_PATCH_ACCESS_WRITE 0x2u
#define CC_PATCH_ACCESS_ATOMSYS 0x4u
#define CC_PATCH_ACCESS_PREFETCH 0x8u

/* One recorded access, 48 bytes. For shared and local memory `address` is the offset in the
 * window, as the Sanitizer API reports it. */
typedef struct cc_patch_access {
    uint64_t pc;        /* device pc of the instruction */
    uint64_t address;
    uint32_t size;      /* bytes: 1, 2, 4, 8 or 16 */
    uint16_t flags;     /* CC_PATCH_ACCESS_* */
    uint16_t space;     /* CC_PATCH_SPACE_* */
    uint32_t thread[3]; /* threadIdx */
    uint32_t block[3];  /* blockIdx */
} cc_patch_access;

/* Per-launch header followed by `capacity` records. The host fills magic, capacity, launch_id and
 * zeroes count before the launch; patches claim slots with an atomic add on count. After the
 * launch, min(count, capacity) records are valid and count - capacity accesses were dropped. */
typedef struct cc_patch_launch_buffer {
    uint32_t magic;
    uint32_t capacity;
    uint64_t launch_id;           /* the agent's launch id (cc_ev_launch.launch_id) */
    unsigned long long count;     /* accesses seen, including dropped ones */
    uint64_t reserved;            /* keeps the records 16-byte aligned */
    /* cc_patch_access records follow */
} cc_patch_launch_buffer;

#define CC_PATCH_BUFFER_BYTES(capacity) \
    (sizeof(cc_patch_launch_buffer) + (uint64_t)(capacity) * sizeof(cc_patch_access))

#endif
