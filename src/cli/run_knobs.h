/* The agent's environment knobs in a run (core/agent_knobs.inc, docs/agent.md): `--knob
 * VAR=VALUE` sets one for the program; the knobs users set (user settings and diagnostics that
 * say what they do) pass on from cucheck's environment; every other knob (measuring aids, and
 * variables the agent sets for its children) is removed from the environment the program
 * inherits, so that one exported in a shell cannot change what a run checks. */
#ifndef CUCHECK_CLI_RUN_KNOBS_H
#define CUCHECK_CLI_RUN_KNOBS_H

#include <stddef.h>

/* `--knob VAR=VALUE` (the last one given for a variable wins; an empty VALUE removes the
 * variable). 0, or -1 after a one-line usage message naming cmd (NULL at the top level). */
int cc_cli_knob_option(const char *assignment, const char *cmd);

/* Prepares the knobs of this process's environment, which the program inherits: sets those
 * given with --knob, keeps user settings, removes the rest (saying so in one line on stderr for
 * each measuring aid that was set). 0, or -1 with a message in err. */
int cc_cli_knobs_env(char *err, size_t errlen);

#endif
