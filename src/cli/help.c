/* Help texts of the cucheck CLI (help.h). Tool help is generated from each tool's option table,
 * so a new tool documents its options by declaring them. */
#include "cli/help.h"

#include <string.h>

#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli/diag.h"

#ifndef CUCHECK_VERSION
#define CUCHECK_VERSION "unknown"
#endif

#define HELP_COLUMN 30
#define HELP_WIDTH 100

void cc_cli_print_version(FILE *out)
{
    fprintf(out, "cucheck %s\n", CUCHECK_VERSION);
}

/* Write text word-wrapped, starting at column col, continuation lines indented to indent. */
static void print_wrapped(FILE *out, const char *text, int col, int indent)
{
    const char *p = text ? text : "";
    while (*p) {
        while (*p == ' ') {
            p++;
        }
        size_t len = strcspn(p, " ");
        if (len == 0) {
            break;
        }
        if (col > indent && col + 1 + (int)len > HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, len, out);
        col += (int)len;
        p += len;
    }
    fputc('\n', out);
}

void cc_cli_print_options(FILE *out, const cc_option_spec *table, int skip_help_version)
{
    if (!table) {
        return;
    }
    for (const cc_option_spec *s = table; s->name; s++) {
        if (skip_help_version &&
            (strcmp(s->name, "help") == 0 || strcmp(s->name, "version") == 0)) {
            continue;
        }
        char head[160];
        if (s->takes_value) {
            snprintf(head, sizeof head, "  --%s %s", s->name, s->value_name ? s->value_name : "VALUE");
        } else {
            snprintf(head, sizeof head, "  --%s", s->name);
        }
        fputs(head, out);
        int col = (int)strlen(head);
        if (col + 2 > HELP_COLUMN) {
            fprintf(out, "\n%*s", HELP_COLUMN, "");
        } else {
            fprintf(out, "%*s", HELP_COLUMN - col, "");
        }
        print_wrapped(out, s->help, HELP_COLUMN, HELP_COLUMN);
    }
}

static void print_entry(FILE *out, const char *name, const char *summary)
{
    fprintf(out, "  %-14s", name);
    print_wrapped(out, summary, 16, 16);
}

static const char *const EXIT_TEXT =
    "Exit status: the program's own exit status (128+N if it was killed by signal N), or\n"
    "--error-exitcode N if errors were found; 2 for a usage error or when the agent is missing;\n"
    "127 if the program cannot be found, 126 if it cannot be run.\n";

void cc_cli_help_main(FILE *out)
{
    fputs("usage: cucheck [global options] TOOL [tool options] [--] PROGRAM [ARGS...]\n"
          "       cucheck [global options] COMMAND [options...]\n"
          "\n"
          "Finds bugs and bottlenecks in CUDA programs: runs PROGRAM with the cucheck agent\n"
          "injected, collects the report of every process it starts, and prints them merged.\n"
          "\n"
          "Tools (run a program):\n",
          out);
    const cc_tool *const *tools = cc_tool_list();
    for (size_t i = 0; tools && tools[i]; i++) {
        print_entry(out, tools[i]->name, tools[i]->summary);
    }
    fputs("\nCommands:\n", out);
    for (const cc_cli_command *c = cc_cli_commands; c->name; c++) {
        print_entry(out, c->name, c->summary);
    }
    fputs("\nGlobal options (before or after the tool or command name):\n", out);
    fputs("  -h, --help                  show this help ('cucheck TOOL --help' for a tool)\n", out);
    cc_cli_print_options(out, cc_cli_global_options + 1, 0);
    fputs("\n", out);
    fputs(EXIT_TEXT, out);
}

void cc_cli_help_tool(FILE *out, const cc_tool *t)
{
    fprintf(out, "usage: cucheck [global options] %s [options] [--] PROGRAM [ARGS...]\n"
                 "       cucheck replay --tool %s [options] FILE\n\n",
            t->name, t->name);
    print_wrapped(out, t->summary ? t->summary : "", 0, 0);
    fprintf(out, "\n%s options:\n", t->name);
    if (t->options && t->options[0].name) {
        cc_cli_print_options(out, t->options, 0);
    } else {
        fputs("  (none)\n", out);
    }
    fputs("\nGlobal options (also accepted here):\n", out);
    cc_cli_print_options(out, cc_cli_global_options, 1);
    fputs("\n", out);
    fputs(EXIT_TEXT, out);
}

void cc_cli_help_replay(FILE *out)
{
    fputs("usage: cucheck replay [--tool NAME] [tool options] [global options] FILE\n"
          "\n"
          "Runs a tool over a recorded event stream instead of a live program: FILE is a binary\n"
          ".cuevt recording (cucheck TOOL --record FILE ...) or a text scenario (the form\n"
          "'cucheck dump' prints). Findings go to stdout in the chosen --format.\n"
          "\n"
          "Options:\n"
          "  --tool NAME                 the tool to run (default: run); its options follow it\n"
          "                              or precede it ('cucheck NAME --help' lists them)\n",
          out);
    fputs("\nGlobal options (also accepted here; --record does not apply):\n", out);
    cc_cli_print_options(out, cc_cli_global_options, 1);
    fputs("\nExit status: 1 if FILE cannot be read to its end (the findings so far are still\n"
          "printed), else --error-exitcode N if errors were found, else 0; 2 for a usage error.\n",
          out);
}

void cc_cli_help_dump(FILE *out)
{
    fputs("usage: cucheck dump [--cuevt OUT] FILE\n"
          "\n"
          "Prints every event of FILE (a binary .cuevt recording or a text scenario) as one line of\n"
          "the text scenario form, which 'cucheck replay' reads back.\n"
          "\n"
          "Options:\n"
          "  --cuevt OUT                 write the events to OUT as a binary .cuevt file instead\n"
          "                              (turns a text scenario into a recording)\n"
          "\n"
          "Exit status: 0; 1 if FILE cannot be read to its end (the message gives the byte offset\n"
          "or line); 2 for a usage error.\n",
          out);
}

int cc_cli_help_command(const char *name)
{
    if (!name || strcmp(name, "help") == 0) {
        cc_cli_help_main(stdout);
        return 0;
    }
    const cc_tool *t = cc_tool_find(name);
    if (t) {
        cc_cli_help_tool(stdout, t);
        return 0;
    }
    for (const cc_cli_command *c = cc_cli_commands; c->name; c++) {
        if (strcmp(c->name, name) == 0) {
            char *argv[] = {(char *)c->name, (char *)"--help", NULL};
            if (c->fn) {
                return c->fn(2, argv);
            }
            if (c->fn_opts) {
                cc_cli_opts g;
                cc_cli_opts_init(&g);
                return c->fn_opts(&g, 2, argv);
            }
            break;
        }
    }
    cc_cli_usage_error(NULL, "unknown tool or command '%s'", name);
    return 2;
}
