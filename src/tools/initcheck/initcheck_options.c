/* initcheck's options (initcheck_options.h): its help table, and the shared parser of the
 * instrumenting tools' options (tools/instr_options.c) plus --track-unused-memory, behind the
 * tool's check_options, its init and the agent's half of initcheck. */
#include <stdio.h>
#include <string.h>
#include "tools/initcheck/initcheck_options.h"

const cc_option_spec cc_initcheck_option_specs[] = {
    {"mode", 1, "full|adaptive",
     "adaptive (default): check each kernel on its first launches per launch shape (the others "
     "are taken as writing every allocation of their context), then run its module unpatched; "
     "full: check every launch"},
    CC_INSTR_CHECKS_PER_KERNEL_SPEC,
    CC_INSTR_SELECTION_SPECS,
    {"track-unused-memory", 0, NULL,
     "report device allocations (or bytes of them) never written, when they are freed or at "
     "exit"},
    {NULL, 0, NULL, NULL},
};

int cc_initcheck_config_read(cc_initcheck_config *cfg, cc_option_get get, void *ctx, char *err,
                             size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    if (cc_instr_config_read(&cfg->instr, get, ctx, err, errlen) != 0) {
        return -1;
    }
    const char *v = get(ctx, "track-unused-memory");
    if (v != NULL) {
        if (strcmp(v, "1") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "") == 0) {
            cfg->track_unused = 1;
        } else if (strcmp(v, "no") != 0 && strcmp(v, "0") != 0) {
            snprintf(err, errlen, "option '--track-unused-memory' does not accept '%s' (it is a "
                                  "flag)", v);
            return -1;
        }
    }
    return 0;
}

int cc_initcheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_initcheck_config cfg;
    return cc_initcheck_config_read(&cfg, get, ctx, err, errlen);
}

static int read_config(void *cfg, cc_option_get get, void *ctx, char *err, size_t errlen)
{
    return cc_initcheck_config_read(cfg, get, ctx, err, errlen);
}

int cc_initcheck_config_parse(cc_initcheck_config *cfg, const char *encoded, char *err,
                              size_t errlen)
{
    return cc_instr_config_parse(cfg, read_config, encoded, err, errlen);
}
