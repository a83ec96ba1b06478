/* Checking one tool option value, with the one-line message every tool gives for a bad one:
 *   option '--NAME' does not accept 'VALUE' (expected WHAT)
 * Each tool's option parser (in its folder src/tools/<name>/) is built from these, so that the
 * CLI, `cucheck replay` and the agent refuse the same values with the same words. Each function
 * returns 0 when the value is accepted, else -1 with the message in err. */
#ifndef CUCHECK_CORE_OPTION_VALUES_H
#define CUCHECK_CORE_OPTION_VALUES_H

#include <stddef.h>
#include <stdint.h>

/* value is one of the NULL-terminated names: *index is its position. */
int cc_optval_choice(const char *option, const char *value, const char *const *names, int *index,
                     char *err, size_t errlen);
/* "on" or "off": *on is 1 or 0. */
int cc_optval_switch(const char *option, const char *value, int *on, char *err, size_t errlen);
/* A decimal whole number from min to max: digits only (no sign, space, suffix or fraction),
 * no overflow. */
int cc_optval_uint(const char *option, const char *value, uint64_t min, uint64_t max,
                   uint64_t *out, char *err, size_t errlen);
/* Non-empty text of at most maxlen bytes; `what` names it in the message ("a kernel name glob"). */
int cc_optval_text(const char *option, const char *value, size_t maxlen, const char *what,
                   char *err, size_t errlen);
/* An output file name pattern (%p, %q{VAR}, %% as for report files): non-empty, every %q{
 * closed, and when its directory part is literal (no '%'), that directory exists. */
int cc_optval_output_pattern(const char *option, const char *value, char *err, size_t errlen);
/* The message for any other refusal; `expected` says what is accepted. Always returns -1. */
int cc_optval_refuse(const char *option, const char *value, const char *expected, char *err,
                     size_t errlen);

#endif
