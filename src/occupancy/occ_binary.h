/* Kernels from binaries for `cucheck occupancy --binary`: finds every cubin in a file (host
 * executable or .so via .nv_fatbin / __nv_relfatbin, a .fatbin, or a bare .cubin) with the
 * src/symbols parsers and hands each kernel's resources to a callback. */
#ifndef CUCHECK_OCCUPANCY_OCC_BINARY_H
#define CUCHECK_OCCUPANCY_OCC_BINARY_H

#include <stddef.h>

#include "occupancy/occupancy.h"
#include "symbols/cubin.h"

/* arch: 90 for sm_90; arch_name: "sm_90a". Return non-zero to stop. */
typedef int (*cc_occ_binary_cb)(const char *arch_name, unsigned arch, const cc_kernel_info *k,
                                void *user);

/* Returns the number of cubins visited (0 = none in the file), or -1 with a one-line err. */
int cc_occ_binary_kernels(const char *path, cc_occ_binary_cb cb, void *user, char *err,
                          size_t errlen);

/* Kernel description from the cubin's resources (threads left 0: the caller decides). */
void cc_occ_kernel_from_info(const cc_kernel_info *info, cc_occ_kernel *k);

#endif
