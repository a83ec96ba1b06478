/* What racecheck reads from a kernel's cubin: where its static shared memory ends in the window
 * (the size of the .nv.shared.<kernel> section), the memory fences of its code (MEMBAR instructions of
 * .text.<kernel>; the Sanitizer cannot patch fences, so a global hazard between blocks is taken
 * as ordered when the kernel fences after the first access), and whether a global access is a
 * strong one (volatile, relaxed, acquire or release: .STRONG.GPU/.SYS/.SM in SASS; the
 * Sanitizer's access flags do not say): strong accesses of a scope that holds both threads do
 * not race with each other (PTX memory model: morally strong), as a flag or a look-back tile
 * status written and polled with them. Header-only, no CUDA headers, so that
 * tests/unit/test_rc_cubin_nvcc.c checks it on cubins nvcc builds at test time. */
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

/* Generic and global loads and stores (LD, LDG, ST, STG) by the low 9 bits of their opcode (bits
 * 9..11 tell the address form apart: LDG is 0x381 and 0x981), and their ordering field: bits
 * 13..16 of the instruction's second 8 bytes. Read from nvcc's output for weak, volatile,
 * .relaxed/.acquire/.release at .cta, .gpu and .sys scope and .nc accesses on sm_75 to sm_120
 * (tests/unit/test_rc_cubin_nvcc.c checks it): from sm_80 on 5 = .STRONG.SM, 7 = .STRONG.GPU,
 * 10 = .STRONG.SYS (0 weak, 4 .CONSTANT); on sm_75 8 = .STRONG.CTA, 10 = .STRONG.GPU, 11 =
 * .STRONG.SYS (7 weak, 3 .CONSTANT). */
#define CC_RC_LDST_MASK 0x1ffu
#define CC_RC_OPCODE_LD 0x180u
#define CC_RC_OPCODE_LDG 0x181u
#define CC_RC_OPCODE_ST 0x185u
#define CC_RC_OPCODE_STG 0x186u

/* How a global access orders memory. */
typedef enum cc_rc_order {
    CC_RC_ORDER_UNKNOWN = -1, /* code not found, not a load or store, or an unread architecture */
    CC_RC_ORDER_WEAK = 0,     /* a plain (or .nc) access: it races */
    CC_RC_ORDER_STRONG_BLOCK = 1, /* strong at block (CTA) scope */
    CC_RC_ORDER_STRONG_GPU = 2    /* strong at GPU or system scope */
} cc_rc_order;

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

/* How the load or store at byte offset `pc` of `kernel`'s code orders memory. */
static inline cc_rc_order cc_rc_access_order(const void *cubin, size_t size, const char *kernel,
                                             uint64_t pc)
{
    cc_elf elf;
    char err[128];
    cc_elf_section s;
    if (cubin == NULL || cc_elf_open(&elf, cubin, size, err, sizeof err) != 0 ||
        !cc_rc_cubin_section(cubin, size, ".text.", kernel, &s) || s.data == NULL ||
        pc % CC_RC_SASS_INSN != 0 || pc > s.size || s.size - pc < CC_RC_SASS_INSN) {
        return CC_RC_ORDER_UNKNOWN;
    }
    unsigned sm = elf.abiversion >= 8 ? (elf.flags >> 8) & 0xffu : elf.flags & 0xffu;
    uint64_t lo = cc_le64(s.data + pc), hi = cc_le64(s.data + pc + 8);
    unsigned op = (unsigned)(lo & CC_RC_LDST_MASK), sem = (unsigned)(hi >> 13) & 0xfu;
    int ldst = op == CC_RC_OPCODE_LD || op == CC_RC_OPCODE_LDG || op == CC_RC_OPCODE_ST ||
               op == CC_RC_OPCODE_STG;
    if (!ldst || sm < 75) {
        return CC_RC_ORDER_UNKNOWN;
    }
    if (sm == 75) {
        return sem == 10u || sem == 11u ? CC_RC_ORDER_STRONG_GPU
               : sem == 8u              ? CC_RC_ORDER_STRONG_BLOCK
                                        : CC_RC_ORDER_WEAK;
    }
    return sem == 7u || sem == 10u ? CC_RC_ORDER_STRONG_GPU
           : sem == 5u             ? CC_RC_ORDER_STRONG_BLOCK
                                   : CC_RC_ORDER_WEAK;
}

#endif
