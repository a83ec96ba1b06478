/* cc_demangle_alloc and cc_demangle: cucheck's own reader (demangle_itanium.h) first, which
 * is bounded; the C++ runtime's demangler for what it does not read, where the runtime can be
 * trusted with the name; nvcc's __nv_static_ prefix dropped. */
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
/* The runtime has no bound on what it prints: every back-reference (S_, S<id>_, T_, T<n>_) can
 * repeat what came before, so a name with k of them may print 2^k times its length. It is
 * given names with at most this many (4,096 times 1,024 characters at worst). */
#define RUNTIME_MAX_BACK_REFERENCES 12

static size_t back_references(const char *m) {
    size_t n = 0;
    for (const char *p = m; *p; p++) {
        char c = p[1];
        if ((*p == 'S' || *p == 'T') && (c == '_' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')))
            n++;
    }
    return n;
}

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
        size_t len = strlen(m);
        int too_large = 0;
        char *d = cc_itanium_demangle(m, len, &too_large);
        if (d) return d;
        if (!too_large && len <= RUNTIME_DEMANGLE_MAX &&
            back_references(m) <= RUNTIME_MAX_BACK_REFERENCES) {
            int status = -1;
            d = __cxa_demangle(m, NULL, NULL, &status);
            if (d && status == 0) return d;
            free(d);
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
