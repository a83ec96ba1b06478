/* The second run of `cucheck run` after an asynchronous error with several candidates
 * (rerun.h): which findings it is for, the run itself (its own report directory and run id,
 * no recording, the agent told which launches to mark) and its verdict put into the findings. */
#include "cli/rerun.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/agent_env.h"
#include "core/report.h"
#include "tools/run/run_options.h"
#include "cli/diag.h"

/* The agent's knobs the second run sets (the table: src/core/agent_knobs.inc). */
#define KNOB_PROGRESS "CUCHECK_PROGRESS"
#define KNOB_PROGRESS_LAUNCHES "CUCHECK_PROGRESS_LAUNCHES"

#define NOT_RUN_AGAIN "not run again to name the launch"
#define NOT_NAMED "a second run with progress marks on the candidates did not name one"

int cc_cli_rerun_enabled(const cc_tool *tool, const cc_options *opts)
{
    if (strcmp(tool->name, "run") != 0) {
        return 0;
    }
    cc_run_options o;
    char err[256];
    if (cc_run_options_read(&o, cc_options_getter, (void *)opts, err, sizeof err) != 0 ||
        !o.rerun || o.progress) {
        return 0;
    }
    return 1;
}

/* CUCHECK_PROGRESS on in the program's environment (the user's, or --knob): the first run had
 * its marks already. */
static int progress_was_on(void)
{
    const char *env = getenv(KNOB_PROGRESS);
    return env != NULL && (strcmp(env, "on") == 0 || strcmp(env, "1") == 0);
}

/* A signal by which the user stops a program: it is not run again. */
static int stopped_by_user(int signo)
{
    return signo == SIGINT || signo == SIGTERM || signo == SIGHUP || signo == SIGQUIT ||
           signo == SIGKILL;
}

static int is_run_async_error(const cc_finding *f)
{
    return f->tool != NULL && strcmp(f->tool, "run") == 0 && f->kind != NULL &&
           strcmp(f->kind, "async-error") == 0;
}

/* The `async-error` finding of the report of process pid under place, loaded into *set (the
 * caller frees it); NULL when there is none. *reported: the process wrote a report. */
static const cc_finding *process_error(const cc_report_place *place, long pid,
                                       cc_finding_set **set, int *reported)
{
    char path[4096], err[512] = "";
    size_t sections = 0;
    *reported = 0;
    *set = cc_finding_set_new();
    if (*set == NULL || cc_expand_report_name(place->pattern, (int)pid, path, sizeof path) != 0 ||
        cc_finding_set_load_report(*set, path, place->run_id, &sections, err, sizeof err) < 0) {
        return NULL;
    }
    *reported = sections > 0;
    for (size_t i = 0; i < cc_finding_set_size(*set); i++) {
        const cc_finding *f = cc_finding_set_get(*set, i);
        if (is_run_async_error(f)) {
            return f;
        }
    }
    return NULL;
}

/* In the second run's child, before the exec: the launches to mark, for this pid only. */
static void set_launch_list(void *arg)
{
    char list[CC_ASYNC_MAX_CANDIDATES * 48 + 32];
    if (cc_rerun_launch_list(arg, (long)getpid(), list, sizeof list) == 0) {
        setenv(KNOB_PROGRESS_LAUNCHES, list, 1);
    }
}

