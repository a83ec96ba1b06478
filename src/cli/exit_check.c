/* The "program-exit" finding of --check-exit-code yes (exit_check.h). */
#include "cli/exit_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_cli_add_exit_finding(cc_merged *m, const char *tool, int code, int signo, char *text,
                            size_t textlen)
{
    if (code == 0 && signo == 0) {
        return 0;
    }
    if (signo) {
        const char *name = strsignal(signo);
        snprintf(text, textlen, "the program did not terminate successfully: killed by signal "
                 "%d (%s)", signo, name ? name : "unknown");
    } else {
        snprintf(text, textlen, "the program did not terminate successfully: exit status %d",
                 code);
    }
    cc_finding *items = realloc(m->items, (m->n + 1) * sizeof *items);
    if (!items) {
        return -1;
    }
    m->items = items;
    cc_finding *f = &m->items[m->n++];
    memset(f, 0, sizeof *f);
    f->tool = tool;
    f->kind = "program-exit";
    f->severity = CC_SEV_ERROR;
    f->message = text;
    f->count = 1;
    return 0;
}
