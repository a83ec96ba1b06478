/* initcheck's model of a process's device memory: every live device allocation (cudaMalloc,
 * cudaMallocAsync) with its initialised bytes (init_ranges.h), kept sorted by base, and the one
 * function that moves it along the event stream (cc_init_model_apply): allocations start
 * uninitialised, memsets and copies from the host initialise, device-to-device copies carry the
 * source's state byte for byte, a launch that ran unchecked is taken as writing every allocation
 * of its context, a checked launch's INIT_WRITE ranges are marked, and a block PyTorch's caching
 * allocator hands to a new tensor (a torch SUBALLOC region) is uninitialised again. Both halves of
 * initcheck keep one: the tool (findings at copies and frees) and the agent (the uninitialised
 * ranges a checked launch gets on the device), fed the same events, so they agree. Memory of
 * other kinds (managed, host, module variables) is not tracked: it counts as initialised. Plain
 * C, no CUDA, not thread-safe (the agent locks). */
#ifndef CUCHECK_TOOLS_INITCHECK_INIT_MODEL_H
#define CUCHECK_TOOLS_INITCHECK_INIT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "core/context_book.h"
#include "cucheck/event.h"
#include "tools/initcheck/init_ranges.h"

typedef struct cc_init_alloc {
    uint64_t base, size;
    uint64_t context;
    uint64_t callsite;       /* the allocation's host stack id (0: none) */
    uint32_t mem_kind;
    int full;                /* every byte initialised (a cheap test for unchecked launches) */
    cc_init_ranges init;     /* initialised now */
    cc_init_ranges used;     /* ever written (never cleared; only with track_used) */
} cc_init_alloc;

/* Why an allocation left the model (cc_init_model.gone). */
#define CC_INIT_GONE_FREE 1      /* freed */
#define CC_INIT_GONE_REPLACED 2  /* a new allocation overlapped it (a free we did not see) */
#define CC_INIT_GONE_CONTEXT 3   /* its context was destroyed */
#define CC_INIT_GONE_EXIT 4      /* cc_init_model_free: the end of the process */

typedef struct cc_init_model {
    cc_init_alloc *v;        /* sorted by base, disjoint */
    size_t n, cap;
    size_t npartial;         /* entries with full == 0 */
    int track_used;          /* keep cc_init_alloc.used */
    /* Called before an allocation leaves the model (may be NULL); free_callsite: the free's. */
    void (*gone)(void *arg, const cc_init_alloc *a, int why, uint64_t free_callsite);
    void *gone_arg;
    uint64_t oom;            /* updates lost to a failed allocation (bytes then count as
                              * initialised where that is the safe side) */
    cc_context_book contexts; /* an allocation of a context not announced yet is not tracked */
} cc_init_model;

/* 1 for the memory kinds the model tracks (device, stream-ordered device). */
int cc_init_model_tracks(uint32_t mem_kind);
/* Every allocation leaves (gone with CC_INIT_GONE_EXIT), storage freed; the model is empty. */
void cc_init_model_free(cc_init_model *m);

/* The live allocation containing addr, or NULL. */
cc_init_alloc *cc_init_model_find(const cc_init_model *m, uint64_t addr);

/* 1 for the event kinds cc_init_model_apply uses (every other kind leaves the model as it is):
 * a second model fed a filtered stream (the agent's) filters with this, so the two agree. */
int cc_init_model_wants(uint32_t kind);
/* Move the model along one event (allocations, frees, copies, memsets, launches, INIT_WRITE,
 * sub-allocator regions, context destruction); other events change nothing. */
void cc_init_model_apply(cc_init_model *m, const cc_event *ev);

/* Bytes [addr, addr + n) become initialised / uninitialised where they lie in allocations. */
void cc_init_model_mark(cc_init_model *m, uint64_t addr, uint64_t n);
void cc_init_model_clear(cc_init_model *m, uint64_t addr, uint64_t n);
/* Every allocation of context (0: of all contexts) becomes initialised. */
void cc_init_model_mark_context(cc_init_model *m, uint64_t context);

/* The first uninitialised byte of [addr, addr + n) (bytes in no allocation count as
 * initialised), or UINT64_MAX; *count (if not NULL) the uninitialised bytes there, *alloc (if not
 * NULL) the allocation holding the first. */
uint64_t cc_init_model_first_uninit(const cc_init_model *m, uint64_t addr, uint64_t n,
                                    uint64_t *count, const cc_init_alloc **alloc);

/* The uninitialised bytes of context's allocations (0: all) as absolute [lo, hi) ranges in
 * address order: the first max of them into out (out may be NULL with max 0). Returns how many
 * there are in all; *bytes (if not NULL) gets their total size. */
size_t cc_init_model_uninit_ranges(const cc_init_model *m, uint64_t context, cc_init_range *out,
                                   size_t max, uint64_t *bytes);

#endif
