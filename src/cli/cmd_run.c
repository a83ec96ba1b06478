/* `cucheck TOOL [options] [--] PROGRAM [ARGS...]`: parse and check the tool's options (the
 * suppressions file too, see cli_options.c) before anything starts, inject the agent,
 * run the program, collect and merge the per-process reports (with `run`, after an asynchronous
 * error with several candidates, run it a second time to name the faulting launch: rerun.h),
 * print them, and choose the exit status (the program's, 128+N after signal N, or
 * --error-exitcode when errors were found). */
#include "cli/commands.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/report.h"
#include "cli/agent_locate.h"
#include "cli/diag.h"
#include "cli/exit_check.h"
#include "cli/help.h"
#include "cli/merge.h"
#include "cli/origin.h"
#include "cli/output.h"
#include "cli/reports.h"
#include "cli/rerun.h"
#include "cli/run_env.h"
#include "cli/spawn.h"
#include "cli/tool_args.h"
#include "cli/trace_parts.h"

/* Parse the words after the tool name; *prog receives the index of the program in argv.
 * Returns -1 to go on, or the exit status to stop with. */
static int parse(const cc_tool *tool, cc_cli_opts *g, cc_options *opts, int argc, char **argv,
                 int *prog)
{
    cc_args a;
    cc_args_init(&a, argc, argv, 1);
    for (;;) {
        cc_arg arg;
        int t = cc_args_next(&a, &arg);
        if (t == CC_ARG_END) {
            cc_cli_usage_error(tool->name, "no program given: cucheck %s [options] -- PROGRAM "
                                           "[ARGS...]", tool->name);
            return 2;
        }
        if (t == CC_ARG_DASHDASH) {
            if (cc_args_remaining(&a) == 0) {
                cc_cli_usage_error(tool->name, "no program given after '--'");
                return 2;
            }
            *prog = a.idx;
            return -1;
        }
        if (t == CC_ARG_POSITIONAL) {
            *prog = a.idx - 1;
            return -1;
        }
        int r = cc_cli_take_tool_option(tool, opts, g, &a, &arg, tool->name);
        if (r == CC_GOPT_ERROR) {
            return 2;
        }
        if (r == CC_GOPT_HELP) {
            cc_cli_help_tool(stdout, tool);
            return 0;
        }
        if (r == CC_GOPT_VERSION) {
            cc_cli_print_version(stdout);
            return 0;
        }
    }
}

static int absolute_or_null(const char *path, char *buf, size_t n, const char **out)
{
    *out = NULL;
    if (!path) {
        return 0;
    }
    if (cc_cli_absolute(path, buf, n) != 0) {
        cc_cli_error("path too long: '%s'", path);
        return -1;
    }
    *out = buf;
    return 0;
}

/* Print the merged report; returns the number of error findings, or -1 on an output error. */
static long report(const cc_cli_opts *g, const cc_tool *tool, cc_report_place *place,
                   FILE *out, const char *tail_in, const cc_rerun_run *rerun,
                   const cc_spawn_result *res)
{
    cc_finding_set *set = cc_finding_set_new();
    if (!set) {
        cc_cli_error("out of memory");
        return -1;
    }
    size_t nfiles = cc_reports_collect(place, set, g->verbose);
    cc_merged m;
    if (cc_merge_findings(set, &m) != 0) {
        cc_cli_error("out of memory");
        cc_finding_set_free(set);
        return -1;
    }
    cc_rerun_kept kept = {0};
    if (rerun != NULL) {
        cc_cli_rerun(rerun, &m, &kept);
    }
    char exit_text[256];
    if (g->check_exit_code &&
        cc_cli_add_exit_finding(&m, tool->name, res->code, res->signo, exit_text,
                                sizeof exit_text) != 0) {
        cc_cli_error("out of memory");
    }
    cc_cli_print_findings(out, g, tool->name, &m, set);
    long bad = cc_cli_output_close(out, g);
    char tail[512], ranks[256];
    cc_origin_summary(set, ranks, sizeof ranks); /* " (ranks 0,1)" under a launcher */
    snprintf(tail, sizeof tail, " in %zu process report%s%s%s", nfiles, nfiles == 1 ? "" : "s",
             ranks, tail_in);
    cc_cli_print_summary(g, tool->name, &m, tail);
    if (nfiles == 0 && !g->quiet) {
        cc_cli_error("note: no process wrote a report (was the agent loaded? try 'cucheck "
                     "doctor')");
    }
    cc_merged_counts c;
    cc_merged_count(&m, &c);
    cc_merged_free(&m);
    cc_cli_rerun_kept_free(&kept);
    cc_finding_set_free(set);
    return bad ? -1 : (long)c.errors;
}

