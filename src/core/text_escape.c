/* Terminal-safe printing of outside strings (text_escape.h): a scanner that splits a string into
 * pieces that pass unchanged and bytes that are escaped, shared by the buffer and FILE forms. */
#include "core/text_escape.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at p that may be printed (1..4), or 0 when the byte at p
 * must be escaped (a control, DEL, a C1 control, a bidirectional control, or invalid UTF-8). */
static size_t printable_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x20 || c == 0x7f) return 0;
    if (c < 0x80) return 1;
    size_t n;
    unsigned cp;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0; /* a continuation byte on its own, an overlong lead (0xc0, 0xc1), or > 0xf4 */
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0; /* also stops at the terminating NUL */
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
    if (cp >= 0xd800 && cp <= 0xdfff) return 0;           /* surrogates */
    if (cp >= 0x80 && cp <= 0x9f) return 0;               /* C1 controls (CSI is U+009B) */
    if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 0;
    return n;
}

int cc_text_is_safe(const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t n = printable_len(p);
        if (n == 0) return 0;
        p += n;
    }
    return 1;
}

static const char hex[] = "0123456789abcdef";

size_t cc_text_escape(char *buf, size_t len, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t out = 0;      /* length of the whole escaped text */
    size_t kept = 0;     /* bytes written to buf */
    int full = len == 0; /* nothing more fits */
    while (*p) {
        size_t n = printable_len(p);
        char esc[4];
        const char *piece = (const char *)p;
        size_t plen = n;
        if (n == 0) {
            esc[0] = '\\';
            esc[1] = 'x';
            esc[2] = hex[*p >> 4];
            esc[3] = hex[*p & 15];
            piece = esc;
            plen = 4;
            n = 1;
        }
        if (!full && kept + plen < len) {
            memcpy(buf + kept, piece, plen);
            kept += plen;
        } else {
            full = 1;
        }
        out += plen;
        p += n;
    }
    if (len) buf[kept] = '\0';
    return out;
}

void cc_text_fputs(const char *s, FILE *out)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        const unsigned char *run = p;
        size_t n;
        while (*p && (n = printable_len(p)) != 0) p += n;
        if (p > run) fwrite(run, 1, (size_t)(p - run), out);
        if (*p) {
            fprintf(out, "\\x%c%c", hex[*p >> 4], hex[*p & 15]);
            p++;
        }
    }
}
