/* Finding the agent library (libcucheck_agent.so) that cucheck injects into the program. */
#ifndef CUCHECK_CLI_AGENT_LOCATE_H
#define CUCHECK_CLI_AGENT_LOCATE_H

#include <stddef.h>

/* Search order: $CUCHECK_AGENT (must name an existing file), then
 * <dir of the cucheck executable>/src/agent/libcucheck_agent.so (build tree), then
 * <dir>/<agent folder relative to the install's bin folder>/libcucheck_agent.so (install tree:
 * ../lib/cucheck, or as GNUInstallDirs placed it). Writes the absolute path to out and
 * returns 0, or returns -1 with a one-line reason in err. */
int cc_cli_locate_agent(char *out, size_t outlen, char *err, size_t errlen);

#endif
