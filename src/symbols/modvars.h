/* The global variables of a cubin (a module's `__device__`, `__constant__` and `__managed__`
 * variables): each one's symbol name, the section it lives in, its offset there and its size,
 * read from the symbol table. The agent asks the driver for each one's device address by that
 * name (cuModuleGetGlobal), so that memcheck can explain an address against the variable rather
 * than against the nearest allocation.
 *
 * What nvcc 13.0 writes (verified for sm_75, sm_90, sm_120, with -G and -rdc=true):
 *  - `__device__` (also `__device__ const`, static, namespaced, template and function-local
 *    static variables) and `__managed__` variables: .nv.global (no initializer, SHT_NOBITS) or
 *    .nv.global.init (with one); `__constant__` variables: .nv.constant3 (a constant bank).
 *  - Symbol type STT_OBJECT in whole-program cubins, 13 (STT_LOPROC) in relocatable ones (-rdc);
 *    binding LOCAL in whole-program cubins. Bit 0x4 of st_other marks `__managed__` variables.
 *  - Relocatable cubins name file-scope statics `__nv_static_<n>_<n characters>_<name>`;
 *    anonymous namespaces demangle as `_INTERNAL_<unit>::(anonymous namespace)::`. Shared
 *    variables (-G gives them symbols in .nv.shared.*) and undefined symbols are no module
 *    variables. */
#ifndef CUCHECK_SYMBOLS_MODVARS_H
#define CUCHECK_SYMBOLS_MODVARS_H

#include <stddef.h>
#include <stdint.h>

#define CC_CUBIN_VAR_CONSTANT 0x1u /* in a constant bank (.nv.constantN): `__constant__` */
#define CC_CUBIN_VAR_MANAGED 0x2u  /* `__managed__` (st_other bit 0x4) */

typedef struct cc_cubin_var {
    const char *name;    /* the symbol name as stored (what cuModuleGetGlobal takes); points
                            into the cubin */
    const char *section; /* ".nv.global", ".nv.global.init", ".nv.constant3", ... */
    uint64_t offset;     /* st_value: bytes from the start of its section */
    uint64_t size;       /* bytes, > 0; offset + size lies inside the section */
    uint32_t flags;      /* CC_CUBIN_VAR_* */
} cc_cubin_var;

/* Called per variable, in symbol-table order; return non-zero to stop. */
typedef int (*cc_cubin_var_cb)(const cc_cubin_var *v, void *user);

/* Every global variable of a cubin. Symbols that cannot be a variable (no size, an undefined or
 * reserved section index, a section that is not a global or constant one, a range outside its
 * section) are left out. Returns the number delivered, or -1 with err when the input is no
 * cubin or its section table is malformed. A cubin without a symbol table has none (0). */
int cc_cubin_vars(const void *data, size_t size, cc_cubin_var_cb cb, void *user, char *err,
                  size_t errlen);

/* The name the program wrote, for messages: nvcc's `__nv_static_..._` prefix removed, then
 * demangled (symbols/demangle.h), then the `_INTERNAL_<unit>::` namespace nvcc puts around an
 * anonymous namespace removed: `table`, `ns::deeper::buf`, `fn(int)::counter`,
 * `(anonymous namespace)::x`. Writes at most len-1 bytes and a NUL; returns out. */
char *cc_cubin_var_display_name(const char *name, char *out, size_t len);

#endif
