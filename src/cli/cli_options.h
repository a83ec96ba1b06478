/* The global options of cucheck (report location, output format, exit code policy, ...): their
 * table (for parsing and help), their parsed values, and the step that consumes one of them from
 * the command line. Global options are accepted before the tool/command name and after it. */
#ifndef CUCHECK_CLI_OPTIONS_H
#define CUCHECK_CLI_OPTIONS_H

#include <stdint.h>
#include "cucheck/tool.h"
#include "core/report_text_style.h"
#include "cli/args.h"

typedef enum cc_cli_format {
    CC_FMT_TEXT = 0,
    CC_FMT_JSON = 1,  /* JSON Lines, one finding per line */
    CC_FMT_SARIF = 2, /* SARIF 2.1.0 */
} cc_cli_format;

typedef struct cc_cli_opts {
    const char *report_dir;   /* NULL: a fresh temporary directory */
    const char *report_file;  /* per-process JSONL pattern; NULL: "<dir>/cucheck.%p.jsonl" */
    int keep_reports;         /* keep the temporary report directory */
    int format;               /* cc_cli_format */
    const char *output;       /* final report file; NULL: stdout */
    uint64_t print_limit;     /* most findings printed as text; 0: no limit */
    int print_limit_set;
    const char *suppressions; /* an existing file, or NULL */
    int error_exitcode;       /* exit status when errors were found; -1: not set */
    const char *record;       /* .cuevt path pattern, or NULL */
    int quiet;
    int verbose;
    /* compute-sanitizer's names (docs/cli.md, "compute-sanitizer's options") */
    char log_file[4096];      /* --log-file, expanded (%p = cucheck's pid); "" if not given */
    int check_exit_code;      /* a non-zero program exit status is an error finding */
    int application_only;     /* --target-processes application-only: children unchecked */
    int print_level;          /* lowest severity printed (cc_severity); CC_PRINT_FATAL: only
                               * async-error findings */
    cc_text_style text;       /* --show-backtrace, --num-callers-host, --demangle */
    const char *tool_alias;   /* --tool NAME: the tool, a registry name */
} cc_cli_opts;

/* print_level above CC_SEV_ERROR: only fatal findings (a kernel fault that left the CUDA
 * context unusable: kind async-error) are printed. */
#define CC_PRINT_FATAL 3

/* Is finding severity sev of kind `kind` printed at print level `level`? */
int cc_cli_printed_at(int level, uint32_t sev, const char *kind);

/* The table, terminated by a NULL name (help and version included). */
extern const cc_option_spec cc_cli_global_options[];

void cc_cli_opts_init(cc_cli_opts *o);

enum {
    CC_GOPT_ERROR = -1,     /* a message was printed; exit 2 */
    CC_GOPT_NOT_GLOBAL = 0, /* not a global option; nothing consumed */
    CC_GOPT_TAKEN = 1,      /* applied */
    CC_GOPT_HELP = 2,       /* --help / -h */
    CC_GOPT_VERSION = 3,    /* --version */
    CC_GOPT_TOOL = 4,       /* --tool NAME before any tool or command: o->tool_alias is set */
};

/* If `arg` (an option word just returned by cc_args_next) is a global option, consume its value
 * from `a` if it takes one and apply it. cmd names the command for error messages (NULL at the
 * top level). */
int cc_cli_take_global(cc_cli_opts *o, cc_args *a, const cc_arg *arg, const char *cmd);

#endif