/* Run the program again for plan; the outcome's error is in *set (the caller frees it). */
static void second_run(const cc_rerun_run *r, const cc_rerun_plan *plan, cc_rerun_outcome *o,
                       cc_finding_set **set)
{
    memset(o, 0, sizeof *o);
    *set = NULL;
    o->end = CC_RERUN_NOT_STARTED;
    o->limit_s = 2.0 * r->first->wall_s + 10.0;
    cc_cli_opts g = *r->g;
    g.report_dir = NULL; /* a temporary directory of its own, whatever the first run used */
    g.report_file = NULL;
    cc_report_place place;
    char err[1024];
    if (cc_reports_prepare(&place, &g, err, sizeof err) != 0) {
        cc_cli_error("second run: %s", err);
        return;
    }
    if (setenv(CC_ENV_REPORT, place.pattern, 1) != 0 ||
        setenv(CC_ENV_RUN_ID, place.run_id, 1) != 0 || setenv(CC_ENV_QUIET, "1", 1) != 0 ||
        unsetenv(CC_ENV_RECORD) != 0 || unsetenv(KNOB_PROGRESS) != 0) {
        cc_reports_finish(&place, 0, 1);
        return;
    }
    if (!r->g->quiet) {
        cc_cli_error("run: the asynchronous error left %zu candidate %s; running the program a "
                     "second time (its output discarded, at most %.0f s) with progress marks on "
                     "them to name the faulting one (--rerun off runs it once)",
                     plan->n, plan->graph ? "graph nodes" : "launches", o->limit_s);
    }
    cc_spawn_result res;
    cc_spawn_end end;
    if (cc_spawn_quiet(r->argv, o->limit_s, set_launch_list, (void *)plan, &res, &end) == 0 &&
        res.exec_errno == 0) {
        o->end = end == CC_SPAWN_TIMED_OUT     ? CC_RERUN_TIMED_OUT
                 : end == CC_SPAWN_INTERRUPTED ? CC_RERUN_INTERRUPTED
                                               : CC_RERUN_ENDED;
        o->error = process_error(&place, res.pid, set, &o->reported);
    }
    cc_reports_finish(&place, r->g->keep_reports, r->g->quiet);
}

void cc_cli_rerun(const cc_rerun_run *r, cc_merged *m, cc_rerun_kept *kept)
{
    memset(kept, 0, sizeof *kept);
    if (r->first->exec_errno != 0 || stopped_by_user(r->first->signo) || m->n == 0 ||
        progress_was_on()) {
        return;
    }
    kept->items = calloc(m->n, sizeof *kept->items);
    if (kept->items == NULL) {
        return;
    }
    cc_finding_set *top_set = NULL, *second_set = NULL;
    int top_reported = 0, done = 0;
    const cc_finding *top = NULL; /* the top-level process's error, read at the first plan */
    for (size_t i = 0; i < m->n; i++) {
        const cc_finding *f = &m->items[i];
        if (!is_run_async_error(f)) {
            continue;
        }
        cc_rerun_plan plan;
        char why[512];
        cc_rerun_finding *out = &kept->items[kept->n];
        int rc;
        if (!cc_rerun_plan_make(f, &plan, why, sizeof why)) {
            if (why[0] == '\0') {
                continue;
            }
            rc = cc_rerun_annotate(f, NOT_RUN_AGAIN, why, 0, out);
        } else {
            if (top_set == NULL) {
                top = process_error(r->place, r->first->pid, &top_set, &top_reported);
            }
            if (top == NULL || done || strcmp(top->message, f->message) != 0) {
                rc = cc_rerun_annotate(f, NOT_RUN_AGAIN,
                                       "the error was in a process the program started, and "
                                       "only the program cucheck started is run again", 0, out);
            } else {
                cc_rerun_outcome o;
                second_run(r, &plan, &o, &second_set);
                done = 1;
                int named = cc_rerun_verdict(&plan, &o, why, sizeof why);
                rc = named >= 0 ? cc_rerun_exact(f, &plan, named, out)
                                : cc_rerun_annotate(f, NOT_NAMED, why, 1, out);
            }
        }
        if (rc == 0) {
            m->items[i] = out->f;
            kept->n++;
        }
    }
    cc_finding_set_free(top_set);
    cc_finding_set_free(second_set);
}

void cc_cli_rerun_kept_free(cc_rerun_kept *kept)
{
    for (size_t i = 0; i < kept->n; i++) {
        cc_rerun_finding_free(&kept->items[i]);
    }
    free(kept->items);
    memset(kept, 0, sizeof *kept);
}
