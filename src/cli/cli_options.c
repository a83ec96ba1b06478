/* The global options of cucheck: table, defaults, validation (cli_options.h); a suppressions
 * file is read and checked when the option is given. */
#include "cli/cli_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/suppress.h"
#include "cli/diag.h"
#include "cli/run_knobs.h"

const cc_option_spec cc_cli_global_options[] = {
    {"help", 0, NULL, "show help (for a tool or command: 'cucheck TOOL --help')"},
    {"version", 0, NULL, "print the version and exit"},
    {"report-dir", 1, "DIR", "write per-process reports into DIR (default: a temporary directory, "
                             "removed at the end unless --keep-reports)"},
    {"report-file", 1, "PATTERN", "per-process JSON Lines report path; %p = pid, %q{VAR} = "
                                  "environment variable, %% = % (default: DIR/cucheck.%p.jsonl)"},
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
    {NULL, 0, NULL, NULL},
};

void cc_cli_opts_init(cc_cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->format = CC_FMT_TEXT;
    o->error_exitcode = -1;
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
