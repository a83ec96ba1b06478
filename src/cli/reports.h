/* Where the per-process reports go and how they come back: the report directory (a fresh
 * temporary one unless --report-dir), the absolute per-process path pattern handed to the agent,
 * and after the run the collection of every report file the pattern can have produced. Files
 * that matched the pattern before the run and did not change are left out, so a reused
 * directory does not mix runs. */
#ifndef CUCHECK_CLI_REPORTS_H
#define CUCHECK_CLI_REPORTS_H

#include <stddef.h>
#include <sys/types.h>
#include "core/report.h"
#include "cli/cli_options.h"

typedef struct cc_report_old cc_report_old;

typedef struct cc_report_place {
    char dir[4096];      /* report directory ("" if the pattern alone says where) */
    int dir_is_temp;     /* created by us: removed at the end unless --keep-reports */
    char pattern[4096];  /* absolute per-process JSONL pattern (%p, %q{VAR}, %%) */
    char glob[8192];     /* glob(3) pattern matching every expansion of `pattern` */
    cc_report_old *old;  /* files that matched before the run */
    size_t nold;
} cc_report_place;

/* Make `rel` absolute against the current directory; 0 on success. */
int cc_cli_absolute(const char *rel, char *out, size_t outlen);

/* Create the directory (if needed) and the pattern; 0, or -1 with a message in err. */
int cc_reports_prepare(cc_report_place *p, const cc_cli_opts *g, char *err, size_t errlen);
/* Load every report written since cc_reports_prepare into s. Returns the number of files read;
 * a file that is malformed is reported on stderr (its findings up to the error are kept). */
size_t cc_reports_collect(cc_report_place *p, cc_finding_set *s, int verbose);
/* Remove a temporary directory (unless keep) and free what prepare allocated. */
void cc_reports_finish(cc_report_place *p, int keep, int quiet);

#endif
