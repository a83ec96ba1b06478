/* cc_demangle: a thin wrapper over the C++ runtime's demangler, falling back to the input. */
#include "symbols/demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Itanium C++ ABI demangler, provided by libstdc++ (declared here; there is no C header). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

int cc_demangle(const char *mangled, char *out, size_t len)
{
    if (!out || len == 0)
        return 0;
    if (!mangled) {
        out[0] = 0;
        return 0;
    }
    int status = -1;
    char *d = NULL;
    if (strncmp(mangled, "_Z", 2) == 0)
        d = __cxa_demangle(mangled, NULL, NULL, &status);
    int ok = d && status == 0;
    snprintf(out, len, "%s", ok ? d : mangled);
    free(d);
    return ok;
}
