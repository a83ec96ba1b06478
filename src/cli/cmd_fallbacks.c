/* Weak stand-ins for the subcommands built in their own files (cmd_occupancy.c, cmd_inspect.c,
 * cmd_doctor.c): when such a file is part of the build its strong definition replaces the one
 * here; otherwise the command says it is not built. */
#include "cli/commands.h"

#include <stdio.h>

static int not_built(const char *cmd)
{
    fprintf(stderr, "cucheck: %s is not built in this version\n", cmd);
    return 2;
}

__attribute__((weak)) int cc_cmd_occupancy(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_built("occupancy");
}

__attribute__((weak)) int cc_cmd_inspect(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_built("inspect");
}

__attribute__((weak)) int cc_cmd_doctor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_built("doctor");
}
