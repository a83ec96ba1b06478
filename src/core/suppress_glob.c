/* Glob matching for suppression rules: `*` matches any run of characters (slashes included),
 * `?` exactly one, `\` makes the next character literal. No character classes: kernel names
 * such as operator[] must match literally. Linear backtracking on the last `*`. */
#include "core/suppress.h"

int cc_glob_match(const char *pat, const char *s) {
    const char *star = NULL, *resume = NULL;
    if (!pat || !s) return 0;
    while (*s) {
        if (*pat == '*') {
            while (*pat == '*') pat++;
            if (!*pat) return 1;
            star = pat;
            resume = s;
            continue;
        }
        const char *p = pat;
        int lit = 0;
        if (*p == '\\' && p[1]) {
            p++;
            lit = 1;
        }
        if (*p && ((!lit && *p == '?') || *p == *s)) {
            pat = p + 1;
            s++;
            continue;
        }
        if (!star) return 0;
        pat = star;
        s = ++resume;
    }
    while (*pat == '*') pat++;
    return *pat == '\0';
}
