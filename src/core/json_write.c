/* JSON value writers of core/json.h: string escaping that always yields valid JSON (control
 * characters escaped, invalid UTF-8 replaced by \ufffd), hex strings for 64-bit values and
 * small integer arrays. */
#include "core/json.h"

#include <inttypes.h>
#include <string.h>

void cc_json_write_str(FILE *out, const char *s) {
    if (!s) {
        fputs("null", out);
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    fputc('"', out);
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        switch (c) {
        case '"': fputs("\\\"", out); i++; continue;
        case '\\': fputs("\\\\", out); i++; continue;
        case '\n': fputs("\\n", out); i++; continue;
        case '\r': fputs("\\r", out); i++; continue;
        case '\t': fputs("\\t", out); i++; continue;
        case '\b': fputs("\\b", out); i++; continue;
        case '\f': fputs("\\f", out); i++; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7F) {
            fprintf(out, "\\u%04x", c);
            i++;
            continue;
        }
        size_t len = cc_utf8_seq_len(p + i, n - i);
        if (len == 0) {
            fputs("\\ufffd", out);
            i++;
            continue;
        }
        fwrite(p + i, 1, len, out);
        i += len;
    }
    fputc('"', out);
}

void cc_json_write_hex(FILE *out, uint64_t v) { fprintf(out, "\"0x%" PRIx64 "\"", v); }

void cc_json_write_dim3(FILE *out, const uint32_t v[3]) {
    fprintf(out, "[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]", v[0], v[1], v[2]);
}
