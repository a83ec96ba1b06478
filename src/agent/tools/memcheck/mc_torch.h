/* Tensor bounds from PyTorch's own CUDA caching allocator (mc_torch.c): once the program's
 * allocator is initialized, a trace tracker is attached to it through libc10_cuda.so's
 * NativeCachingAllocator::attachAllocatorTraceTracker, and its segments and tensor blocks become
 * sub-allocator heaps and regions (instr/instr_suballoc.h). The program's allocator settings are
 * never changed. Nothing is decoded until the first segment allocation matched a cudaMalloc the
 * agent saw; whatever does not fit leaves memcheck at segment level and says so on stderr. */
#ifndef CUCHECK_AGENT_TOOLS_MEMCHECK_MC_TORCH_H
#define CUCHECK_AGENT_TOOLS_MEMCHECK_MC_TORCH_H

#include <sanitizer.h>

/* Resource callbacks: device allocations are remembered until the layout is learned. */
void cc_mc_torch_on_resource(Sanitizer_CallbackId cbid, const void *data);
/* At an API exit (no driver lock held): after a new device allocation, attach if PyTorch's
 * allocator is there and initialized. */
void cc_mc_torch_at_api_exit(void);

#endif
