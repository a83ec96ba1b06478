/* synccheck's options (synccheck_options.h): its help table, and the shared parser of the
 * instrumenting tools' options (tools/instr_options.c) behind the tool's check_options, its init
 * and the agent's half of synccheck. */
#include "tools/synccheck/synccheck_options.h"

const cc_option_spec cc_synccheck_option_specs[] = {
    {"mode", 1, "full|adaptive",
     "adaptive (default): check each kernel on its first launches per launch shape, then run "
     "its module unpatched; full: check every launch"},
    CC_INSTR_CHECKS_PER_KERNEL_SPEC,
    CC_INSTR_SELECTION_SPECS,
    {NULL, 0, NULL, NULL},
};

int cc_synccheck_config_read(cc_synccheck_config *cfg, cc_option_get get, void *ctx, char *err,
                             size_t errlen)
{
    return cc_instr_config_read(cfg, get, ctx, err, errlen);
}

int cc_synccheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_synccheck_config cfg;
    return cc_synccheck_config_read(&cfg, get, ctx, err, errlen);
}

static int read_config(void *cfg, cc_option_get get, void *ctx, char *err, size_t errlen)
{
    return cc_synccheck_config_read(cfg, get, ctx, err, errlen);
}

int cc_synccheck_config_parse(cc_synccheck_config *cfg, const char *encoded, char *err,
                              size_t errlen)
{
    return cc_instr_config_parse(cfg, read_config, encoded, err, errlen);
}
