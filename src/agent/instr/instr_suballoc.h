/* Sub-allocators: memory a program hands out in pieces from larger device allocations (NVTX
 * memory heaps and regions, PyTorch's caching allocator's segments and blocks). A heap covers a
 * span of one or more device allocations; once registered, the span stops counting as one live
 * range in the checked launches' allocation table and only its live regions do, so an access
 * inside the heap but outside every region is reported (against the nearest region). Each call
 * updates the table under the manager's lock and emits a CC_EV_SUBALLOC event (region
 * registrations with the host stack of the call), so that reports explain addresses against
 * regions. Callable from any thread, outside the manager's lock, never from a signal handler. */
#ifndef CUCHECK_AGENT_INSTR_INSTR_SUBALLOC_H
#define CUCHECK_AGENT_INSTR_INSTR_SUBALLOC_H

#include <stdint.h>

/* Who describes the heap (carried in the events, chooses the report's words). */
typedef enum cc_suballoc_source {
    CC_SUBALLOC_NVTX = 1,  /* nvtxMemHeapRegister / nvtxMemRegionsRegister */
    CC_SUBALLOC_TORCH = 2, /* PyTorch's CUDA caching allocator (segments, tensor blocks) */
} cc_suballoc_source;

/* Registers [base, base + size) as a heap; returns its id (never 0), or 0 when it cannot be
 * tracked (then nothing changes: the span stays one live range). */
uint64_t cc_suballoc_heap_register(cc_suballoc_source source, uint64_t base, uint64_t size);
/* The heap's regions go; its span counts as its underlying allocations again. */
void cc_suballoc_heap_unregister(uint64_t heap);
/* Every region of the heap goes; the heap stays registered (nothing in it is valid). */
void cc_suballoc_heap_reset(uint64_t heap);
/* A region [base, base + size) of the heap becomes valid. */
void cc_suballoc_region_register(uint64_t heap, uint64_t base, uint64_t size);
/* The region starting at base now has new_size bytes. */
void cc_suballoc_region_resize(uint64_t base, uint64_t new_size);
/* The region starting at base goes (later accesses to it are use-after-free). */
void cc_suballoc_region_unregister(uint64_t base);

/* The same two changes, queued (core/region_queue.h) for a source that makes many and orders
 * its own calls (PyTorch's trace entries come under its allocator's lock): the event goes out at
 * once, without the manager's lock; the book and the table follow when a reader of the table
 * needs them (a launch bound, an allocation or free, another change), so that a block allocated
 * and freed in between never reaches them. The caller gives the heap (the book may lag) and
 * unregisters a region before it registers another at its base. */
void cc_suballoc_region_register_queued(cc_suballoc_source source, uint64_t heap, uint64_t base,
                                        uint64_t size, uint64_t callsite);
void cc_suballoc_region_unregister_queued(cc_suballoc_source source, uint64_t heap,
                                          uint64_t base, uint64_t callsite);

#endif
