/* The device patch fatbin embedded into the agent (generated from cucheck_patches.cu by
 * src/patches/CMakeLists.txt). cc_patches_fatbin_size is 0 when the build had no nvcc or no
 * Compute Sanitizer headers; the agent then runs without patches and says so. */
#ifndef CUCHECK_PATCHES_EMBEDDED_PATCHES_H
#define CUCHECK_PATCHES_EMBEDDED_PATCHES_H

#include <stddef.h>

extern const unsigned char cc_patches_fatbin[];
extern const size_t cc_patches_fatbin_size;

#endif
