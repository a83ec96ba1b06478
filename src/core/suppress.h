/* Suppressions: a text file of rules, each a block of `key=glob` lines; a finding is suppressed
 * when every key of one rule matches it. The format is documented in docs/reports.md:
 *
 *   # comment
 *   kind=invalid-global-write      <- one rule: a block of lines
 *   kernel=add*
 *                                  <- a blank line ends a rule
 *   tool=streamcheck
 *   frame=*train.py:42*
 *
 * Keys: tool, kind, kernel, file (full path or base name), frame (any host frame's text; may be
 * repeated, each must match some frame), message. Globs: `*` any run, `?` one character, `\`
 * takes the next character literally. */
#ifndef CUCHECK_CORE_SUPPRESS_H
#define CUCHECK_CORE_SUPPRESS_H

#include <stddef.h>
#include "cucheck/finding.h"

typedef struct cc_suppressions cc_suppressions;

/* Read a suppressions file. NULL with "path:line: what" in err on a bad line or a read error. */
cc_suppressions *cc_suppressions_load(const char *path, char *err, size_t errlen);
/* The same from text in memory; `name` is used in error messages. */
cc_suppressions *cc_suppressions_parse(const char *text, const char *name, char *err, size_t errlen);
size_t cc_suppressions_count(const cc_suppressions *s); /* rules */
/* 1 if some rule matches f, 0 otherwise (also for s == NULL). */
int cc_suppressions_match(const cc_suppressions *s, const cc_finding *f);
void cc_suppressions_free(cc_suppressions *s);

/* Glob match of the whole string s against pattern (see above). */
int cc_glob_match(const char *pattern, const char *s);

#endif
