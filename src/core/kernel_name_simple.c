/* The short form of a demangled kernel name (report_text_style.h), as compute-sanitizer's
 * `--demangle simple` shows it: no parameter list, no template arguments, no return type.
 * "void ns::apply<host(float*)::{lambda(float*)#1}>(float*) const" gives "ns::apply". Brackets
 * are matched, so parentheses and angle brackets inside template arguments and the
 * "(anonymous namespace)" of a name stay balanced. */
#include "core/report_text_style.h"

#include <string.h>

/* The index of the bracket `open` that balances the `close` at s[end], or -1. */
static long matching_open(const char *s, long end, char open, char close)
{
    int depth = 0;
    for (long i = end; i >= 0; i--) {
        if (s[i] == close) {
            depth++;
        } else if (s[i] == open && --depth == 0) {
            return i;
        }
    }
    return -1;
}

/* Length of s[0..len) without trailing spaces. */
static long trim_end(const char *s, long len)
{
    while (len > 0 && s[len - 1] == ' ') {
        len--;
    }
    return len;
}

void cc_kernel_name_simple(const char *name, char *out, size_t outlen)
{
    if (!out || outlen == 0) {
        return;
    }
    const char *s = name ? name : "";
    long len = (long)strlen(s);
    /* the parameter list: the last ')' followed only by qualifiers (" const", " &") */
    long close = len - 1;
    while (close >= 0 && s[close] != ')' && (s[close] == ' ' || s[close] == '&' ||
                                             (s[close] >= 'a' && s[close] <= 'z'))) {
        close--;
    }
    long open = close >= 0 && s[close] == ')' ? matching_open(s, close, '(', ')') : -1;
    long end = open > 0 ? trim_end(s, open) : len;
    /* template arguments right before it */
    if (open > 0 && end > 0 && s[end - 1] == '>') {
        long lt = matching_open(s, end - 1, '<', '>');
        if (lt > 0) {
            end = trim_end(s, lt);
        }
    }
    /* a return type: the text up to the last space outside brackets */
    long start = 0;
    int depth = 0;
    for (long i = 0; open > 0 && i < end; i++) {
        char c = s[i];
        if (c == '(' || c == '<' || c == '{' || c == '[') {
            depth++;
        } else if ((c == ')' || c == '>' || c == '}' || c == ']') && depth > 0) {
            depth--;
        } else if (c == ' ' && depth == 0) {
            start = i + 1;
        }
    }
    if (end <= start) { /* nothing left: keep the name as it is */
        start = 0;
        end = len;
    }
    size_t n = (size_t)(end - start);
    if (n >= outlen) {
        n = outlen - 1;
    }
    memcpy(out, s + start, n);
    out[n] = '\0';
}
