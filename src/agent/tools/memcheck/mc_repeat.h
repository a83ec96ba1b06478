/* memcheck's repeated launches (adaptive mode, --repeats count): the digest of what a launch's
 * checks depend on besides the data — its argument values, where a pointer-sized argument word
 * that points into a live allocation counts by its offset in it, the allocation's size and
 * alignment — and the shape counter that keeps the first checked launch's digest beside the
 * count. A launch of a (kernel, grid, block, cluster) whose digest equals that of the shape's
 * first checked launch counts as a check and runs unchecked: it would run the same accesses,
 * relative to its arguments, against the same bounds, and find only what depends on the data
 * it reads. */
#ifndef CUCHECK_AGENT_TOOLS_MEMCHECK_MC_REPEAT_H
#define CUCHECK_AGENT_TOOLS_MEMCHECK_MC_REPEAT_H

#include <stddef.h>
#include <stdint.h>
#include <sanitizer.h>
#include "patches/patch_records.h"

/* The shape counter: bits 0-23 the checked launches (saturating), bit 24 set when bits 25-63
 * hold the first checked launch's digest. */
#define CC_MC_SHAPE_COUNT_MASK 0xffffffull
#define CC_MC_SHAPE_DIGEST_SET (1ull << 24)

static inline uint64_t cc_mc_shape_count(uint64_t v)
{
    return v & CC_MC_SHAPE_COUNT_MASK;
}

/* The digest of launch d against the manager's table of live allocations, called at its
 * LAUNCH_BEGIN on the launching thread with the manager's lock held (one static buffer).
 * 0: unknown (not a launch call whose arguments the agent reads, or no layout for them). */
uint64_t cc_mc_launch_digest(const Sanitizer_LaunchData *d);

/* The counter after a checked launch of digest `digest` (0: unknown). */
uint64_t cc_mc_shape_checked(uint64_t v, uint64_t digest);

/* The counter after the launch that took its count ran unchecked after all: the digest goes
 * when that launch was the shape's first (the count stays taken, as before repeats). */
uint64_t cc_mc_shape_unchecked(uint64_t v);

/* 1 if a launch of digest `digest` repeats the shape's first checked launch. */
int cc_mc_shape_repeats(uint64_t v, uint64_t digest);

#endif
