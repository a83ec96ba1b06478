/* A per-thread cache of native call sites, so that a launch from a call site seen before costs a
 * few dozen memory compares instead of a stack unwind (0.5 us from a C program, 2 us from
 * PyTorch's autograd thread, measured on the H200).
 *
 * A call site is recognised without unwinding: when a stack is first captured, the return-address
 * slot of every frame above the capturing function is located (libgcc's unwinder gives each
 * frame's canonical frame address; the return address sits just below it) and remembered with its
 * value, relative to the address of a local of the capturing function (`here`). A later capture at
 * the same `here` whose slots all hold the remembered return addresses is the same chain of calls:
 * frame by frame, the same function at the same call instruction with the same stack pointer,
 * hence the same frame layout. (Frames whose size is decided at run time, alloca or variable-length
 * arrays, could in theory leave a stale return address where a remembered slot was; the chain would
 * then differ in that one frame only. Set CUCHECK_SITE_CACHE=0 to unwind every time.)
 *
 * Only the frames the stack id was computed from are compared; entries carry the id and hash of
 * their stack and the generation they belong to (a fork child starts a new one). A thread whose
 * captures keep missing stops filling the cache (a fill costs a slow unwind) and then only looks
 * up. */
#ifndef CUCHECK_AGENT_HOST_SITE_CACHE_H
#define CUCHECK_AGENT_HOST_SITE_CACHE_H

#include <stdint.h>
#include <stdio.h>

/* 1 unless CUCHECK_SITE_CACHE=0 (or the platform's return-address layout is not the x86-64 one). */
int cc_site_cache_enabled(void);

/* The calling thread's chain of calls above `here` (the address of a local of the capturing
 * function), if cached for generation: returns 1 and sets *hash and *id; else 0. */
int cc_site_cache_lookup(uintptr_t here, unsigned generation, uint64_t *hash, uint64_t *id);

/* Remembers the chain above `here` after a full capture made from the same function: pcs/npcs
 * as cc_host_unwind returned them (innermost first, the capturing function's own frames
 * included), and the hash and id they were given. Does nothing when the chain cannot be located
 * exactly (the two unwinders disagree, a frame without a return-address slot), or when the
 * thread stopped filling. */
void cc_site_cache_fill(uintptr_t here, unsigned generation, const uint64_t *pcs, int npcs,
                        uint64_t hash, uint64_t id);

/* This thread's counts (for tests and CUCHECK_SELF_TIME): lookups that hit, entries filled. */
void cc_site_cache_counts(uint64_t *hits, uint64_t *fills);
/* One line: how the fills of all threads ended (CUCHECK_SELF_TIME). */
void cc_site_cache_report(FILE *out);

#endif
