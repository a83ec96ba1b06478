/* The CLI's one-line diagnostics (diag.h). Each message is formatted first and written with a
 * single call, so that lines from cucheck and from the program do not interleave mid-line, and
 * escaped (core/text_escape.h), so that a path or name quoted in it cannot drive the terminal. */
#include "cli/diag.h"
#include "core/text_escape.h"

#include <stdarg.h>
#include <stdio.h>

static void emit(const char *cmd, int usage, const char *fmt, va_list ap)
{
    char raw[1024], msg[1024];
    vsnprintf(raw, sizeof raw, fmt, ap);
    /* Paths, names and reader messages quote their input: never a terminal control sequence. */
    cc_text_escape(msg, sizeof msg, raw);
    char line[1400];
    if (usage && cmd) {
        snprintf(line, sizeof line, "cucheck: %s: %s (see 'cucheck %s --help')\n", cmd, msg, cmd);
    } else if (usage) {
        snprintf(line, sizeof line, "cucheck: %s (see 'cucheck --help')\n", msg);
    } else {
        snprintf(line, sizeof line, "cucheck: %s\n", msg);
    }
    fputs(line, stderr);
    fflush(stderr);
}

void cc_cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(NULL, 0, fmt, ap);
    va_end(ap);
}

void cc_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(cmd, 1, fmt, ap);
    va_end(ap);
}
