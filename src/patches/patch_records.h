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

#define CC_MC_LAUNCH_MAGIC 0x4b434d43u /* "CMCK" */
#define CC_MC_MAX_SITES 64
#define CC_MC_SAMPLES 4
#define CC_MC_FLAG_STOP 0x1u           /* the faulty warp exits before the invalid access */

/* Violations (same values as CC_VIOLATION_* in cucheck/event.h). */
#define CC_MC_VIOL_OUT_OF_BOUNDS 1u
#define CC_MC_VIOL_MISALIGNED 2u
#define CC_MC_VIOL_WINDOW 3u

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
    uint32_t magic;
    uint32_t flags;           /* CC_MC_FLAG_* */
    uint64_t ntable;
    const cc_mc_range *table; /* device pointer, sorted by base */
    cc_mc_site *sites;        /* pinned host memory, CC_MC_MAX_SITES of them */
    unsigned int overflow;    /* violations that found no free site */
    unsigned int reserved;
    unsigned long long keys[CC_MC_MAX_SITES]; /* 0 = free, else pc * 4 + violation */
    unsigned int counts[CC_MC_MAX_SITES];     /* threads per site */
} cc_mc_launch;

#endif
