/* Numbers as report text (number_text.h). */
#include "core/number_text.h"

#include <inttypes.h>
#include <stdio.h>

void cc_grouped_digits(uint64_t v, char *out, size_t len)
{
    if (len == 0) {
        return;
    }
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 1 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0 && o + 2 < len) {
            out[o++] = ',';
        }
        out[o++] = digits[i];
    }
    out[o] = '\0';
}
