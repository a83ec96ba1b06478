/* `cucheck replay [--tool NAME] [options] FILE`: drive a tool through a session over a recorded
 * .cuevt file or a text scenario, then print its findings like a live run would. A read error
 * ends the stream (the tool still gets on_exit), is reported with its offset or line, and gives
 * exit status 1. */
#include "cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/evtio.h"
#include "core/options.h"
#include "core/report.h"
#include "core/session.h"
#include "cli/diag.h"
#include "cli/help.h"
#include "cli/input_check.h"
#include "cli/merge.h"
#include "cli/output.h"
#include "cli/reports.h"
#include "cli/tool_args.h"

#define DEFAULT_TOOL "run"

/* The value of --tool, found before the other options are parsed (they depend on the tool). */
static const char *find_tool_name(int argc, char **argv)
{
    const char *name = NULL;
    cc_args a;
    cc_args_init(&a, argc, argv, 1);
    cc_arg arg;
    for (int t = cc_args_next(&a, &arg); t != CC_ARG_END && t != CC_ARG_DASHDASH;
         t = cc_args_next(&a, &arg)) {
        if (t != CC_ARG_OPTION || arg.is_short) {
            continue;
        }
        const cc_option_spec *gs = cc_args_find(cc_cli_global_options, arg.name);
        if (strcmp(arg.name, "tool") == 0) {
            const char *v = cc_args_value(&a, &arg);
            if (v) {
                name = v;
            }
        } else if (gs && gs->takes_value) {
            cc_args_value(&a, &arg); /* step over the value of a global option */
        }
    }
    return name;
}

/* Returns -1 to go on, or an exit status. */
static int parse(const cc_tool *tool, cc_cli_opts *g, cc_options *opts, int argc, char **argv,
                 const char **file)
{
    cc_args a;
    cc_args_init(&a, argc, argv, 1);
    for (;;) {
        cc_arg arg;
        int t = cc_args_next(&a, &arg);
        if (t == CC_ARG_END) {
            break;
        }
        if (t == CC_ARG_DASHDASH) {
            if (cc_args_remaining(&a) != 1 || *file) {
                cc_cli_usage_error("replay", "expected one FILE after '--'");
                return 2;
            }
            *file = a.argv[a.idx++];
            break;
        }
        if (t == CC_ARG_POSITIONAL) {
            if (*file) {
                cc_cli_usage_error("replay", "unexpected argument '%s' (one FILE only)",
                                   arg.word);
                return 2;
            }
            *file = arg.word;
            continue;
        }
        if (!arg.is_short && strcmp(arg.name, "tool") == 0) {
            if (!cc_args_value(&a, &arg)) {
                cc_cli_usage_error("replay", "option '--tool' needs a value");
                return 2;
            }
            continue;
        }
        int r = cc_cli_take_tool_option(tool, opts, g, &a, &arg, "replay");
        if (r == CC_GOPT_ERROR) {
            return 2;
        }
        if (r == CC_GOPT_HELP) {
            cc_cli_help_replay(stdout);
            return 0;
        }
        if (r == CC_GOPT_VERSION) {
            cc_cli_print_version(stdout);
            return 0;
        }
    }
    if (!*file) {
        cc_cli_usage_error("replay", "no input file given");
        return 2;
    }
    return -1;
}

/* Feed every event of the reader to the session; 0 at a clean end, -1 after printing a read
 * error. */
static int feed(cc_evt_reader *r, cc_session *s, const char *file, unsigned long long *nevents)
{
    char err[512];
    for (;;) {
        cc_event ev;
        memset(&ev, 0, sizeof ev);
        err[0] = '\0';
        int rc = cc_evt_read(r, &ev, err, sizeof err);
        if (rc == 0) {
            return 0;
        }
        if (rc < 0) {
            cc_cli_error("replay: %s: %s (after %llu events)", file, err[0] ? err : "read error",
                         *nevents);
            return -1;
        }
        (*nevents)++;
        cc_session_event(s, &ev);
    }
}

