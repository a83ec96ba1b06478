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

/* Read with cc_instr_config_read (the tool), cc_instr_options_check (its check_options) and
 * cc_instr_shared_config_parse (the agent). */

#endif
