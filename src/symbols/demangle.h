/* C++ name demangling for kernel names (Itanium ABI, through libstdc++'s __cxa_demangle). */
#ifndef CUCHECK_SYMBOLS_DEMANGLE_H
#define CUCHECK_SYMBOLS_DEMANGLE_H

#include <stddef.h>

/* Write the demangled form of mangled into out (truncated to len-1 bytes); when the name is not
 * a mangled C++ name (extern "C" kernels) or demangling fails, write the name unchanged.
 * Returns 1 if demangled, 0 if copied unchanged. */
int cc_demangle(const char *mangled, char *out, size_t len);

#endif
