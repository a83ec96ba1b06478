/* Where the per-process reports go and how they come back: the run's id (random, handed to the
 * agent, written in every report header and in the default report names), the report directory
 * (a fresh temporary one unless --report-dir), the absolute per-process path pattern handed to
 * the agent, and after the run the collection of every report file the pattern can have
 * produced, reading only the sections of this run, so that a reused directory, a fixed
 * --report-file or a pid that repeats never mixes runs. */
#ifndef CUCHECK_CLI_REPORTS_H
#define CUCHECK_CLI_REPORTS_H

#include <stddef.h>
#include <sys/types.h>
#include "core/report.h"
#include "cli/cli_options.h"

typedef struct cc_report_place {
    char dir[4096];      /* report directory ("" if the pattern alone says where) */
    int dir_is_temp;     /* created by us: removed at the end unless --keep-reports */
    char pattern[4096];  /* absolute per-process JSONL pattern (%p, %q{VAR}, %%) */
    char glob[8192];     /* glob(3) pattern matching every expansion of `pattern` */
    char run_id[33];     /* this run's id: hex digits */
} cc_report_place;

/* Turn a file name pattern (%p, %q{VAR}, %r, %%) into a glob(3) pattern: expansions become '*',
 * glob characters of the literal text are escaped. 0 on success. */
int cc_cli_pattern_glob(const char *pat, char *out, size_t outlen);
/* Make `rel` absolute against the current directory; 0 on success. */
int cc_cli_absolute(const char *rel, char *out, size_t outlen);

/* Choose the run id, create the directory (if needed) and the pattern; 0, or -1 with a message
 * in err (also when a fixed report file name is taken, core/owned_file.h). */
int cc_reports_prepare(cc_report_place *p, const cc_cli_opts *g, char *err, size_t errlen);
/* Load the sections of this run from every report file the pattern matches into s. Returns the
 * number of files that held any; damage is reported on stderr (one line per file, every
 * record that reads is kept). */
size_t cc_reports_collect(cc_report_place *p, cc_finding_set *s, int verbose);
/* Remove a temporary directory (unless keep). */
void cc_reports_finish(cc_report_place *p, int keep, int quiet);

#endif
