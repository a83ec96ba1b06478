/* Checking one tool option value (core/option_values.h): choices, on/off switches, bounded
 * whole numbers, non-empty text and output file patterns, each refused with one line that names
 * the option, the value and what is accepted. */
#include "core/option_values.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/report.h"

#define SHOWN_VALUE_MAX 100 /* longer values are cut in messages */
#define PATTERN_MAX 4096    /* as the longest path a tool writes */

int cc_optval_refuse(const char *option, const char *value, const char *expected, char *err,
                     size_t errlen)
{
    const char *v = value ? value : "";
    int cut = strlen(v) > SHOWN_VALUE_MAX;
    snprintf(err, errlen, "option '--%s' does not accept '%.*s%s' (expected %s)", option,
             SHOWN_VALUE_MAX, v, cut ? "..." : "", expected);
    return -1;
}

int cc_optval_choice(const char *option, const char *value, const char *const *names, int *index,
                     char *err, size_t errlen)
{
    size_t n = 0;
    for (; names[n]; n++) {
        if (value && strcmp(value, names[n]) == 0) {
            *index = (int)n;
            return 0;
        }
    }
    char expected[512] = "";
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof expected; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(expected + k, sizeof expected - k, "%s%s", sep, names[i]);
        if (w < 0) break;
        k += (size_t)w;
    }
    return cc_optval_refuse(option, value, expected, err, errlen);
}

int cc_optval_switch(const char *option, const char *value, int *on, char *err, size_t errlen)
{
    static const char *const names[] = {"on", "off", NULL};
    int i = 0;
    if (cc_optval_choice(option, value, names, &i, err, errlen) != 0) return -1;
    *on = i == 0;
    return 0;
}

int cc_optval_uint(const char *option, const char *value, uint64_t min, uint64_t max,
                   uint64_t *out, char *err, size_t errlen)
{
    int ok = value != NULL && value[0] != '\0';
    for (const char *p = value; ok && *p; p++) ok = *p >= '0' && *p <= '9';
    unsigned long long n = 0;
    if (ok) {
        errno = 0;
        n = strtoull(value, NULL, 10);
        ok = errno == 0 && n >= min && n <= max;
    }
    if (ok) {
        *out = (uint64_t)n;
        return 0;
    }
    char expected[128];
    if (max == UINT64_MAX)
        snprintf(expected, sizeof expected, "a whole number, %" PRIu64 " or more", min);
    else
        snprintf(expected, sizeof expected, "a whole number from %" PRIu64 " to %" PRIu64, min,
                 max);
    return cc_optval_refuse(option, value, expected, err, errlen);
}

int cc_optval_text(const char *option, const char *value, size_t maxlen, const char *what,
                   char *err, size_t errlen)
{
    if (value != NULL && value[0] != '\0' && strlen(value) <= maxlen) return 0;
    char expected[256];
    snprintf(expected, sizeof expected, "%s of 1 to %zu characters", what, maxlen);
    return cc_optval_refuse(option, value, expected, err, errlen);
}

int cc_optval_output_pattern(const char *option, const char *value, char *err, size_t errlen)
{
    if (cc_optval_text(option, value, PATTERN_MAX - 1, "a file name", err, errlen) != 0)
        return -1;
    char expanded[PATTERN_MAX];
    if (cc_expand_report_name(value, 1, expanded, sizeof expanded) != 0)
        return cc_optval_refuse(option, value,
                                "a file name in which every %q{VAR} is closed by '}'",
                                err, errlen);
    const char *slash = strrchr(value, '/');
    if (slash == NULL) return 0; /* the current directory */
    size_t dirlen = slash == value ? 1 : (size_t)(slash - value);
    if (memchr(value, '%', dirlen) != NULL) return 0; /* known only in each process */
    char dir[PATTERN_MAX];
    memcpy(dir, value, dirlen);
    dir[dirlen] = '\0';
    struct stat st;
    const char *why = NULL;
    if (stat(dir, &st) != 0) why = strerror(errno);
    else if (!S_ISDIR(st.st_mode)) why = "not a directory";
    if (why == NULL) return 0;
    char expected[256];
    snprintf(expected, sizeof expected, "a file in an existing directory; '%.*s': %s",
             SHOWN_VALUE_MAX, dir, why);
    return cc_optval_refuse(option, value, expected, err, errlen);
}
