/* PyTorch's CUDA caching allocator as libc10_cuda.so lays it out, read without CUDA or PyTorch:
 * the symbols through which a trace tracker is attached (found in the library's ELF symbol
 * tables by fragments of their mangled names, so that namespaces and argument lists may
 * change), the tracker's slot in the allocator's virtual table, and the TraceEntry records the
 * tracker receives. Two TraceEntry layouts exist (the stream a cudaStream_t of 8 bytes, or a
 * c10::Stream of 16); the one in use is learned from the first segment allocation, whose address
 * and size the agent saw cudaMalloc return, and nothing is decoded before. */
#ifndef CUCHECK_SYMBOLS_TORCH_ABI_H
#define CUCHECK_SYMBOLS_TORCH_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Link-time addresses (add the library's load bias); 0 where not found. */
typedef struct cc_torch_abi_syms {
    uint64_t attach;       /* NativeCachingAllocator::attachAllocatorTraceTracker(std::function) */
    uint64_t initialized;  /* NativeCachingAllocator::initialized() */
    uint64_t vtable;       /* vtable for NativeCachingAllocator */
    uint64_t vtable_size;
    uint64_t allocator;    /* CUDACachingAllocator::allocator, a std::atomic<CUDAAllocator *> */
} cc_torch_abi_syms;

/* Reads the symbol tables (.symtab, then .dynsym) of the ELF image of libc10_cuda.so. 0 when
 * attach, initialized and allocator were all found; -1 with the missing one named in err. */
int cc_torch_abi_find_symbols(const void *image, size_t size, cc_torch_abi_syms *out, char *err,
                              size_t errlen);

/* The index of the 8-byte slot of a virtual table (nbytes of it, from its address point) that
 * holds fn, or -1. */
int cc_torch_vtable_slot(const unsigned char *slots, size_t nbytes, uint64_t fn);

/* A std::function<void(const TraceEntry &)> as libstdc++ lays it out (32 bytes: _Any_data of 16
 * bytes, the manager, the invoker), to pass to attachAllocatorTraceTracker by invisible
 * reference (a by-value argument of a class with a non-trivial copy, Itanium C++ ABI). Its
 * functor is a C function and the type_info that target_type() reports. */
typedef void (*cc_torch_tracker_fn)(const unsigned char *entry);
typedef struct cc_torch_tracker {
    void *functor[2];
    _Bool (*manager)(void **dest, void *const *src, int op);
    void (*invoker)(void *const *functor, const unsigned char *entry);
} cc_torch_tracker;
/* fn gets each TraceEntry's address; type_info may be NULL (typeid(void) where found). */
void cc_torch_tracker_init(cc_torch_tracker *t, cc_torch_tracker_fn fn, const void *type_info);

/* TraceEntry::Action */
enum {
    CC_TORCH_ALLOC = 0,          /* a block handed out (size: the size asked for) */
    CC_TORCH_FREE_REQUESTED = 1, /* freed by the program, possibly still in use on streams */
    CC_TORCH_FREE_COMPLETED = 2, /* back in the allocator's cache */
    CC_TORCH_SEGMENT_ALLOC = 3,  /* a cudaMalloc of the allocator */
    CC_TORCH_SEGMENT_FREE = 4,   /* its cudaFree */
    CC_TORCH_SEGMENT_MAP = 5,    /* expandable segments: pages mapped */
    CC_TORCH_SEGMENT_UNMAP = 6,
};

/* Bytes of a TraceEntry that the decoder reads (the record is larger: time, strings). */
#define CC_TORCH_TRACE_BYTES 72u

typedef struct cc_torch_trace_layout {
    uint32_t size_off; /* size_t size_ */
    uint32_t pool_off; /* MempoolId_t mempool_ (two uint64_t) */
} cc_torch_trace_layout;

typedef struct cc_torch_trace {
    int action;        /* TraceEntry::Action */
    int device;        /* c10::DeviceIndex */
    uint64_t addr, size;
    uint64_t pool[2];  /* (0, 0): the default pools; else a private pool (CUDA graphs, MemPool) */
} cc_torch_trace;

/* The layout under which entry (CC_TORCH_TRACE_BYTES readable) is a segment allocation of
 * [base, base + size): 0 with *out set, -1 when no known layout fits. */
int cc_torch_trace_learn(const unsigned char *entry, uint64_t base, uint64_t size,
                         cc_torch_trace_layout *out);
/* entry under a learned layout. */
void cc_torch_trace_decode(const unsigned char *entry, const cc_torch_trace_layout *layout,
                           cc_torch_trace *out);

#endif
