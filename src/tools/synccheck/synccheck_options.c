/* synccheck's options (synccheck_options.h): its help table; the options are the
 * ones every instrumenting tool shares, read by tools/instr_options.c for the tool's
 * check_options, its init and the agent's half of synccheck. */
#include "tools/synccheck/synccheck_options.h"

const cc_option_spec cc_synccheck_option_specs[] = {
    {"mode", 1, "full|adaptive",
     "adaptive (default): check each kernel on its first launches per launch shape, then run "
     "its module unpatched; full: check every launch"},
    CC_INSTR_CHECKS_PER_KERNEL_SPEC,
    CC_INSTR_SELECTION_SPECS,
    {NULL, 0, NULL, NULL},
};
