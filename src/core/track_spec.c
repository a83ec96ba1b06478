/* The track list parser (core/track_spec.h): group names, their bits, and the comma list. */
#include "core/track_spec.h"

#include <string.h>

static const struct {
    const char *name;
    uint32_t bits;
} track_groups[] = {
    {"on", CC_TRACK_ALL},
    {"all", CC_TRACK_ALL},
    {"off", 0},
    {"none", 0},
    {"callbacks", CC_TRACK_ALL | CC_TRACK_IDLE},
    {"resource", CC_TRACK_RESOURCE},
    {"launch", CC_TRACK_LAUNCH},
    {"memcpy", CC_TRACK_MEMCPY},
    {"memset", CC_TRACK_MEMSET},
    {"sync", CC_TRACK_SYNC},
    {"events", CC_TRACK_EVENTS},
    {"graphs", CC_TRACK_GRAPHS},
    {"runtime", CC_TRACK_RUNTIME},
    {"driver", CC_TRACK_DRIVER},
    {"api", CC_TRACK_RUNTIME | CC_TRACK_DRIVER},
    {"apiwork", CC_TRACK_APIWORK},
    {"stacks", CC_TRACK_STACKS},
};

const char cc_track_spec_expected[] =
    "on, off, callbacks, or a comma list of resource, launch, memcpy, memset, sync, events, "
    "graphs, runtime, driver, api, apiwork, stacks, each removed when written with a '-' before "
    "it";

int cc_track_spec_parse(const char *spec, uint32_t *bits)
{
    const size_t ngroups = sizeof track_groups / sizeof track_groups[0];
    uint32_t acc = 0;
    const char *p = spec;
    if (p == NULL || *p == '\0') {
        return -1;
    }
    for (;;) {
        size_t n = strcspn(p, ",");
        int negate = n > 0 && p[0] == '-';
        const char *name = p + negate;
        size_t len = n - (size_t)negate;
        size_t i = 0;
        while (i < ngroups && !(strlen(track_groups[i].name) == len &&
                                strncmp(track_groups[i].name, name, len) == 0)) {
            i++;
        }
        if (i == ngroups) {
            return -1; /* unknown or empty group */
        }
        acc = negate ? acc & ~track_groups[i].bits : acc | track_groups[i].bits;
        if (p[n] == '\0') {
            break;
        }
        p += n + 1;
    }
    *bits = acc;
    return 0;
}
