/* cc_demangle_alloc and cc_demangle: the C++ runtime's demangler first, cucheck's own reader
 * for the names the runtime refuses for their length, and nvcc's __nv_static_ prefix dropped. */
#include "symbols/demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/demangle_itanium.h"

/* The Itanium C++ ABI demangler, provided by libstdc++ (declared here; there is no C header). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* libstdc++ refuses every name longer than this (its guard against deep recursion counts two
 * components per input character and allows 2,048), whatever the name. */
#define RUNTIME_DEMANGLE_MAX 1024

/* nvcc renames a file-static entity of relocatable device code __nv_static_<n>_<n characters
 * naming the file>_<name>: the name after the prefix, or name itself without one. */
static const char *skip_nv_static(const char *name) {
    static const char prefix[] = "__nv_static_";
    size_t n = 0;
    const char *q = name + sizeof prefix - 1;
    if (strncmp(name, prefix, sizeof prefix - 1) != 0 || *q < '0' || *q > '9') return name;
    for (; *q >= '0' && *q <= '9'; q++) {
        n = n * 10 + (size_t)(*q - '0');
        if (n > 4096) return name;
    }
    if (*q != '_' || strnlen(q + 1, n + 1) < n + 1 || q[1 + n] != '_' || q[2 + n] == '\0')
        return name;
    return q + 2 + n;
}

char *cc_demangle_alloc(const char *name) {
    if (!name) return NULL;
    const char *m = skip_nv_static(name);
    if (strncmp(m, "_Z", 2) == 0) {
        int status = -1;
        char *d = __cxa_demangle(m, NULL, NULL, &status);
        if (d && status == 0) return d;
        free(d);
        size_t len = strlen(m);
        if (len > RUNTIME_DEMANGLE_MAX) {
            d = cc_itanium_demangle(m, len);
            if (d) return d;
        }
    }
    return m != name ? strdup(m) : NULL;
}

int cc_demangle(const char *mangled, char *out, size_t len) {
    if (!out || len == 0) return 0;
    if (!mangled) {
        out[0] = 0;
        return 0;
    }
    char *d = cc_demangle_alloc(mangled);
    snprintf(out, len, "%s", d ? d : mangled);
    free(d);
    return d != NULL;
}
