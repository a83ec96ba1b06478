/* The global options of cucheck: table, defaults, validation (cli_options.h); a suppressions
 * file is read and checked when the option is given. compute-sanitizer's global options that
 * map onto cucheck's are accepted under their own names (docs/cli.md, "compute-sanitizer's
 * options"): --log-file, --check-exit-code, --print-level, --show-backtrace,
 * --num-callers-host, --demangle, --target-processes and --tool. */
#include "cli/cli_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/report.h"
#include "core/suppress.h"
#include "cli/diag.h"
#include "cli/run_knobs.h"

const cc_option_spec cc_cli_global_options[] = {
    {"help", 0, NULL, "show help (for a tool or command: 'cucheck TOOL --help')"},
    {"version", 0, NULL, "print the version and exit"},
    {"report-dir", 1, "DIR", "write per-process reports into DIR (default: a temporary directory, "
                             "removed at the end unless --keep-reports)"},
    {"report-file", 1, "PATTERN", "per-process JSON Lines report path; %p = pid, %q{VAR} = "
                                  "environment variable, %r = \"rank<R>.\" for a process with a "
                                  "rank, %% = % (default: DIR/cucheck.RUNID.%r%p.jsonl)"},
    {"keep-reports", 0, NULL, "keep the temporary report directory and print its path"},
    {"format", 1, "FMT", "final report format on stdout: text (default), json (JSON Lines), sarif"},
    {"output", 1, "FILE", "write the final report to FILE instead of stdout"},
    {"print-limit", 1, "N", "print at most N findings as text (0 = no limit)"},
    {"suppressions", 1, "FILE", "drop findings matched by the suppressions FILE (checked before "
                                "the program starts; see docs/reports.md)"},
    {"error-exitcode", 1, "N", "exit with N (0..255) if any error was found (default: the "
                               "program's own exit status)"},
    {"record", 1, "FILE", "record the event stream of each process to FILE (.cuevt; %p, %q{VAR} "
                          "as for --report-file), for 'cucheck replay'"},
    {"knob", 1, "VAR=VALUE", "set one of the agent's environment knobs for this run (see "
                             "docs/agent.md); other measuring aids in the environment are not "
                             "passed on"},
    {"quiet", 0, NULL, "print no summary or notes on stderr"},
    {"verbose", 0, NULL, "explain what cucheck does; the agent also prints findings as found"},
    /* compute-sanitizer's names */
    {"tool", 1, "NAME", "compute-sanitizer's form of the tool name: 'cucheck --tool memcheck -- "
                        "PROG' = 'cucheck memcheck -- PROG' (every compute-sanitizer tool: "
                        "memcheck, racecheck, synccheck, initcheck)"},
    {"log-file", 1, "FILE", "as --output, compute-sanitizer's name: %p = cucheck's pid, %q{VAR} = "
                            "environment variable, %% = % (messages stay on stderr)"},
    {"print-level", 1, "LEVEL", "info (default), warn, error or fatal: the lowest severity of the "
                                "findings printed (fatal: kernel faults that end the context, "
                                "async-error); all are still counted"},
    {"show-backtrace", 1, "yes|no|host|device", "yes/host (default): host stacks in the text "
                                                "report; no/device: none (cucheck has no device "
                                                "call stacks, only the faulting location)"},
    {"num-callers-host", 1, "N", "host frames printed per stack in the text report (default 24; "
                                 "0 = all the agent captured)"},
    {"demangle", 1, "full|simple|no", "kernel names in the text report: full (default), simple "
                                      "(no parameters, templates or return type) or no (mangled)"},
    {"check-exit-code", 1, "yes|no", "yes: a non-zero exit status of the program (or its death by "
                                     "a signal) is an error finding, for --error-exitcode too "
                                     "(default no: the status is named in the summary)"},
    {"target-processes", 1, "application-only|all",
     "all (default: every child process is checked too) or application-only (only the "
     "process cucheck starts; its children run without the agent's callbacks)"},
    {NULL, 0, NULL, NULL},
};

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out);

void cc_cli_opts_init(cc_cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->format = CC_FMT_TEXT;
    o->error_exitcode = -1;
    o->print_level = CC_SEV_INFO;
    cc_text_style_default(&o->text);
}

int cc_cli_printed_at(int level, uint32_t sev, const char *kind)
{
    if (level == CC_PRINT_FATAL) {
        return sev == CC_SEV_ERROR && kind && strcmp(kind, "async-error") == 0;
    }
    return (int)sev >= level;
}

/* The index of v in the NULL-terminated list, or -1. */
static int choice(const char *v, const char *const *list)
{
    for (int i = 0; list[i]; i++) {
        if (strcmp(v, list[i]) == 0) {
            return i;
        }
    }
    return -1;
}

/* A pattern of --log-file: only %p, %q{VAR} (closed) and %% after a '%', as compute-sanitizer
 * accepts; NULL, or what is wrong. */
