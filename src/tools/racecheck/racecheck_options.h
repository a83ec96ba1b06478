/* racecheck's options, parsed in one place for the CLI's up-front check, the tool (replay and
 * live) and the agent's half of racecheck, which decides what runs with the race patches.
 * racecheck has only the options every instrumenting tool shares (tools/instr_options.h). */
#ifndef CUCHECK_TOOLS_RACECHECK_OPTIONS_H
#define CUCHECK_TOOLS_RACECHECK_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"
#include "tools/instr_options.h"

#define CC_RC_DEFAULT_CHECKS_PER_KERNEL CC_INSTR_DEFAULT_CHECKS_PER_KERNEL
#define CC_RC_MAX_CHECKS_PER_KERNEL CC_INSTR_MAX_CHECKS_PER_KERNEL

typedef cc_instr_config cc_racecheck_config;

extern const cc_option_spec cc_racecheck_option_specs[];

/* Fill cfg from a getter of option values (NULL = not given): the one parser and validator of
 * racecheck's options. 0, or -1 with one line in err (option, bad value, what is accepted). */
int cc_racecheck_config_read(cc_racecheck_config *cfg, cc_option_get get, void *ctx, char *err,
                             size_t errlen);
/* The tool's check_options: cc_racecheck_config_read into a scratch config. */
int cc_racecheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen);
/* The same from the encoded form of core/options.h (CUCHECK_OPTIONS), for the agent. */
int cc_racecheck_config_parse(cc_racecheck_config *cfg, const char *encoded, char *err,
                              size_t errlen);

#endif
