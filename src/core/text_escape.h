/* Printing strings that come from outside (kernel and file names, messages and notes read from
 * recordings, reports and binaries) so that they cannot drive the terminal: every byte that a
 * terminal could act on is written as a visible \xHH escape. Escaped are the C0 controls (ESC,
 * BEL, CR, LF, ... and TAB) and DEL, the C1 controls (U+0080..U+009F, and the bare bytes
 * 0x80..0x9F an 8-bit terminal reads as such), the bidirectional overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069) and every byte that is not part of valid UTF-8. Printable
 * ASCII and valid UTF-8 text pass unchanged; so does the backslash. */
#ifndef CUCHECK_CORE_TEXT_ESCAPE_H
#define CUCHECK_CORE_TEXT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* 1 if s (NULL counts as "") prints unchanged. */
int cc_text_is_safe(const char *s);

/* s escaped into buf (len bytes, always NUL-terminated when len > 0; a too long result is cut
 * before the escape or character that does not fit). Returns the length of the whole escaped
 * text, as snprintf does. */
size_t cc_text_escape(char *buf, size_t len, const char *s);

/* s escaped, written to out. */
void cc_text_fputs(const char *s, FILE *out);

#endif
