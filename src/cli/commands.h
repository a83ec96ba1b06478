/* The subcommands of cucheck and the table main.c dispatches on.
 * occupancy, inspect, doctor and merge live in their own files (cmd_occupancy.c, cmd_inspect.c,
 * cmd_doctor.c, cmd_merge.c); each gets argv[0] = its name and the words after it (global options
 * written before the command name are passed on after argv[0]), and returns the exit status. */
#ifndef CUCHECK_CLI_COMMANDS_H
#define CUCHECK_CLI_COMMANDS_H

#include "cucheck/tool.h"
#include "cli/cli_options.h"

int cc_cmd_occupancy(int argc, char **argv);
int cc_cmd_inspect(int argc, char **argv);
int cc_cmd_doctor(int argc, char **argv);
int cc_cmd_merge(int argc, char **argv); /* cmd_merge.c: combine per-rank profile traces */

/* Built-in commands that share the global options; argv[0] is the command or tool name. */
int cc_cmd_replay(cc_cli_opts *g, int argc, char **argv);
int cc_cmd_dump(cc_cli_opts *g, int argc, char **argv);
/* Run argv[0]'s tool over a program: parse tool options, spawn, collect, print, exit status. */
int cc_cmd_run(cc_cli_opts *g, const cc_tool *tool, int argc, char **argv);

typedef struct cc_cli_command {
    const char *name;
    const char *summary;
    int (*fn)(int argc, char **argv);                   /* standalone commands */
    int (*fn_opts)(cc_cli_opts *g, int argc, char **argv); /* commands using global options */
} cc_cli_command;

/* Terminated by an entry with name == NULL. */
extern const cc_cli_command cc_cli_commands[];

#endif
