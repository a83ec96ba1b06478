/* What racecheck reads from a kernel's cubin: where its static shared memory ends in the window
 * (the size of the .nv.shared.<kernel> section) and the memory fences of its code (MEMBAR instructions of
 * .text.<kernel>; the Sanitizer cannot patch fences, so a global hazard between blocks is taken
 * as ordered when the kernel fences after the first access). Header-only, no CUDA headers, so
 * that tests/unit/test_rc_cubin_nvcc.c checks it on cubins nvcc builds at test time. */
#ifndef CUCHECK_AGENT_TOOLS_RACECHECK_RC_CUBIN_H
#define CUCHECK_AGENT_TOOLS_RACECHECK_RC_CUBIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "symbols/elf.h"

/* sm_75 and later: 16-byte instructions, the opcode in the low 12 bits of the first 8 bytes
 * (MEMBAR is 0x992 on sm_75 to sm_120: read from nvcc's output for __threadfence()). */
#define CC_RC_SASS_INSN 16u
#define CC_RC_OPCODE_MASK 0xfffu
#define CC_RC_OPCODE_MEMBAR 0x992u

/* The section `prefix``kernel` of the cubin; 1 if found. */
static inline int cc_rc_cubin_section(const void *cubin, size_t size, const char *prefix,
                                      const char *kernel, cc_elf_section *out)
{
    if (cubin == NULL || kernel == NULL || kernel[0] == '\0') {
        return 0;
    }
    cc_elf elf;
    char err[128];
    if (cc_elf_open(&elf, cubin, size, err, sizeof err) != 0) {
        return 0;
    }
    char name[4096];
    int n = snprintf(name, sizeof name, "%s%s", prefix, kernel);
    if (n < 0 || (size_t)n >= sizeof name) {
        return 0;
    }
    return cc_elf_section_by_name(&elf, name, out) == 0;
}

/* Where the static shared memory of `kernel` (mangled) ends in the block's window: the size of
 * its .nv.shared.<kernel> section, which on sm_90 and later counts the system's first 1 KiB
 * too; 0 if it has none (or the cubin is unreadable). */
static inline uint64_t cc_rc_static_shared(const void *cubin, size_t size, const char *kernel)
{
    cc_elf_section s;
    return cc_rc_cubin_section(cubin, size, ".nv.shared.", kernel, &s) ? s.size : 0;
}

/* 1 if the code of `kernel` has a memory fence after byte offset `pc` (from its first
 * instruction), 0 if not, -1 if its code was not found. */
static inline int cc_rc_fence_after(const void *cubin, size_t size, const char *kernel,
                                    uint64_t pc)
{
    cc_elf_section s;
    if (!cc_rc_cubin_section(cubin, size, ".text.", kernel, &s) || s.data == NULL) {
        return -1;
    }
    for (uint64_t off = (pc / CC_RC_SASS_INSN + 1) * CC_RC_SASS_INSN;
         off + CC_RC_SASS_INSN <= s.size; off += CC_RC_SASS_INSN) {
        if ((cc_le64(s.data + off) & CC_RC_OPCODE_MASK) == CC_RC_OPCODE_MEMBAR) {
            return 1;
        }
    }
    return 0;
}

#endif
