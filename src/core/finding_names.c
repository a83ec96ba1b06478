/* Stable lower-case names of the findings model's enums (severity, access, memory space) and
 * their inverses. These names appear in every report format; never rename one. */
#include "cucheck/finding.h"
#include "core/finding_util.h"

#include <string.h>

static const char *const severity_names[] = {"info", "warning", "error"};
static const char *const access_names[] = {"none", "read", "write", "atomic"};
static const char *const space_names[] = {"none", "global", "shared", "local", "generic", "host"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *name_of(const char *const *names, size_t n, uint32_t v) {
    return v < n ? names[v] : "unknown";
}

static int from_name(const char *const *names, size_t n, const char *name, uint32_t *out) {
    if (!name) return -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], name) == 0) {
            *out = (uint32_t)i;
            return 0;
        }
    }
    return -1;
}

const char *cc_severity_name(uint32_t sev) { return name_of(severity_names, COUNT(severity_names), sev); }
const char *cc_access_name(uint32_t a) { return name_of(access_names, COUNT(access_names), a); }
const char *cc_mem_space_name(uint32_t s) { return name_of(space_names, COUNT(space_names), s); }

int cc_severity_from_name(const char *name, uint32_t *out) {
    return from_name(severity_names, COUNT(severity_names), name, out);
}
int cc_access_from_name(const char *name, uint32_t *out) {
    return from_name(access_names, COUNT(access_names), name, out);
}
int cc_mem_space_from_name(const char *name, uint32_t *out) {
    return from_name(space_names, COUNT(space_names), name, out);
}