int cc_cmd_run(cc_cli_opts *g, const cc_tool *tool, int argc, char **argv)
{
    cc_options *opts = cc_options_new();
    if (!opts) {
        cc_cli_error("out of memory");
        return 2;
    }
    int prog = 0;
    int rc = parse(tool, g, opts, argc, argv, &prog);
    if (rc >= 0) {
        cc_options_free(opts);
        return rc;
    }
    /* a bad value stops here, before anything starts: the agent would run the program unchecked */
    if (cc_cli_check_tool_options(tool, opts, tool->name) != 0) {
        cc_options_free(opts);
        return 2;
    }
    int rerun_enabled = cc_cli_rerun_enabled(tool, opts);

    char err[1024] = "";
    char agent[4096];
    if (cc_cli_locate_agent(agent, sizeof agent, err, sizeof err) != 0) {
        cc_cli_error("%s", err);
        cc_options_free(opts);
        return 2;
    }
    char record_buf[4096], supp_buf[4096];
    const char *record = NULL, *supp = NULL;
    if (absolute_or_null(g->record, record_buf, sizeof record_buf, &record) != 0 ||
        absolute_or_null(g->suppressions, supp_buf, sizeof supp_buf, &supp) != 0) {
        cc_options_free(opts);
        return 2;
    }
    FILE *out = cc_cli_output_open(g);
    if (!out) {
        cc_options_free(opts);
        return 2;
    }
    cc_report_place place;
    if (cc_reports_prepare(&place, g, err, sizeof err) != 0) {
        cc_cli_error("%s", err);
        cc_cli_output_close(out, g);
        cc_options_free(opts);
        return 2;
    }
    /* profile: a plain --trace FILE becomes per-process parts merged at the end (needs the id) */
    cc_trace_parts trace;
    int trace_rc = cc_trace_parts_prepare(&trace, tool->name, opts, place.run_id, err,
                                          sizeof err);
    char *encoded = trace_rc == 0 ? cc_options_encode(opts) : NULL;
    cc_options_free(opts);
    if (!encoded) {
        cc_cli_error("%s", trace_rc ? err : "cannot encode the tool's options");
        cc_reports_finish(&place, 0, 1);
        cc_cli_output_close(out, g);
        return 2;
    }
    cc_run_env env = {
        .agent = agent,
        .tool = tool->name,
        .options = encoded,
        .report_pattern = place.pattern,
        .run_id = place.run_id,
        .record_pattern = record,
        .suppressions = supp,
        .print_limit = g->print_limit,
        .print_limit_set = g->print_limit_set,
        .agent_quiet = !g->verbose,
        .application_only = g->application_only,
    };
    if (cc_cli_set_agent_env(&env, err, sizeof err) != 0) {
        cc_cli_error("%s", err);
        cc_reports_finish(&place, 0, 1);
        cc_cli_output_close(out, g);
        free(encoded);
        return 2;
    }
    free(encoded);
    if (g->verbose) {
        cc_cli_error("agent %s", agent);
        cc_cli_error("reports %s", place.pattern);
        if (record) {
            cc_cli_error("recording %s", record);
        }
    }

    cc_spawn_result res;
    if (cc_spawn_wait(argv + prog, &res) != 0) {
        cc_cli_error("cannot start '%s': %s", argv[prog], strerror(errno));
        cc_reports_finish(&place, 0, 1);
        cc_cli_output_close(out, g);
        return 2;
    }
    if (res.exec_errno) {
        cc_cli_error("cannot run '%s': %s", argv[prog], strerror(res.exec_errno));
        cc_reports_finish(&place, 0, 1);
        cc_cli_output_close(out, g);
        return cc_spawn_exec_status(res.exec_errno);
    }

    int status = res.code;
    char tail[256] = "";
    if (res.signo) {
        status = 128 + res.signo;
        const char *name = strsignal(res.signo);
        cc_cli_error("program killed by signal %d (%s)", res.signo, name ? name : "unknown");
        snprintf(tail, sizeof tail, "; program killed by signal %d", res.signo);
    } else if (g->verbose || status != 0) {
        snprintf(tail, sizeof tail, "; program exit status %d", status);
    }
    cc_rerun_run rerun = {.g = g, .place = &place, .argv = argv + prog, .first = &res};
    long errors = report(g, tool, &place, out, tail, rerun_enabled ? &rerun : NULL, &res);
    cc_trace_parts_finish(&trace, g->keep_reports, g->quiet);
    cc_reports_finish(&place, g->keep_reports, g->quiet);
    if (errors > 0 && g->error_exitcode >= 0) {
        return g->error_exitcode;
    }
    if (errors < 0 && status == 0) {
        return 1;
    }
    return status;
}
