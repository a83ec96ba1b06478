/* Options after a tool name: each one is validated against the tool's cc_option_spec table
 * (tool options win over global options of the same name), otherwise it must be a global option;
 * then their values are checked by the tool's own check_options. */
#ifndef CUCHECK_CLI_TOOL_ARGS_H
#define CUCHECK_CLI_TOOL_ARGS_H

#include "cucheck/tool.h"
#include "core/options.h"
#include "cli/args.h"
#include "cli/cli_options.h"

/* Consume the option word `arg` (and its value): a tool option goes into `out` ("1" for a flag),
 * a global option into `g`. Returns a CC_GOPT_* code; CC_GOPT_ERROR after printing one line
 * (unknown option, missing value, value given to a flag, value with a newline). cmd names the
 * command in messages (the tool name, or "replay"). */
int cc_cli_take_tool_option(const cc_tool *tool, cc_options *out, cc_cli_opts *g, cc_args *a,
                            const cc_arg *arg, const char *cmd);

/* Check the values in `opts` with the tool's check_options, the one parser of its options (the
 * session and the agent use the same). 0, or -1 after printing one line
 * "cucheck: CMD: option '--x' does not accept 'v' (expected ...)". */
int cc_cli_check_tool_options(const cc_tool *tool, const cc_options *opts, const char *cmd);

#endif
