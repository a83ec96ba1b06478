/* libFuzzer target: kernel-name demangling (symbols/demangle.h) on arbitrary bytes: cucheck's own
 * Itanium reader (demangle_itanium.h) on the input and on the input after "_Z", the public entry
 * (which may hand the name to the C++ runtime) and the cache. Nothing may crash, leak or hang
 * (the seeds include a 300-character name whose substitutions double 30 times, which the
 * runtime alone would print for minutes); a text read is at most 1 MiB; the cache gives the same
 * text for the same name twice and counts it once. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"
#include "symbols/demangle_itanium.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *s)
{
    if (s && strnlen(s, ((size_t)1 << 20) + 1) > ((size_t)1 << 20))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *name = malloc(size + 3);
    if (!name)
        return 0;
    /* the bytes as they are, and with the _Z every mangled name starts with */
    memcpy(name, data, size);
    name[size] = '\0';
    char *own = cc_itanium_demangle(name, strlen(name), NULL);
    check_text(own);
    free(own);
    char *shown = cc_demangle_alloc(name);
    check_text(shown);
    free(shown);

    memcpy(name, "_Z", 2);
    memcpy(name + 2, data, size);
    name[size + 2] = '\0';
    int too_large = 0;
    own = cc_itanium_demangle(name, strlen(name), &too_large);
    if (own && too_large)
        abort();
    check_text(own);
    free(own);

    cc_demangle_cache *c = cc_demangle_cache_new();
    if (c) {
        const char *a = cc_demangle_cached(c, name);
        check_text(a);
        if (cc_demangle_cached(c, name) != a || cc_demangle_cache_size(c) != 1)
            abort();
        cc_demangle_cache_free(c);
    }
    free(name);
    return 0;
}
