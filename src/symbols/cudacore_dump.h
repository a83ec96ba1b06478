/* Reading a GPU core dump (the ELF file the CUDA driver writes on a device exception when core
 * dumps are enabled, e.g. CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1): which grid faulted, in which
 * block, thread and warp, with which exception and at which PC. The dump's .cudbg.* sections are
 * tables of fixed-size rows (sh_entsize; newer drivers may append fields, older rows may be
 * shorter: missing fields read as 0) chained by sh_link (the parent table's section) and sh_info
 * (the row in it): device <- SM <- CTA (block) <- warp <- lane, device <- grid, context <- module
 * <- relocated ELF image. Everything is bounds-checked; nothing is copied (pointers point into
 * the caller's buffer). The layout is documented in docs/agent.md ("GPU core dump"). */
#ifndef CUCHECK_SYMBOLS_CUDACORE_DUMP_H
#define CUCHECK_SYMBOLS_CUDACORE_DUMP_H

#include <stddef.h>
#include <stdint.h>

/* Section types of the dump (SHT_LOUSER + n). */
#define CC_CUDBG_SHT_BASE 0x80000000u
#define CC_CUDBG_SHT_ELF_IMG (CC_CUDBG_SHT_BASE + 6)
#define CC_CUDBG_SHT_RELF_IMG (CC_CUDBG_SHT_BASE + 7)
#define CC_CUDBG_SHT_DEV_TABLE (CC_CUDBG_SHT_BASE + 9)
#define CC_CUDBG_SHT_CTX_TABLE (CC_CUDBG_SHT_BASE + 10)
#define CC_CUDBG_SHT_SM_TABLE (CC_CUDBG_SHT_BASE + 11)
#define CC_CUDBG_SHT_GRID_TABLE (CC_CUDBG_SHT_BASE + 12)
#define CC_CUDBG_SHT_CTA_TABLE (CC_CUDBG_SHT_BASE + 13)
#define CC_CUDBG_SHT_WP_TABLE (CC_CUDBG_SHT_BASE + 14)
#define CC_CUDBG_SHT_LN_TABLE (CC_CUDBG_SHT_BASE + 15)
#define CC_CUDBG_SHT_MOD_TABLE (CC_CUDBG_SHT_BASE + 16)

/* Byte offsets of the fields read from each row kind (rows may be longer). */
#define CC_CUDBG_DEV_ID 24u           /* u32 devId */
#define CC_CUDBG_GRID_ID 0u           /* u64 gridId64 */
#define CC_CUDBG_GRID_CONTEXT 8u      /* u64 contextId */
#define CC_CUDBG_GRID_FUNCTION 16u    /* u64 function */
#define CC_CUDBG_GRID_ENTRY 24u       /* u64 functionEntry (device address) */
#define CC_CUDBG_GRID_MODULE 32u      /* u64 moduleHandle */
#define CC_CUDBG_GRID_DIM 72u         /* u32 x3 gridDim, then u32 x3 blockDim at 84 */
#define CC_CUDBG_GRID_BLOCKDIM 84u
#define CC_CUDBG_GRID_HOST_TID 100u   /* u32 attrHostTid */
#define CC_CUDBG_SM_ID 0u             /* u32 smId */
#define CC_CUDBG_CTA_GRID 0u          /* u64 gridId64 */
#define CC_CUDBG_CTA_BLOCK 8u         /* u32 x3 blockIdx */
#define CC_CUDBG_WP_ERROR_PC 0u       /* u64 errorPC */
#define CC_CUDBG_WP_ID 8u             /* u32 warpId */
#define CC_CUDBG_WP_VALID_LANES 12u   /* u32 validLanesMask */
#define CC_CUDBG_WP_BROKEN 20u        /* u32 isWarpBroken */
#define CC_CUDBG_WP_ERROR_PC_VALID 24u /* u32 errorPCValid */
#define CC_CUDBG_LN_PC 0u             /* u64 virtualPC */
#define CC_CUDBG_LN_ID 16u            /* u32 ln (lane index) */
#define CC_CUDBG_LN_THREAD 20u        /* u32 x3 threadIdx */
#define CC_CUDBG_LN_EXCEPTION 32u     /* u32 exception (CUDBGException_t) */
#define CC_CUDBG_MOD_HANDLE 0u        /* u64 moduleHandle */

/* What the dump says about the (first) faulting thread. */
typedef struct cc_cudacore_fault {
    uint32_t device;          /* devId of the device table */
    uint32_t sm, warp, lane;  /* lane: UINT32_MAX when only the warp is known */
    uint64_t grid_id;         /* the grid's 64-bit id (as the launch reported it) */
    uint32_t block[3], thread[3];
    uint32_t exception;       /* CUDBGException_t: 0 none (warp-level only), else the code */
    uint64_t pc;              /* device address of the faulting instruction */
    int pc_valid;             /* 1 if pc is the warp's error PC or the lane's PC */
    uint32_t faulting_lanes;  /* lanes with an exception in the dump */
    uint32_t faulting_warps;  /* warps with an error PC or an exception */
    /* From the grid table (grid_found = 1 when the grid id was found there). */
    int grid_found;
    uint64_t context, function, function_entry, module;
    uint32_t grid_dim[3], block_dim[3];
    uint32_t host_tid;        /* host thread that launched the grid (0 if not recorded) */
    /* The relocated ELF image of the grid's module (NULL if the dump does not hold it). */
    const unsigned char *image;
    size_t image_size;
} cc_cudacore_fault;

/* 1 if data looks like a GPU core dump (ELF with the CUDA OS ABI and a device table). */
int cc_cudacore_is_dump(const void *data, size_t size);

/* Parse the dump. 1: a faulting warp was found and *out filled; 0: a valid dump with no warp
 * that faulted (err says so); -1: malformed (err says where). */
int cc_cudacore_parse(const void *data, size_t size, cc_cudacore_fault *out, char *err,
                      size_t errlen);

/* "Warp - Illegal address" style text for an exception code; "unknown exception" if unknown. */
const char *cc_cudacore_exception_name(uint32_t code);

/* Kernel name, pc offset and source line of the fault, from the relocated ELF image in the dump
 * (-lineinfo or -G needed for the line). kernel gets "" if no symbol covers the entry; file
 * points into the dump ("" and line 0 without line information). Returns 1 if a line was
 * found, 0 otherwise. */
int cc_cudacore_locate(const cc_cudacore_fault *f, char *kernel, size_t kernel_len,
                       uint64_t *pc_offset, const char **file, uint32_t *line);

#endif
