/* libFuzzer target: a cubin's global variables (symbols/modvars.h) on arbitrary bytes. Every
 * variable delivered must have a non-empty name and a section name inside the input, a size
 * above 0 and an end that does not wrap; the count returned must equal the callbacks made. The
 * display-name decoder (nvcc's static prefix, demangling, the anonymous-namespace wrapper) runs
 * over every name and over the input itself as a string, into a small buffer. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/modvars.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seen {
    const uint8_t *data;
    size_t size;
    int calls;
    size_t sum;
} seen;

static int inside(const seen *s, const char *p)
{
    return (const uint8_t *)p >= s->data && (const uint8_t *)p < s->data + s->size;
}

static int touch_var(const cc_cubin_var *v, void *user)
{
    seen *s = user;
    if (!v->name || !v->name[0] || !inside(s, v->name) || !v->section || !inside(s, v->section))
        abort();
    if (v->size == 0 || v->offset + v->size < v->offset)
        abort();
    if (v->flags & ~(uint32_t)(CC_CUBIN_VAR_CONSTANT | CC_CUBIN_VAR_MANAGED))
        abort();
    char shown[24];
    cc_cubin_var_display_name(v->name, shown, sizeof shown);
    if (strnlen(shown, sizeof shown) >= sizeof shown)
        abort();
    s->sum += strlen(shown) + (size_t)v->size;
    s->calls++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    seen s = {data, size, 0, 0};
    int n = cc_cubin_vars(data, size, touch_var, &s, err, sizeof err);
    if (n >= 0 && n != s.calls)
        abort();
    if (n < 0 && strnlen(err, sizeof err) == 0)
        abort();
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
        char shown[64];
        cc_cubin_var_display_name(text, shown, sizeof shown);
        if (strnlen(shown, sizeof shown) >= sizeof shown)
            abort();
        free(text);
    }
    return 0;
}
