/* C++ name demangling for kernel names (Itanium ABI): cucheck's own reader (demangle_itanium.h:
 * bounded, the same text as libstdc++'s __cxa_demangle, and no limit of 1,024 characters, which
 * CUTLASS, cuDNN and cuBLASLt kernels pass), then __cxa_demangle for the constructs it does not
 * read, where a hostile name cannot make it print without bound. nvcc's prefix of file-static
 * entities in relocatable device code (__nv_static_<n>_<file tag>_) is dropped. A name that is
 * no mangled C++ name (extern "C" kernels, Triton's and cuBLAS's plain names) or that cannot be
 * read (malformed, truncated, a construct neither reader knows) is shown as it is. */
#ifndef CUCHECK_SYMBOLS_DEMANGLE_H
#define CUCHECK_SYMBOLS_DEMANGLE_H

#include <stddef.h>

/* The name to show for name, malloc'd: its demangled form, or name without nvcc's
 * __nv_static_ prefix; NULL when it is to be shown unchanged (or memory is short). */
char *cc_demangle_alloc(const char *name);

/* Write the demangled form of mangled into out (truncated to len-1 bytes); when the name is not
 * a mangled C++ name or demangling fails, write the name unchanged. Returns 1 if demangled, 0 if
 * copied unchanged. */
int cc_demangle(const char *mangled, char *out, size_t len);

/* ---- one demangling per distinct name: the table reports and tools read names through ---- */
typedef struct cc_demangle_cache cc_demangle_cache;

cc_demangle_cache *cc_demangle_cache_new(void); /* NULL if out of memory */
void cc_demangle_cache_free(cc_demangle_cache *c);
/* The name to show for name (cc_demangle_alloc's text, or name's own text), kept by the cache
 * until it is freed: name itself need not outlive the call. The first call for a name demangles
 * it, later calls find it. Never NULL: "" for a NULL name, name itself when memory is short or c
 * is NULL. Not thread-safe (callers lock). */
const char *cc_demangle_cached(cc_demangle_cache *c, const char *name);
/* Distinct names the cache holds (each demangled once). */
size_t cc_demangle_cache_size(const cc_demangle_cache *c);

#endif