static const char *log_pattern_problem(const char *v)
{
    for (const char *p = v; *p; p++) {
        if (*p != '%') {
            continue;
        }
        if (p[1] == '%' || p[1] == 'p') {
            p++;
        } else if (p[1] == 'q' && p[2] == '{') {
            const char *close = strchr(p + 3, '}');
            if (!close) {
                return "a %q{ is not closed";
            }
            p = close;
        } else {
            return "'%' must be followed by p, q{VAR} or %";
        }
    }
    return NULL;
}

static int apply_tool(cc_cli_opts *o, const char *v, const char *cmd)
{
    if (!cc_tool_find(v)) {
        cc_cli_usage_error(cmd, "--tool: unknown tool '%s' (see 'cucheck --help')", v);
        return CC_GOPT_ERROR;
    }
    if (cmd) { /* after a tool name: the same name is harmless, another one a contradiction */
        if (strcmp(cmd, v) != 0) {
            cc_cli_usage_error(cmd, "--tool %s contradicts the tool name '%s'", v, cmd);
            return CC_GOPT_ERROR;
        }
        return CC_GOPT_TAKEN;
    }
    o->tool_alias = v;
    return CC_GOPT_TOOL;
}

/* compute-sanitizer's options; CC_GOPT_NOT_GLOBAL when name is none of them. */
static int apply_cs(cc_cli_opts *o, const char *name, const char *v, const char *cmd)
{
    static const char *const yes_no[] = {"yes", "no", NULL};
    static const char *const levels[] = {"info", "warn", "error", "fatal", NULL};
    static const int level_values[] = {CC_SEV_INFO, CC_SEV_WARNING, CC_SEV_ERROR,
                                       CC_PRINT_FATAL};
    static const char *const backtraces[] = {"yes", "no", "host", "device", NULL};
    static const char *const demangles[] = {"full", "simple", "no", NULL};
    static const int demangle_values[] = {CC_DEMANGLE_FULL, CC_DEMANGLE_SIMPLE, CC_DEMANGLE_NO};
    unsigned long long n = 0;
    int i = 0;
    if (strcmp(name, "tool") == 0) {
        return apply_tool(o, v, cmd);
    } else if (strcmp(name, "log-file") == 0) {
        const char *why = *v ? log_pattern_problem(v) : "an empty name";
        if (why) {
            cc_cli_usage_error(cmd, "--log-file '%s': %s", v, why);
            return CC_GOPT_ERROR;
        }
        if (cc_expand_report_name(v, (int)getpid(), o->log_file, sizeof o->log_file) != 0) {
            cc_cli_usage_error(cmd, "--log-file '%s': the name is too long", v);
            return CC_GOPT_ERROR;
        }
        o->output = o->log_file;
    } else if (strcmp(name, "print-level") == 0) {
        if ((i = choice(v, levels)) < 0) {
            cc_cli_usage_error(cmd, "--print-level does not accept '%s' (expected info, warn, "
                                    "error or fatal)", v);
            return CC_GOPT_ERROR;
        }
        o->print_level = level_values[i];
    } else if (strcmp(name, "show-backtrace") == 0) {
        if ((i = choice(v, backtraces)) < 0) {
            cc_cli_usage_error(cmd, "--show-backtrace does not accept '%s' (expected yes, no, "
                                    "host or device)", v);
            return CC_GOPT_ERROR;
        }
        o->text.hide_host_frames = i == 1 || i == 3;
    } else if (strcmp(name, "num-callers-host") == 0) {
        if (parse_uint(v, UINT32_MAX, &n) != 0) {
            cc_cli_usage_error(cmd, "--num-callers-host does not accept '%s' (expected a whole "
                                    "number, 0 = all)", v);
            return CC_GOPT_ERROR;
        }
        o->text.max_host_frames = (uint32_t)n;
    } else if (strcmp(name, "demangle") == 0) {
        if ((i = choice(v, demangles)) < 0) {
            cc_cli_usage_error(cmd, "--demangle does not accept '%s' (expected full, simple or "
                                    "no)", v);
            return CC_GOPT_ERROR;
        }
        o->text.demangle = demangle_values[i];
    } else if (strcmp(name, "check-exit-code") == 0) {
        if ((i = choice(v, yes_no)) < 0) {
            cc_cli_usage_error(cmd, "--check-exit-code does not accept '%s' (expected yes or no)",
                               v);
            return CC_GOPT_ERROR;
        }
        o->check_exit_code = i == 0;
    } else if (strcmp(name, "target-processes") == 0) {
        if (strcmp(v, "application-only") == 0) {
            o->application_only = 1;
        } else if (strcmp(v, "all") == 0) {
            o->application_only = 0;
        } else {
            cc_cli_usage_error(cmd, "--target-processes does not accept '%s' (expected "
                                    "application-only or all)", v);
            return CC_GOPT_ERROR;
        }
    } else {
        return CC_GOPT_NOT_GLOBAL;
    }
    return CC_GOPT_TAKEN;
}

/* Parse a decimal unsigned number that fits in max; 0 on success. */
static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
    if (!s || !*s || *s == '-' || *s == '+') {
        return -1;
    }
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || !end || *end || v > max) {
        return -1;
    }
    *out = v;
    return 0;
}

