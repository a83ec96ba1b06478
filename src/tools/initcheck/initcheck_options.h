/* initcheck's options, parsed in one place for the CLI's up-front check, the tool (replay and
 * live) and the agent's half of initcheck, which decides what runs with the initialisation
 * patches: those every instrumenting tool shares (tools/instr_options.h) and
 * --track-unused-memory. */
#ifndef CUCHECK_TOOLS_INITCHECK_OPTIONS_H
#define CUCHECK_TOOLS_INITCHECK_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"
#include "tools/instr_options.h"

typedef struct cc_initcheck_config {
    cc_instr_config instr;      /* --mode, --checks-per-kernel, kernel selection, launch window */
    int track_unused;           /* --track-unused-memory */
} cc_initcheck_config;

extern const cc_option_spec cc_initcheck_option_specs[];

/* Fill cfg from a getter of option values (NULL = not given): the one parser and validator of
 * initcheck's options. 0, or -1 with one line in err (option, bad value, what is accepted). */
int cc_initcheck_config_read(cc_initcheck_config *cfg, cc_option_get get, void *ctx, char *err,
                             size_t errlen);
/* The tool's check_options: cc_initcheck_config_read into a scratch config. */
int cc_initcheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen);
/* The same from the encoded form of core/options.h (CUCHECK_OPTIONS), for the agent. */
int cc_initcheck_config_parse(cc_initcheck_config *cfg, const char *encoded, char *err,
                              size_t errlen);

#endif
