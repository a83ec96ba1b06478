/* Which callbacks the agent enables: CUCHECK_TRACK (or the run tool's option `track`, which the
 * CLI passes in CUCHECK_OPTIONS) is "on"/"all" (the default), "off"/"none" (subscribe only),
 * "callbacks" (every callback enabled, each returning at once: the bare price of subscribing, the
 * baseline that benchmarks compare tracking against), or a comma list of groups: resource,
 * launch, memcpy, memset, sync, events, graphs, runtime, driver, stacks, apiwork; "api" is
 * runtime + driver; a group prefixed with '-' is removed ("on,-stacks"). "apiwork" enables only
 * the API calls whose parameters the tracking reads (without runtime and driver). Without a
 * setting each tool has its default: everything, but "on,-api,apiwork" for streamcheck. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "core/agent_env.h"
#include "core/options.h"
#include "agent/core/agent_knobs.h"

static const struct {
    const char *name;
    uint32_t bits;
} cc_track_groups[] = {
    {"on", CC_TRACK_ALL},           {"all", CC_TRACK_ALL},          {"off", 0},
    {"none", 0},                    {"resource", CC_TRACK_RESOURCE}, {"launch", CC_TRACK_LAUNCH},
    {"memcpy", CC_TRACK_MEMCPY},    {"memset", CC_TRACK_MEMSET},    {"sync", CC_TRACK_SYNC},
    {"events", CC_TRACK_EVENTS},    {"graphs", CC_TRACK_GRAPHS},    {"runtime", CC_TRACK_RUNTIME},
    {"driver", CC_TRACK_DRIVER},    {"api", CC_TRACK_RUNTIME | CC_TRACK_DRIVER},
    {"stacks", CC_TRACK_STACKS},    {"callbacks", CC_TRACK_ALL | CC_TRACK_IDLE},
    {"apiwork", CC_TRACK_APIWORK},
};

/* Parses spec; 0 on success with *out set. */
static int cc_track_parse(const char *spec, uint32_t *out)
{
    uint32_t bits = 0;
    const char *p = spec;
    if (*p == '\0') {
        return -1;
    }
    while (*p != '\0') {
        size_t n = strcspn(p, ",");
        int negate = n > 0 && p[0] == '-';
        const char *name = p + negate;
        size_t len = n - (size_t)negate;
        size_t i;
        for (i = 0; i < sizeof cc_track_groups / sizeof cc_track_groups[0]; i++) {
            if (strlen(cc_track_groups[i].name) == len &&
                strncmp(cc_track_groups[i].name, name, len) == 0) {
                break;
            }
        }
        if (i == sizeof cc_track_groups / sizeof cc_track_groups[0]) {
            return -1;
        }
        if (negate) {
            bits &= ~cc_track_groups[i].bits;
        } else {
            bits |= cc_track_groups[i].bits;
        }
        p += n;
        if (*p == ',') {
            p++;
        }
    }
    *out = bits;
    return 0;
}

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
    if (spec != NULL && cc_track_parse(spec, &bits) != 0) {
        fprintf(stderr, "cucheck: track='%s' is not 'on', 'off', 'callbacks' or a list of "
                        "resource, launch, memcpy, memset, sync, events, graphs, runtime, "
                        "driver, api, apiwork, stacks: using the default\n", spec);
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
