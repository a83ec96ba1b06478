/* How a finding names a kernel: the demangled name people read, through the tool's demangle
 * cache (symbols/demangle.h: one demangling per distinct name, done where the finding is made,
 * never on the launch path), and the name the binary gives, kept for machines when it differs
 * (cc_device_loc.kernel_mangled: the JSON Lines `kernel_mangled` key, SARIF's decoratedName). */
#ifndef CUCHECK_TOOLS_KERNEL_NAME_H
#define CUCHECK_TOOLS_KERNEL_NAME_H

#include <string.h>
#include "cucheck/finding.h"
#include "symbols/demangle.h"

/* d's kernel and kernel_mangled for the kernel the event names `name` (mangled or not). The
 * shown text lives as long as the cache; name must live until the finding is reported. */
static inline void cc_kernel_loc_name(cc_device_loc *d, cc_demangle_cache *names, const char *name)
{
    const char *raw = name != NULL ? name : "";
    d->kernel = cc_demangle_cached(names, raw);
    d->kernel_mangled = strcmp(d->kernel, raw) != 0 ? raw : NULL;
}

#endif
