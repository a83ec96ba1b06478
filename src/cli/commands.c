/* The table of cucheck's subcommands (commands.h); tools are not listed here: they come from the
 * tool registry (cc_tool_list). */
#include "cli/commands.h"

#include <stddef.h>

const cc_cli_command cc_cli_commands[] = {
    {"replay", "run a tool over a recorded .cuevt file or a text scenario", NULL, cc_cmd_replay},
    {"dump", "print the events of a .cuevt file or scenario as text", NULL, cc_cmd_dump},
    {"occupancy", "occupancy of a kernel configuration, what-if curves and advice",
     cc_cmd_occupancy, NULL},
    {"inspect", "list the kernels, architectures and attributes inside a binary", cc_cmd_inspect,
     NULL},
    {"doctor", "check the setup: driver, GPU, toolkit, agent, conflicting tools", cc_cmd_doctor,
     NULL},
    {"merge", "combine per-rank profile traces into one timeline", cc_cmd_merge, NULL},
    {"help", "show the help of a tool or command ('cucheck help TOOL')", NULL, NULL},
    {NULL, NULL, NULL, NULL},
};