static int apply(cc_cli_opts *o, const char *name, const char *v, const char *cmd)
{
    unsigned long long n = 0;
    int cs = apply_cs(o, name, v, cmd);
    if (cs != CC_GOPT_NOT_GLOBAL) {
        return cs;
    }
    if (strcmp(name, "report-dir") == 0) {
        if (!*v) {
            cc_cli_usage_error(cmd, "--report-dir needs a non-empty directory");
            return CC_GOPT_ERROR;
        }
        o->report_dir = v;
    } else if (strcmp(name, "report-file") == 0) {
        if (!*v) {
            cc_cli_usage_error(cmd, "--report-file needs a non-empty pattern");
            return CC_GOPT_ERROR;
        }
        o->report_file = v;
    } else if (strcmp(name, "format") == 0) {
        if (strcmp(v, "text") == 0) {
            o->format = CC_FMT_TEXT;
        } else if (strcmp(v, "json") == 0 || strcmp(v, "jsonl") == 0) {
            o->format = CC_FMT_JSON;
        } else if (strcmp(v, "sarif") == 0) {
            o->format = CC_FMT_SARIF;
        } else {
            cc_cli_usage_error(cmd, "unknown format '%s' (text, json or sarif)", v);
            return CC_GOPT_ERROR;
        }
    } else if (strcmp(name, "output") == 0) {
        if (!*v) {
            cc_cli_usage_error(cmd, "--output needs a file name");
            return CC_GOPT_ERROR;
        }
        o->output = v;
        o->log_file[0] = '\0'; /* the last of --output and --log-file wins */
    } else if (strcmp(name, "print-limit") == 0) {
        if (parse_uint(v, UINT64_MAX, &n) != 0) {
            cc_cli_usage_error(cmd, "--print-limit needs a number, not '%s'", v);
            return CC_GOPT_ERROR;
        }
        o->print_limit = n;
        o->print_limit_set = 1;
    } else if (strcmp(name, "suppressions") == 0) {
        struct stat st;
        if (stat(v, &st) != 0) {
            cc_cli_error("suppressions file '%s': %s", v, strerror(errno));
            return CC_GOPT_ERROR;
        }
        if (!S_ISREG(st.st_mode)) {
            cc_cli_error("suppressions file '%s': not a regular file", v);
            return CC_GOPT_ERROR;
        }
        /* read it now, as the agent and replay will: a bad line stops here, not later with the
         * program running unchecked */
        char err[1024] = "";
        cc_suppressions *supp = cc_suppressions_load(v, err, sizeof err);
        if (!supp) {
            cc_cli_error("suppressions file %s", err);
            return CC_GOPT_ERROR;
        }
        cc_suppressions_free(supp);
        o->suppressions = v;
    } else if (strcmp(name, "error-exitcode") == 0) {
        if (parse_uint(v, 255, &n) != 0) {
            cc_cli_usage_error(cmd, "--error-exitcode needs a number from 0 to 255, not '%s'", v);
            return CC_GOPT_ERROR;
        }
        o->error_exitcode = (int)n;
    } else if (strcmp(name, "knob") == 0) {
        if (cc_cli_knob_option(v, cmd) != 0) {
            return CC_GOPT_ERROR;
        }
    } else if (strcmp(name, "record") == 0) {
        if (!*v) {
            cc_cli_usage_error(cmd, "--record needs a file name");
            return CC_GOPT_ERROR;
        }
        o->record = v;
    }
    return CC_GOPT_TAKEN;
}

int cc_cli_take_global(cc_cli_opts *o, cc_args *a, const cc_arg *arg, const char *cmd)
{
    const char *name = arg->name;
    if (arg->is_short) {
        if (strcmp(name, "h") != 0) {
            return CC_GOPT_NOT_GLOBAL;
        }
        name = "help";
    }
    const cc_option_spec *s = cc_args_find(cc_cli_global_options, name);
    if (!s) {
        return CC_GOPT_NOT_GLOBAL;
    }
    if (!s->takes_value) {
        if (arg->value) {
            cc_cli_usage_error(cmd, "option '--%s' takes no value", s->name);
            return CC_GOPT_ERROR;
        }
        if (strcmp(s->name, "help") == 0) {
            return CC_GOPT_HELP;
        }
        if (strcmp(s->name, "version") == 0) {
            return CC_GOPT_VERSION;
        }
        if (strcmp(s->name, "keep-reports") == 0) {
            o->keep_reports = 1;
        } else if (strcmp(s->name, "quiet") == 0) {
            o->quiet = 1;
            o->verbose = 0;
        } else if (strcmp(s->name, "verbose") == 0) {
            o->verbose = 1;
            o->quiet = 0;
        }
        return CC_GOPT_TAKEN;
    }
    const char *v = cc_args_value(a, arg);
    if (!v) {
        cc_cli_usage_error(cmd, "option '--%s' needs a value: --%s %s", s->name, s->name,
                           s->value_name ? s->value_name : "VALUE");
        return CC_GOPT_ERROR;
    }
    return apply(o, s->name, v, cmd);
}