int cc_cmd_replay(cc_cli_opts *g, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            break;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cc_cli_help_replay(stdout);
            return 0;
        }
    }
    const char *tool_name = find_tool_name(argc, argv);
    if (!tool_name) {
        tool_name = DEFAULT_TOOL;
    }
    const cc_tool *tool = cc_tool_find(tool_name);
    if (!tool) {
        cc_cli_usage_error("replay", "unknown tool '%s'", tool_name);
        return 2;
    }
    cc_options *opts = cc_options_new();
    if (!opts) {
        cc_cli_error("out of memory");
        return 2;
    }
    const char *file = NULL;
    int rc = parse(tool, g, opts, argc, argv, &file);
    if (rc < 0 && cc_cli_check_tool_options(tool, opts, "replay") != 0) {
        rc = 2;
    }
    char *encoded = rc < 0 ? cc_options_encode(opts) : NULL;
    cc_options_free(opts);
    if (rc >= 0) {
        return rc;
    }
    if (!encoded) {
        cc_cli_error("cannot encode the options of %s", tool->name);
        return 2;
    }

    char err[1024] = "";
    if (cc_cli_check_event_input(file, err, sizeof err) != 0) {
        cc_cli_error("replay: %s: %s", file, err);
        free(encoded);
        return 1;
    }
    cc_evt_reader *reader = cc_evt_reader_open(file, err, sizeof err);
    if (!reader) {
        cc_cli_error("replay: %s", err[0] ? err : "cannot open");
        free(encoded);
        return 1;
    }
    FILE *out = cc_cli_output_open(g);
    cc_report_place place;
    if (!out || cc_reports_prepare(&place, g, err, sizeof err) != 0) {
        if (out) {
            cc_cli_error("%s", err);
            cc_cli_output_close(out, g);
        }
        cc_evt_reader_close(reader);
        free(encoded);
        return 2;
    }
    char jsonl[4096];
    if (cc_expand_report_name(place.pattern, (int)getpid(), jsonl, sizeof jsonl) != 0) {
        cc_cli_error("bad report file pattern '%s'", place.pattern);
        cc_reports_finish(&place, 0, 1);
        cc_cli_output_close(out, g);
        cc_evt_reader_close(reader);
        free(encoded);
        return 2;
    }
    cc_session_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tool = tool;
    cfg.options = encoded;
    cfg.report.jsonl_path = jsonl;
    cfg.report.text_out = NULL;
    cfg.report.print_limit = 0;
    cfg.report.suppressions_path = g->suppressions;
    cfg.report.tool = tool->name;
    cfg.report.run_id = place.run_id;
    cc_session *s = cc_session_open(&cfg, err, sizeof err);
    free(encoded);
    if (!s) {
        cc_cli_error("replay: %s: %s", tool->name, err[0] ? err : "cannot start the tool");
        cc_reports_finish(&place, 0, 1);
        cc_cli_output_close(out, g);
        cc_evt_reader_close(reader);
        return 2;
    }
    unsigned long long nevents = 0;
    int read_failed = feed(reader, s, file, &nevents) != 0;
    cc_evt_reader_close(reader);
    cc_session_close(s);

    cc_finding_set *set = cc_finding_set_new();
    cc_merged m = {0};
    if (!set) {
        cc_cli_error("out of memory");
    } else {
        cc_reports_collect(&place, set, g->verbose);
        if (cc_merge_findings(set, &m) != 0) {
            cc_cli_error("out of memory");
        }
    }
    cc_cli_print_findings(out, g, tool->name, &m, set);
    int out_bad = cc_cli_output_close(out, g) != 0;
    char what[128], tail[128];
    snprintf(what, sizeof what, "replay %s", tool->name);
    snprintf(tail, sizeof tail, " in %llu events%s", nevents,
             read_failed ? " (input ended early)" : "");
    cc_cli_print_summary(g, what, &m, tail);
    cc_merged_counts c;
    cc_merged_count(&m, &c);
    cc_merged_free(&m);
    if (set) {
        cc_finding_set_free(set);
    }
    cc_reports_finish(&place, g->keep_reports, g->quiet);

    if (read_failed || out_bad) {
        return 1;
    }
    if (c.errors > 0 && g->error_exitcode >= 0) {
        return g->error_exitcode;
    }
    return 0;
}
