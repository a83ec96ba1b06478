/* What memcheck's device checks need to know about a kernel from its cubin, without CUDA: the
 * shared window (system-reserved bytes at its start, then the static shared memory; the dynamic
 * part is read on the device), the stack frame and the local window it gives, and whether the module calls the device heap
 * (malloc/free), whose launches must all run checked so that the heap table sees every block.
 * Used by the agent (src/agent/tools/memcheck/mc_windows.c) and tested on nvcc-built cubins. */
#ifndef CUCHECK_TOOLS_MEMCHECK_WINDOWS_H
#define CUCHECK_TOOLS_MEMCHECK_WINDOWS_H

#include <stddef.h>
#include <stdint.h>
#include "patches/patch_records.h"

typedef struct cc_mc_kernel_windows {
    uint32_t smem_lo;      /* first shared byte the program owns (1024 on sm_90+, else 0) */
    uint32_t smem_static;  /* static shared bytes from smem_lo on */
    uint32_t frame_bytes;  /* EIATTR_FRAME_SIZE: the kernel's own stack frame per thread */
    uint32_t stack_bytes;  /* EIATTR_MIN/MAX_STACK_SIZE: its frame and its callees' (0: none) */
    uint32_t arch;         /* 90 for sm_90 */
} cc_mc_kernel_windows;

/* The windows of one kernel (mangled name). 1 found, 0 no such kernel, -1 malformed (err). */
int cc_mc_kernel_windows_of(const void *cubin, size_t size, const char *kernel,
                            cc_mc_kernel_windows *out, char *err, size_t errlen);

/* The local window of a thread: LOCAL_MEMORY_ACCESS offsets lie in [0, 16 MiB), the stack grows
 * down from an initial stack pointer under the end, and the thread may use as much stack as
 * the larger of its kernel's need (frame and callees) and the context's stack limit
 * (CU_LIMIT_STACK_SIZE): the driver raises the limit to the kernel's need at the launch, and
 * the kernel's own frame counts in it. Measured on the H200 (sm_90, driver 580): natively the
 * pointer started 576 bytes under the end, the lowest offset that did not fault was exactly
 * pointer - max(need, limit) (frames of 64 bytes and 8 KiB, limits of 1, 4 and 64 KiB, SASS and
 * JIT alike) and the end faulted; under the patches the pointer starts lower, by an amount
 * that depends on the kernel and on the whole patch module (the Sanitizer's frame for the
 * patch calls), and a patch cannot read it: 1,024 bytes under the end (0xfffc00) for small
 * frames, 1,920 for a 48-register kernel with an 8 KiB frame, and 2,096 for that kernel once
 * synccheck's patches grew by 40 bytes of chain (2026-11-26: 48 bytes past a bottom that
 * assumed 2,048, a false report on mc_local_big_clean). So the end is
 * CC_MC_LOCAL_WINDOW_END (up to CC_MC_LOCAL_TOP_RESERVE bytes above a thread's frames are not
 * checked) and the bottom keeps CC_MC_LOCAL_BOTTOM_SLACK bytes of slack: about 2 KiB over the
 * largest start measured, for kernels and patch modules that move it further down. */
#define CC_MC_LOCAL_TOP_RESERVE 1024u
#define CC_MC_LOCAL_BOTTOM_SLACK 3072u

typedef struct cc_mc_local_window {
    uint32_t lo;   /* lowest offset a thread may touch (0: the bottom is not checked) */
    uint32_t end;  /* offsets at or past it are outside (CC_MC_LOCAL_WINDOW_END, or the top the
                    * user gave) */
} cc_mc_local_window;

/* The window for a kernel needing kernel_stack bytes of stack (frame and callees) under a stack
 * limit of stack_limit bytes: lo = end of window - CC_MC_LOCAL_TOP_RESERVE -
 * CC_MC_LOCAL_BOTTOM_SLACK - max(kernel_stack, stack_limit). Either UINT64_MAX (unknown) or
 * larger than the window leaves the bottom unchecked. top: the end the user set
 * (CUCHECK_MC_LOCAL_TOP), 0 for CC_MC_LOCAL_WINDOW_END. */
cc_mc_local_window cc_mc_local_window_of(uint64_t kernel_stack, uint64_t stack_limit,
                                         uint32_t top);

/* 1 if the cubin calls device-side malloc, aligned malloc or free (an undefined function symbol
 * malloc, free or __cuda_syscall_*malloc* / *free*), 0 if not, -1 if it is no valid ELF. */
int cc_mc_cubin_uses_device_heap(const void *cubin, size_t size);

#endif
