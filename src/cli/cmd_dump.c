/* `cucheck dump [--cuevt OUT] FILE`: print every event of a .cuevt recording or text scenario in
 * the scenario form, or convert it to a binary .cuevt file. A read error stops with the reader's
 * message (byte offset or line) and exit status 1. */
#include "cli/commands.h"

#include <stdio.h>
#include <string.h>

#include "core/evtio.h"
#include "cli/diag.h"
#include "cli/help.h"
#include "cli/input_check.h"

int cc_cmd_dump(cc_cli_opts *g, int argc, char **argv)
{
    (void)g;
    static const cc_option_spec specs[] = {
        {"cuevt", 1, "OUT", "write a binary .cuevt file"},
        {NULL, 0, NULL, NULL},
    };
    const char *file = NULL, *cuevt = NULL;
    cc_args a;
    cc_args_init(&a, argc, argv, 1);
    for (;;) {
        cc_arg arg;
        int t = cc_args_next(&a, &arg);
        if (t == CC_ARG_END) {
            break;
        }
        if (t == CC_ARG_DASHDASH) {
            if (cc_args_remaining(&a) != 1 || file) {
                cc_cli_usage_error("dump", "expected one FILE after '--'");
                return 2;
            }
            file = a.argv[a.idx++];
            break;
        }
        if (t == CC_ARG_POSITIONAL) {
            if (file) {
                cc_cli_usage_error("dump", "unexpected argument '%s' (one FILE only)", arg.word);
                return 2;
            }
            file = arg.word;
            continue;
        }
        if ((arg.is_short && strcmp(arg.name, "h") == 0) ||
            (!arg.is_short && strcmp(arg.name, "help") == 0)) {
            cc_cli_help_dump(stdout);
            return 0;
        }
        const cc_option_spec *s = arg.is_short ? NULL : cc_args_find(specs, arg.name);
        if (!s) {
            cc_cli_usage_error("dump", "unknown option '%s%s'", arg.is_short ? "-" : "--",
                               arg.name);
            return 2;
        }
        cuevt = cc_args_value(&a, &arg);
        if (!cuevt || !*cuevt) {
            cc_cli_usage_error("dump", "option '--%s' needs a value", s->name);
            return 2;
        }
    }
    if (!file) {
        cc_cli_usage_error("dump", "no input file given");
        return 2;
    }

    char err[512] = "";
    if (cc_cli_check_event_input(file, err, sizeof err) != 0) {
        cc_cli_error("dump: %s: %s", file, err);
        return 1;
    }
    cc_evt_reader *r = cc_evt_reader_open(file, err, sizeof err);
    if (!r) {
        cc_cli_error("dump: %s", err[0] ? err : "cannot open");
        return 1;
    }
    cc_evt_writer *w = NULL;
    if (cuevt) {
        w = cc_evt_writer_open(cuevt, err, sizeof err);
        if (!w) {
            cc_cli_error("dump: %s: %s", cuevt, err[0] ? err : "cannot create");
            cc_evt_reader_close(r);
            return 1;
        }
    }
    int status = 0;
    unsigned long long nevents = 0;
    for (;;) {
        cc_event ev;
        memset(&ev, 0, sizeof ev);
        err[0] = '\0';
        int rc = cc_evt_read(r, &ev, err, sizeof err);
        if (rc == 0) {
            break;
        }
        if (rc < 0) {
            fflush(stdout);
            cc_cli_error("dump: %s: %s (after %llu events)", file, err[0] ? err : "read error",
                         nevents);
            status = 1;
            break;
        }
        nevents++;
        if (w) {
            if (cc_evt_write(w, &ev) != 0) {
                cc_cli_error("dump: %s: write error", cuevt);
                status = 1;
                break;
            }
        } else {
            cc_scenario_write_event(stdout, &ev);
        }
    }
    cc_evt_reader_close(r);
    if (w && cc_evt_writer_close(w) != 0 && status == 0) {
        cc_cli_error("dump: %s: write error", cuevt);
        status = 1;
    }
    if (fflush(stdout) != 0 && status == 0) {
        cc_cli_error("dump: write error on stdout");
        status = 1;
    }
    return status;
}
