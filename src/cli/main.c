/* cucheck's entry point: global options, then dispatch to a tool (run a program), a built-in
 * command (replay, dump, help) or a standalone command (occupancy, inspect, doctor). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cucheck/tool.h"
#include "cli/args.h"
#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli/diag.h"
#include "cli/help.h"

/* argv for a standalone command: its name, the global option words written before it, then
 * the words after it. */
static int run_standalone(const cc_cli_command *c, int argc, char **argv, int cmd_idx)
{
    char **sub = calloc((size_t)argc + 1, sizeof *sub);
    if (!sub) {
        cc_cli_error("out of memory");
        return 2;
    }
    int n = 0;
    sub[n++] = argv[cmd_idx];
    for (int i = 1; i < cmd_idx; i++) {
        sub[n++] = argv[i];
    }
    for (int i = cmd_idx + 1; i < argc; i++) {
        sub[n++] = argv[i];
    }
    sub[n] = NULL;
    int rc = c->fn(n, sub);
    free(sub);
    return rc;
}

/* compute-sanitizer's form `cucheck [options] --tool NAME [options] [--] PROGRAM`: the words
 * after --tool NAME are the tool's, as if they followed the tool name. */
static int run_tool_alias(cc_cli_opts *g, int argc, char **argv, int next)
{
    char **sub = calloc((size_t)argc + 2, sizeof *sub);
    if (!sub) {
        cc_cli_error("out of memory");
        return 2;
    }
    int n = 0;
    sub[n++] = (char *)g->tool_alias;
    for (int i = next; i < argc; i++) {
        sub[n++] = argv[i];
    }
    sub[n] = NULL;
    int rc = cc_cmd_run(g, cc_tool_find(g->tool_alias), n, sub);
    free(sub);
    return rc;
}

int main(int argc, char **argv)
{
    cc_cli_opts g;
    cc_cli_opts_init(&g);
    cc_args a;
    cc_args_init(&a, argc, argv, 1);
    const char *cmd = NULL;
    for (;;) {
        cc_arg arg;
        int t = cc_args_next(&a, &arg);
        if (t == CC_ARG_END || t == CC_ARG_DASHDASH) {
            cc_cli_usage_error(NULL, "no tool or command given (try 'cucheck run -- PROGRAM')");
            return 2;
        }
        if (t == CC_ARG_POSITIONAL) {
            cmd = arg.word;
            break;
        }
        int r = cc_cli_take_global(&g, &a, &arg, NULL);
        if (r == CC_GOPT_NOT_GLOBAL) {
            cc_cli_usage_error(NULL, "unknown option '%s%s'", arg.is_short ? "-" : "--",
                               arg.name);
            return 2;
        }
        if (r == CC_GOPT_ERROR) {
            return 2;
        }
        if (r == CC_GOPT_TOOL) {
            return run_tool_alias(&g, argc, argv, a.idx);
        }
        if (r == CC_GOPT_HELP) {
            cc_cli_help_main(stdout);
            return 0;
        }
        if (r == CC_GOPT_VERSION) {
            cc_cli_print_version(stdout);
            return 0;
        }
    }
    int cmd_idx = a.idx - 1;
    int sub_argc = argc - cmd_idx;
    char **sub_argv = argv + cmd_idx;

    if (strcmp(cmd, "help") == 0) {
        return cc_cli_help_command(sub_argc > 1 ? sub_argv[1] : NULL);
    }
    for (const cc_cli_command *c = cc_cli_commands; c->name; c++) {
        if (strcmp(c->name, cmd) != 0) {
            continue;
        }
        if (c->fn_opts) {
            return c->fn_opts(&g, sub_argc, sub_argv);
        }
        if (c->fn) {
            return run_standalone(c, argc, argv, cmd_idx);
        }
    }
    const cc_tool *tool = cc_tool_find(cmd);
    if (tool) {
        return cc_cmd_run(&g, tool, sub_argc, sub_argv);
    }
    cc_cli_usage_error(NULL, "unknown tool or command '%s'", cmd);
    return 2;
}
