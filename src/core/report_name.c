/* Per-process report file names: expands %p (process id), %q{VAR} (an environment variable,
 * empty if unset, e.g. %q{RANK} under torchrun), %r ("rank<R>." for a process whose launcher
 * names its rank, core/rank_env.h; nothing otherwise) and %% in a pattern. Any other %x is kept
 * as is. */
#include "core/report.h"
#include "core/rank_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int put(char *out, size_t outlen, size_t *k, const char *s, size_t n) {
    if (n >= outlen - *k) return -1; /* keep room for the terminating NUL */
    memcpy(out + *k, s, n);
    *k += n;
    return 0;
}

int cc_expand_report_name(const char *pattern, int pid, char *out, size_t outlen) {
    if (!pattern || !out || outlen == 0) return -1;
    size_t k = 0;
    out[0] = '\0';
    for (const char *p = pattern; *p;) {
        if (p[0] != '%' || p[1] == '\0') {
            if (put(out, outlen, &k, p, 1)) goto overflow;
            p++;
            continue;
        }
        if (p[1] == '%') {
            if (put(out, outlen, &k, "%", 1)) goto overflow;
            p += 2;
        } else if (p[1] == 'p') {
            char num[24];
            int n = snprintf(num, sizeof num, "%d", pid);
            if (put(out, outlen, &k, num, (size_t)n)) goto overflow;
            p += 2;
        } else if (p[1] == 'r') {
            int rank = cc_rank_from_env();
            char tag[32];
            int n = rank >= 0 ? snprintf(tag, sizeof tag, "rank%d.", rank) : 0;
            if (put(out, outlen, &k, tag, (size_t)n)) goto overflow;
            p += 2;
        } else if (p[1] == 'q' && p[2] == '{') {
            const char *close = strchr(p + 3, '}');
            if (!close) goto bad;
            size_t n = (size_t)(close - (p + 3));
            char name[256];
            if (n >= sizeof name) goto bad;
            memcpy(name, p + 3, n);
            name[n] = '\0';
            const char *val = n ? getenv(name) : NULL;
            if (val && put(out, outlen, &k, val, strlen(val))) goto overflow;
            p = close + 1;
        } else {
            if (put(out, outlen, &k, p, 2)) goto overflow;
            p += 2;
        }
    }
    out[k] = '\0';
    return 0;
overflow:
bad:
    out[k < outlen ? k : outlen - 1] = '\0';
    return -1;
}
