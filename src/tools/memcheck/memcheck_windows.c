/* Kernel facts for memcheck's window and device-heap checks, read from the cubin (see
 * memcheck_windows.h): the shared window from cc_cubin_kernel/cc_cubin_inspect, the local window
 * from the kernel's stack and the context's stack limit, device-heap use
 * from the undefined function symbols of the ELF symbol table. Bounds-checked by symbols/. */
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck_windows.h"
#include "symbols/cubin.h"
#include "symbols/elf.h"

int cc_mc_kernel_windows_of(const void *cubin, size_t size, const char *kernel,
                            cc_mc_kernel_windows *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (cubin == NULL || kernel == NULL || kernel[0] == '\0') {
        snprintf(err, errlen, "no cubin or no kernel name");
        return -1;
    }
    cc_cubin_info info;
    if (cc_cubin_inspect(cubin, size, &info, err, errlen) != 0) {
        return -1;
    }
    cc_kernel_info k;
    int rc = cc_cubin_kernel(cubin, size, kernel, &k, err, errlen);
    if (rc != 1) {
        return rc;
    }
    out->smem_lo = info.reserved_smem;
    out->smem_static = k.static_smem;
    out->frame_bytes = k.local_bytes;
    out->stack_bytes = k.min_stack_bytes > k.max_stack_bytes ? k.min_stack_bytes
                                                             : k.max_stack_bytes;
    out->arch = info.arch;
    return 1;
}

cc_mc_local_window cc_mc_local_window_of(uint64_t kernel_stack, uint64_t stack_limit,
                                         uint32_t top)
{
    cc_mc_local_window w = {0u, top != 0u ? top : CC_MC_LOCAL_WINDOW_END};
    if (stack_limit >= CC_MC_LOCAL_WINDOW_END || kernel_stack >= CC_MC_LOCAL_WINDOW_END) {
        return w; /* unknown (UINT64_MAX) or larger than the window: no bottom */
    }
    /* From the window's end, not the user's top: the bottom stays where the stack can reach. */
    uint64_t stack = kernel_stack > stack_limit ? kernel_stack : stack_limit;
    uint64_t need = (uint64_t)CC_MC_LOCAL_TOP_RESERVE + CC_MC_LOCAL_BOTTOM_SLACK + stack;
    if (need < CC_MC_LOCAL_WINDOW_END) {
        w.lo = CC_MC_LOCAL_WINDOW_END - (uint32_t)need;
    }
    if (w.lo >= w.end) {
        w.lo = 0u; /* a top the user set below the stack's bottom: only the top is checked */
    }
    return w;
}

static int heap_function(const char *name)
{
    if (strcmp(name, "malloc") == 0 || strcmp(name, "free") == 0) {
        return 1;
    }
    return strncmp(name, "__cuda_syscall_", 15) == 0 &&
           (strstr(name, "malloc") != NULL || strstr(name, "free") != NULL);
}

int cc_mc_cubin_uses_device_heap(const void *cubin, size_t size)
{
    char err[128];
    cc_elf elf;
    if (cubin == NULL || cc_elf_open(&elf, cubin, size, err, sizeof err) != 0) {
        return -1;
    }
    cc_elf_section symtab;
    if (cc_elf_symtab(&elf, &symtab) != 0) {
        return 0;
    }
    uint32_t n = cc_elf_symbol_count(&elf, &symtab);
    for (uint32_t i = 1; i < n; i++) {
        cc_elf_symbol s;
        if (cc_elf_get_symbol(&elf, &symtab, i, &s) != 0 || s.name == NULL) {
            continue;
        }
        if (s.shndx == 0 && (s.info & 0xfu) == 2u /* STT_FUNC */ && heap_function(s.name)) {
            return 1;
        }
    }
    return 0;
}
