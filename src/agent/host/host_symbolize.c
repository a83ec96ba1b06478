/* Host frame symbolization (see host_symbolize.h). With CUCHECK_HAVE_LIBDW one libdwfl session
 * describes this process (/proc/self/maps); an address in a library loaded after it was made
 * triggers one re-read. Callers serialize (host_stacks.c holds its table lock). Lookups use
 * pc - 1: a return address points after the call, possibly at the next line. */
#include "agent/host/host_symbolize.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/demangle.h"

#ifdef CUCHECK_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#endif

static const char *cc_base_name(const char *path)
{
    const char *slash = path != NULL ? strrchr(path, '/') : NULL;
    return slash != NULL ? slash + 1 : (path != NULL ? path : "");
}

/* Frames of CUDA's own libraries and of the agent are not the program's. */
static int cc_is_internal_module(const char *path)
{
    static const char *const internal[] = {"libcucheck_agent", "libsanitizer-public", "libcuda.so",
                                           "libcudart.so", "libcudadebugger"};
    const char *base = cc_base_name(path);
    for (size_t i = 0; i < sizeof internal / sizeof internal[0]; i++) {
        if (strncmp(base, internal[i], strlen(internal[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

static void cc_format(char *out, size_t outlen, const char *fn, uint64_t off, const char *file,
                      int line, const char *module, uint64_t module_off)
{
    char dem[512];
    if (fn != NULL && fn[0] != '\0') {
        cc_demangle(fn, dem, sizeof dem);
        if (file != NULL && line > 0) {
            snprintf(out, outlen, "%s+0x%" PRIx64 " (%s:%d)", dem, off, file, line);
        } else {
            snprintf(out, outlen, "%s+0x%" PRIx64 " in %s", dem, off, cc_base_name(module));
        }
    } else if (file != NULL && line > 0) {
        snprintf(out, outlen, "%s+0x%" PRIx64 " (%s:%d)", cc_base_name(module), module_off, file,
                 line);
    } else {
        snprintf(out, outlen, "%s+0x%" PRIx64, cc_base_name(module), module_off);
    }
}

#ifdef CUCHECK_HAVE_LIBDW
static Dwfl *cc_dwfl;
static pid_t cc_dwfl_pid;
static char *cc_debuginfo_path;

static const Dwfl_Callbacks cc_dwfl_callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &cc_debuginfo_path,
};

static int cc_dwfl_refresh(void)
{
    pid_t pid = getpid();
    if (cc_dwfl != NULL && cc_dwfl_pid != pid) {
        dwfl_end(cc_dwfl); /* a fork child: the parent's maps may differ */
        cc_dwfl = NULL;
    }
    if (cc_dwfl == NULL) {
        cc_dwfl = dwfl_begin(&cc_dwfl_callbacks);
        cc_dwfl_pid = pid;
        if (cc_dwfl == NULL) {
            return -1;
        }
    }
    dwfl_report_begin(cc_dwfl);
    int rc = dwfl_linux_proc_report(cc_dwfl, pid);
    dwfl_report_end(cc_dwfl, NULL, NULL);
    return rc == 0 ? 0 : -1;
}

/* Code inlined into the function (a kernel's launch stub, a small helper) is attributed by the
 * line table to the inlined body; where it was called from is in the DWARF scopes. Each call
 * site, innermost first, is appended as " inlined at file:line" (the last one is the line the
 * program wrote, e.g. the `kernel<<<...>>>` statement). */
static void cc_append_inline_sites(Dwfl_Module *mod, Dwarf_Addr addr, char *out, size_t outlen)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
    if (cu == NULL) {
        return;
    }
    Dwarf_Die *scopes = NULL;
    int n = dwarf_getscopes(cu, addr - bias, &scopes);
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (n > 0 && dwarf_getsrcfiles(cu, &files, &nfiles) != 0) {
        files = NULL;
    }
    for (int i = 0; i < n; i++) {
        if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) {
            continue;
        }
        Dwarf_Attribute attr;
        Dwarf_Word call_line = 0, call_file = 0;
        if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &call_line) != 0 ||
            call_line == 0) {
            continue;
        }
        const char *file = NULL;
        if (files != NULL &&
            dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &call_file) == 0) {
            file = dwarf_filesrc(files, call_file, NULL, NULL);
        }
        size_t len = strlen(out);
        if (len + 1 < outlen) {
            snprintf(out + len, outlen - len, " inlined at %s:%u", file != NULL ? file : "?",
                     (unsigned)call_line);
        }
    }
    free(scopes);
}

static int cc_symbolize_libdw(uint64_t pc, char *out, size_t outlen, int *internal)
{
    if (cc_dwfl == NULL || cc_dwfl_pid != getpid()) {
        if (cc_dwfl_refresh() != 0) {
            return -1;
        }
    }
    Dwarf_Addr addr = (Dwarf_Addr)(pc - 1);
    Dwfl_Module *mod = dwfl_addrmodule(cc_dwfl, addr);
    if (mod == NULL) {
        if (cc_dwfl_refresh() != 0 || (mod = dwfl_addrmodule(cc_dwfl, addr)) == NULL) {
            return -1; /* a library loaded after the last read, or no module at all */
        }
    }
    Dwarf_Addr start = 0;
    const char *modname = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
    *internal = cc_is_internal_module(modname);
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *fn = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
    const char *file = NULL;
    int line = 0;
    Dwfl_Line *l = dwfl_module_getsrc(mod, addr);
    if (l != NULL) {
        file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
    }
    cc_format(out, outlen, fn, (uint64_t)off + 1, file, line, modname, pc - start);
    cc_append_inline_sites(mod, addr, out, outlen);
    return 0;
}
#endif

static void cc_symbolize_dladdr(uint64_t pc, char *out, size_t outlen, int *internal)
{
    Dl_info info;
    memset(&info, 0, sizeof info);
    if (dladdr((void *)(uintptr_t)(pc - 1), &info) == 0 || info.dli_fname == NULL) {
        snprintf(out, outlen, "0x%" PRIx64, pc);
        *internal = 0;
        return;
    }
    *internal = cc_is_internal_module(info.dli_fname);
    uint64_t base = (uint64_t)(uintptr_t)info.dli_fbase;
    uint64_t sym = (uint64_t)(uintptr_t)info.dli_saddr;
    cc_format(out, outlen, info.dli_sname, sym != 0 ? pc - sym : 0, NULL, 0, info.dli_fname,
              pc - base);
}

int cc_host_symbolize(uint64_t pc, char *out, size_t outlen)
{
    int internal = 0;
    if (outlen == 0) {
        return 0;
    }
#ifdef CUCHECK_HAVE_LIBDW
    if (cc_symbolize_libdw(pc, out, outlen, &internal) == 0) {
        return internal;
    }
#endif
    cc_symbolize_dladdr(pc, out, outlen, &internal);
    return internal;
}

const char *cc_host_symbolizer_name(void)
{
#ifdef CUCHECK_HAVE_LIBDW
    return "libdw";
#else
    return "dladdr";
#endif
}
