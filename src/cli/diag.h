/* One-line diagnostics of the CLI on stderr, all prefixed "cucheck: ". */
#ifndef CUCHECK_CLI_DIAG_H
#define CUCHECK_CLI_DIAG_H

#if defined(__GNUC__)
#define CC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CC_PRINTF(a, b)
#endif

/* "cucheck: <message>\n" */
void cc_cli_error(const char *fmt, ...) CC_PRINTF(1, 2);
/* A command-line mistake: "cucheck: <cmd>: <message> (see 'cucheck <cmd> --help')\n";
 * cmd NULL gives "cucheck: <message> (see 'cucheck --help')". */
void cc_cli_usage_error(const char *cmd, const char *fmt, ...) CC_PRINTF(2, 3);

#endif
