/* The final report: merged findings printed as text, JSON Lines or SARIF, the output file
 * (--output), and the one-line summary on stderr. Shared by running and replaying. */
#ifndef CUCHECK_CLI_OUTPUT_H
#define CUCHECK_CLI_OUTPUT_H

#include <stdio.h>
#include "cli/cli_options.h"
#include "cli/merge.h"

/* Open --output (or return stdout): created with mode 0600, or an own file replaced, never
 * through a link others can change (core/owned_file.h), close-on-exec. NULL after printing a
 * message. */
FILE *cc_cli_output_open(const cc_cli_opts *g);
/* Flush and close what cc_cli_output_open returned; -1 (message printed) on a write error. */
int cc_cli_output_close(FILE *out, const cc_cli_opts *g);

/* Print the findings in the chosen format, then the tools' notes of `set` (what was checked;
 * identical notes of several processes once). tool names the SARIF run; with SARIF the notes go
 * to stderr. set may be NULL. */
void cc_cli_print_findings(FILE *out, const cc_cli_opts *g, const char *tool, const cc_merged *m,
                           const cc_finding_set *set);

/* "cucheck: <what>: 2 errors, 1 warning, 0 infos (5 occurrences)<tail>" on stderr, unless quiet. */
void cc_cli_print_summary(const cc_cli_opts *g, const char *what, const cc_merged *m,
                          const char *tail);

#endif
