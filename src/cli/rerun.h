/* The second run of `cucheck run` (docs/agent.md "Exact attribution by a second run"): after
 * the program ended, when its own process (not one it started) reported an asynchronous error
 * whose attribution left several candidate launches, the program runs once more, quietly and
 * under a time limit, with progress marks on those launches only; the first run's finding is
 * then made exact, or says why it was not. The program's output and exit status stay the first
 * run's. The findings' part is tools/async_error/rerun.h. */
#ifndef CUCHECK_CLI_RERUN_H
#define CUCHECK_CLI_RERUN_H

#include <stddef.h>
#include "core/options.h"
#include "cucheck/tool.h"
#include "tools/async_error/rerun.h"
#include "cli/cli_options.h"
#include "cli/merge.h"
#include "cli/reports.h"
#include "cli/spawn.h"

typedef struct cc_rerun_run {
    const cc_cli_opts *g;
    const cc_report_place *place; /* the first run's reports */
    char *const *argv;            /* the program and its arguments */
    const cc_spawn_result *first; /* how the first run ended: its pid, time and status */
} cc_rerun_run;

/* The findings that replaced merged ones: freed after they were printed. */
typedef struct cc_rerun_kept {
    cc_rerun_finding *items;
    size_t n;
} cc_rerun_kept;

/* 1 if a run of tool with these options may run the program a second time: the run tool with
 * --rerun on (the default) and without --progress on. */
int cc_cli_rerun_enabled(const cc_tool *tool, const cc_options *opts);

/* Before the merged findings are printed: run tool `async-error` findings with several
 * candidates are replaced in m by the second run's answer, or annotated with why there is none
 * (a child process's error). Nothing happens when the program was stopped by the user (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGKILL) or ran with CUCHECK_PROGRESS on (its marks were on). */
void cc_cli_rerun(const cc_rerun_run *r, cc_merged *m, cc_rerun_kept *kept);
void cc_cli_rerun_kept_free(cc_rerun_kept *kept);

#endif
