/* synccheck's options, parsed in one place for the CLI's up-front check, the tool (replay and
 * live) and the agent's half of synccheck, which decides what runs with the synchronization
 * patches. synccheck has only the options every instrumenting tool shares
 * (tools/instr_options.h). */
#ifndef CUCHECK_TOOLS_SYNCCHECK_OPTIONS_H
#define CUCHECK_TOOLS_SYNCCHECK_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"
#include "tools/instr_options.h"

typedef cc_instr_config cc_synccheck_config;

extern const cc_option_spec cc_synccheck_option_specs[];

/* Read with cc_instr_config_read (the tool), cc_instr_options_check (its check_options) and
 * cc_instr_shared_config_parse (the agent). */

#endif
