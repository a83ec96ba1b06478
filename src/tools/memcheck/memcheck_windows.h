/* What memcheck's device checks need to know about a kernel from its cubin, without CUDA: the
 * shared window (system-reserved bytes at its start, then the static shared memory; the dynamic
 * part is read on the device), the stack frame, and whether the module calls the device heap
 * (malloc/free), whose launches must all run checked so that the heap table sees every block.
 * Used by the agent (src/agent/tools/memcheck/mc_windows.c) and tested on nvcc-built cubins. */
#ifndef CUCHECK_TOOLS_MEMCHECK_WINDOWS_H
#define CUCHECK_TOOLS_MEMCHECK_WINDOWS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_mc_kernel_windows {
    uint32_t smem_lo;      /* first shared byte the program owns (1024 on sm_90+, else 0) */
    uint32_t smem_static;  /* static shared bytes from smem_lo on */
    uint32_t frame_bytes;  /* EIATTR_FRAME_SIZE: the kernel's own stack frame per thread */
    uint32_t arch;         /* 90 for sm_90 */
} cc_mc_kernel_windows;

/* The windows of one kernel (mangled name). 1 found, 0 no such kernel, -1 malformed (err). */
int cc_mc_kernel_windows_of(const void *cubin, size_t size, const char *kernel,
                            cc_mc_kernel_windows *out, char *err, size_t errlen);

/* 1 if the cubin calls device-side malloc, aligned malloc or free (an undefined function symbol
 * malloc, free or __cuda_syscall_*malloc* / *free*), 0 if not, -1 if it is no valid ELF. */
int cc_mc_cubin_uses_device_heap(const void *cubin, size_t size);

#endif
