/* Help texts: the overview (`cucheck --help`), per tool (from its option table), per command. */
#ifndef CUCHECK_CLI_HELP_H
#define CUCHECK_CLI_HELP_H

#include <stdio.h>
#include "cucheck/tool.h"

void cc_cli_help_main(FILE *out);
void cc_cli_help_tool(FILE *out, const cc_tool *tool);
void cc_cli_help_replay(FILE *out);
void cc_cli_help_dump(FILE *out);
void cc_cli_print_version(FILE *out);
/* An aligned, wrapped option table; skip_help_version leaves out --help and --version. */
void cc_cli_print_options(FILE *out, const cc_option_spec *table, int skip_help_version);
/* `cucheck help [NAME]`: prints the help of a tool or command; returns the exit status. */
int cc_cli_help_command(const char *name);

#endif
