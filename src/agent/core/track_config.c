/* Which callbacks the agent enables: CUCHECK_TRACK, else the run tool's option `track` (passed in
 * CUCHECK_OPTIONS), parsed by core/track_spec.c; without either, the tool plug-in's default.
 * And on/off switches read the same way (an environment knob, else a tool option). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "core/agent_env.h"
#include "core/options.h"
#include "agent/core/agent_knobs.h"

uint32_t cc_agent_track_config(uint32_t dflt)
{
    if (dflt == 0) {
        dflt = CC_TRACK_ALL;
    }
    const char *spec = cc_knob_get(CC_KNOB_TRACK);
    cc_options *opts = NULL;
    if (spec == NULL || spec[0] == '\0') {
        opts = cc_options_parse(getenv(CC_ENV_OPTIONS));
        spec = opts != NULL ? cc_options_get(opts, "track") : NULL;
    }
    uint32_t bits = dflt;
    if (spec != NULL && cc_track_spec_parse(spec, &bits) != 0) {
        fprintf(stderr, "cucheck: track='%s' is not %s: using the default\n", spec,
                cc_track_spec_expected);
        bits = dflt;
    }
    cc_options_free(opts);
    return bits;
}

int cc_agent_switch(const char *env, const char *name, int dflt)
{
    const char *v = getenv(env);
    cc_options *opts = NULL;
    if (v == NULL || v[0] == '\0') {
        opts = cc_options_parse(getenv(CC_ENV_OPTIONS));
        v = opts != NULL ? cc_options_get(opts, name) : NULL;
    }
    int on = dflt;
    if (v != NULL && (strcmp(v, "on") == 0 || strcmp(v, "1") == 0)) {
        on = 1;
    } else if (v != NULL && (strcmp(v, "off") == 0 || strcmp(v, "0") == 0)) {
        on = 0;
    } else if (v != NULL) {
        fprintf(stderr, "cucheck: %s='%s' is not 'on' or 'off': using '%s'\n", name, v,
                dflt ? "on" : "off");
    }
    cc_options_free(opts);
    return on;
}
