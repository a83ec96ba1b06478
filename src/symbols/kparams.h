/* Kernel parameter layout from a cubin: the EIATTR_KPARAM_INFO records of each kernel's
 * .nv.info.<kernel> section (one per parameter: ordinal, byte offset in the parameter buffer,
 * size). Record data (12 bytes, verified with nvcc 13.0): u32 index, u16 ordinal, u16 offset,
 * u32 flags whose bits 18..31 are the parameter's size in bytes. Used by the agent to know
 * where a launch's pointer arguments lie (streamcheck --mode api). */
#ifndef CUCHECK_SYMBOLS_KPARAMS_H
#define CUCHECK_SYMBOLS_KPARAMS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_kparam {
    uint32_t ordinal; /* position in the kernel's signature, from 0 */
    uint32_t offset;  /* bytes from the start of the parameter buffer */
    uint32_t size;    /* bytes */
} cc_kparam;

/* Called once per kernel that has parameter records, with its parameters sorted by ordinal
 * (borrowed: valid during the call). param_bytes is EIATTR_CBANK_PARAM_SIZE, or 0 if absent.
 * Return non-zero to stop. */
typedef int (*cc_kparams_cb)(const char *kernel, const cc_kparam *params, uint32_t n,
                             uint32_t param_bytes, void *user);

/* Decode one KPARAM_INFO record's data (at least 12 bytes). 0 ok, -1 if too short. */
int cc_kparam_decode(const unsigned char *data, size_t size, cc_kparam *out);

/* Every kernel's parameters. Returns the number of kernels delivered, or -1 with err on a
 * malformed cubin (not an ELF, bad section table, malformed .nv.info record). */
int cc_cubin_kparams(const void *data, size_t size, cc_kparams_cb cb, void *user, char *err,
                     size_t errlen);

#endif
