/* PyTorch's caching-allocator ABI: symbols of libc10_cuda.so, the virtual-table slot, TraceEntry
 * layouts (torch_abi.h). */
#include "symbols/torch_abi.h"

#include <stdio.h>
#include <string.h>

#include "symbols/elf.h"

#define STT_OBJECT_ 1u
#define STT_FUNC_ 2u
#define SHT_DYNSYM_ 11u

typedef struct wanted {
    const char *prefix;   /* the name starts with it */
    const char *fragment; /* ... and contains it */
    int suffix;           /* 1: the fragment ends the name */
    unsigned type;        /* STT_* */
    uint64_t *value, *size;
    int ambiguous;
} wanted;

static int name_matches(const char *name, const wanted *w)
{
    size_t np = strlen(w->prefix);
    if (strncmp(name, w->prefix, np) != 0) {
        return 0;
    }
    if (!w->suffix) {
        return strstr(name + np, w->fragment) != NULL;
    }
    size_t n = strlen(name), nf = strlen(w->fragment);
    return n >= np + nf && strcmp(name + n - nf, w->fragment) == 0;
}

static void scan_table(const cc_elf *elf, const cc_elf_section *tab, wanted *w, size_t nw)
{
    uint32_t count = cc_elf_symbol_count(elf, tab);
    for (uint32_t i = 0; i < count; i++) {
        cc_elf_symbol s;
        if (cc_elf_get_symbol(elf, tab, i, &s) != 0 || !s.name || s.shndx == 0 || s.value == 0) {
            continue;
        }
        for (size_t k = 0; k < nw; k++) {
            if ((s.info & 0xfu) != w[k].type || !name_matches(s.name, &w[k])) {
                continue;
            }
            if (*w[k].value == 0) {
                *w[k].value = s.value;
                if (w[k].size) {
                    *w[k].size = s.size;
                }
            } else if (*w[k].value != s.value) {
                w[k].ambiguous = 1;
            }
        }
    }
}

int cc_torch_abi_find_symbols(const void *image, size_t size, cc_torch_abi_syms *out, char *err,
                              size_t errlen)
{
    memset(out, 0, sizeof *out);
    cc_elf elf;
    if (cc_elf_open(&elf, image, size, err, errlen) != 0) {
        return -1;
    }
    wanted w[] = {
        {"_ZN", "22NativeCachingAllocator27attachAllocatorTraceTracker", 0, STT_FUNC_,
         &out->attach, NULL, 0},
        {"_ZN", "22NativeCachingAllocator11initializedEv", 1, STT_FUNC_, &out->initialized, NULL,
         0},
        {"_ZTV", "22NativeCachingAllocatorE", 1, STT_OBJECT_, &out->vtable, &out->vtable_size, 0},
        {"_ZN", "20CUDACachingAllocator9allocatorE", 1, STT_OBJECT_, &out->allocator, NULL, 0},
    };
    const size_t nw = sizeof w / sizeof w[0];
    for (uint32_t i = 0; i < elf.shnum; i++) {
        cc_elf_section sec;
        if (cc_elf_get_section(&elf, i, &sec) == 0 &&
            (sec.type == CC_SHT_SYMTAB || sec.type == SHT_DYNSYM_) && sec.data) {
            scan_table(&elf, &sec, w, nw);
        }
    }
    const char *missing = !out->attach        ? "NativeCachingAllocator::attachAllocatorTraceTracker"
                          : !out->initialized ? "NativeCachingAllocator::initialized"
                          : !out->allocator   ? "CUDACachingAllocator::allocator"
                                              : NULL;
    if (missing) {
        snprintf(err, errlen, "no symbol %s", missing);
        return -1;
    }
    for (size_t k = 0; k < nw; k++) {
        if (w[k].ambiguous) {
            snprintf(err, errlen, "several symbols match %s", w[k].fragment);
            return -1;
        }
    }
    return 0;
}

int cc_torch_vtable_slot(const unsigned char *slots, size_t nbytes, uint64_t fn)
{
    for (size_t i = 0; i + 8 <= nbytes && i / 8 < 0x7fffffff; i += 8) {
        if (cc_le64(slots + i) == fn) {
            return (int)(i / 8);
        }
    }
    return -1;
}

/* libstdc++'s _Manager_operation */
enum { FN_GET_TYPE_INFO = 0, FN_GET_FUNCTOR_PTR = 1, FN_CLONE = 2, FN_DESTROY = 3 };

/* The functor is stored locally: {fn, type_info}, copied bitwise, nothing to destroy. */
static _Bool tracker_manager(void **dest, void *const *src, int op)
{
    switch (op) {
    case FN_GET_TYPE_INFO:
        dest[0] = src[1];
        break;
    case FN_GET_FUNCTOR_PTR:
        dest[0] = (void *)src;
        break;
    case FN_CLONE:
        dest[0] = src[0];
        dest[1] = src[1];
        break;
    default:
        break;
    }
    return 0;
}

static void tracker_invoke(void *const *functor, const unsigned char *entry)
{
    cc_torch_tracker_fn fn;
    memcpy(&fn, &functor[0], sizeof fn);
    fn(entry);
}

void cc_torch_tracker_init(cc_torch_tracker *t, cc_torch_tracker_fn fn, const void *type_info)
{
    memset(t, 0, sizeof *t);
    memcpy(&t->functor[0], &fn, sizeof fn);
    t->functor[1] = (void *)(uintptr_t)type_info;
    t->manager = tracker_manager;
    t->invoker = tracker_invoke;
}

/* Offsets of size_ and mempool_ after action_ (int), device_ (int8), addr_ (size_t) and
 * context_ (std::shared_ptr, 16 bytes) from offset 0: the stream is 8 or 16 bytes. */
static const cc_torch_trace_layout known_layouts[] = {
    {40, 48}, /* cudaStream_t stream_ */
    {48, 56}, /* c10::Stream stream_ */
};

int cc_torch_trace_learn(const unsigned char *entry, uint64_t base, uint64_t size,
                         cc_torch_trace_layout *out)
{
    if ((int32_t)cc_le32(entry) != CC_TORCH_SEGMENT_ALLOC || cc_le64(entry + 8) != base ||
        size == 0) {
        return -1;
    }
    for (size_t i = 0; i < sizeof known_layouts / sizeof known_layouts[0]; i++) {
        if (cc_le64(entry + known_layouts[i].size_off) == size) {
            *out = known_layouts[i];
            return 0;
        }
    }
    return -1;
}

void cc_torch_trace_decode(const unsigned char *entry, const cc_torch_trace_layout *layout,
                           cc_torch_trace *out)
{
    out->action = (int32_t)cc_le32(entry);
    out->device = (int8_t)entry[4];
    out->addr = cc_le64(entry + 8);
    out->size = cc_le64(entry + layout->size_off);
    out->pool[0] = cc_le64(entry + layout->pool_off);
    out->pool[1] = cc_le64(entry + layout->pool_off + 8);
}
