/* compute-sanitizer's --check-exit-code yes: a program that exited with a non-zero status, or
 * was killed by a signal, adds one error finding (kind "program-exit") to the merged report, so
 * that it is printed with the others and counts for --error-exitcode. */
#ifndef CUCHECK_CLI_EXIT_CHECK_H
#define CUCHECK_CLI_EXIT_CHECK_H

#include "cli/merge.h"

/* Append the finding to m when code != 0 or signo != 0. text (at least 128 bytes) holds its
 * message and must outlive m. 0, or -1 when out of memory (m unchanged). */
int cc_cli_add_exit_finding(cc_merged *m, const char *tool, int code, int signo, char *text,
                            size_t textlen);

#endif
