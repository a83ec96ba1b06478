/* compute-sanitizer's kernel filters (--kernel-name, --kernel-name-exclude) turned into the
 * kernel name globs cucheck's tools match (core/suppress.h, cc_glob_match): `kernel_name=X`
 * (`kne=X`, the whole mangled name) gives the glob of X itself, `kernel_substring=X` (`kns=X`,
 * a part of the mangled name) gives `*X*`; `*`, `?` and `\` in X are made literal. One key=value
 * per option; `regex=` is refused (cucheck's filters are globs). */
#ifndef CUCHECK_CORE_KERNEL_FILTER_H
#define CUCHECK_CORE_KERNEL_FILTER_H

#include <stddef.h>

/* 0 with the glob in out, or -1 with one line in err ("option '--kernel-name' does not accept
 * ... (expected ...)"). */
int cc_kernel_filter_glob(const char *option, const char *value, char *out, size_t outlen,
                          char *err, size_t errlen);

#endif
