/* libFuzzer target: reading PyTorch's caching allocator (symbols/torch_abi.h) on arbitrary
 * bytes: the input as the ELF image of libc10_cuda.so (symbols found must be the three the
 * reader requires, and the vtable's size, when found, must be a whole number of slots or 0),
 * the input as a virtual table (a slot found must hold the function looked for, inside the
 * bytes given), and the input as a TraceEntry (a learned layout must decode the segment
 * allocation it was learned from back to the same address and size). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/torch_abi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t le64_at(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    cc_torch_abi_syms syms;
    memset(&syms, 0xa5, sizeof syms);
    if (cc_torch_abi_find_symbols(data, size, &syms, err, sizeof err) == 0) {
        if (syms.attach == 0 || syms.initialized == 0 || syms.allocator == 0) {
            abort();
        }
    } else if (strnlen(err, sizeof err) == 0 || strnlen(err, sizeof err) >= sizeof err) {
        abort();
    }
    if (size >= 8) {
        uint64_t fn = le64_at(data);
        int slot = cc_torch_vtable_slot(data + 8, size - 8, fn);
        if (slot >= 0 && ((size_t)slot + 1) * 8 > size - 8) {
            abort();
        }
        if (slot >= 0 && le64_at(data + 8 + (size_t)slot * 8) != fn) {
            abort();
        }
    }
    if (size >= CC_TORCH_TRACE_BYTES + 16) {
        const uint8_t *entry = data + 16;
        uint64_t base = le64_at(data), bytes = le64_at(data + 8);
        cc_torch_trace_layout layout;
        if (cc_torch_trace_learn(entry, base, bytes, &layout) == 0) {
            if (layout.size_off + 8 > CC_TORCH_TRACE_BYTES ||
                layout.pool_off + 16 > CC_TORCH_TRACE_BYTES) {
                abort();
            }
            cc_torch_trace t;
            cc_torch_trace_decode(entry, &layout, &t);
            if (t.action != CC_TORCH_SEGMENT_ALLOC || t.addr != base || t.size != bytes) {
                abort();
            }
        }
    }
    return 0;
}
