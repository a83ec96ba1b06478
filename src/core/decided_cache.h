/* The steady-state launch decision without the manager's lock: once a client's decide says that
 * its "no" for a kernel and launch shape holds until the launch policy changes (memcheck's
 * adaptive mode after the shape's checks, a kernel the include/exclude globs leave out), and the
 * kernel's module is unpatched with no change waiting (instr_launch.c checks that), the
 * launching thread remembers (kernel, grid, block) in a small direct-mapped table of its own,
 * with the policy's generation. A later launch that finds itself there under the same
 * generation runs unchecked without the lock or the client. Whatever could turn such a "no" into
 * a "yes", or patch a module, calls cc_decided_invalidate first, with the manager's lock held:
 * a module change requested or taken (the change waits for the launch gate, which a launch holds
 * inside its launch call, so no launch decided under the old generation is still being submitted
 * when the code changes), a module loaded or unloaded (function handles are reused), a context
 * destroyed, a client undoing a shape's count, a fork. No CUDA types: tested on the CPU. */
#ifndef CUCHECK_CORE_DECIDED_CACHE_H
#define CUCHECK_CORE_DECIDED_CACHE_H

#include <stdint.h>

typedef struct cc_decided_key {
    const void *function; /* the CUfunction */
    uint32_t grid[3], block[3];
} cc_decided_key;

/* 1 when this thread remembered k under the current generation. */
int cc_decided_hit(const cc_decided_key *k);
/* This thread remembers k under the current generation (call with the manager's lock held, so
 * that no generation change falls between the decision and this). */
void cc_decided_remember(const cc_decided_key *k);
/* Every thread's remembered launches are forgotten (lock held). */
void cc_decided_invalidate(void);

/* A client's decide marks its "no" for the launch being decided as steady; the manager reads and
 * clears the mark after the call. */
void cc_decided_mark_steady(void);
int cc_decided_take_steady(void);

#endif
