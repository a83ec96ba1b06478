/* Printing the merged findings and the summary line (output.h). */
#include "cli/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/driver_note.h"
#include "core/json.h"
#include "core/owned_file.h"
#include "core/report.h"
#include "core/report_text_style.h"
#include "core/text_escape.h"
#include "cli/diag.h"
#include "cli/origin.h"

FILE *cc_cli_output_open(const cc_cli_opts *g)
{
    if (!g->output || strcmp(g->output, "-") == 0) {
        return stdout;
    }
    /* close-on-exec: the program started afterwards does not inherit it */
    char why[256] = "";
    int fd = cc_owned_file_open(g->output, CC_OWNED_USER_NAMED, why, sizeof why);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        cc_cli_error("cannot write '%s': %s", g->output, fd >= 0 ? strerror(errno) : why);
        if (fd >= 0) {
            close(fd);
        }
    }
    return f;
}

int cc_cli_output_close(FILE *out, const cc_cli_opts *g)
{
    if (!out) {
        return 0;
    }
    int bad = fflush(out) != 0 || ferror(out);
    if (out != stdout) {
        bad |= fclose(out) != 0;
    }
    if (bad) {
        cc_cli_error("writing '%s' failed: %s", out == stdout ? "stdout" : g->output,
                     strerror(errno));
        return -1;
    }
    return 0;
}

/* Has note i of the set appeared earlier in it? */
static int note_seen_before(const cc_finding_set *set, size_t i)
{
    const char *t = cc_finding_set_note(set, i);
    for (size_t j = 0; j < i; j++) {
        const char *u = cc_finding_set_note(set, j);
        if (t && u && strcmp(t, u) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Does a report say that no CUDA driver could be loaded (core/driver_note.h)? Then that is
 * why processes made no CUDA calls, and saying only the latter would mislead. */
static int no_driver_noted(const cc_finding_set *set, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *t = cc_finding_set_note(set, i);
        if (t && strncmp(t, CC_NOTE_NO_DRIVER, sizeof CC_NOTE_NO_DRIVER - 1) == 0) {
            return 1;
        }
    }
    return 0;
}

static void print_notes(FILE *out, const cc_cli_opts *g, const char *tool,
                        const cc_finding_set *set)
{
    size_t n = set ? cc_finding_set_note_count(set) : 0;
    int no_driver = n > 0 && no_driver_noted(set, n);
    for (size_t i = 0; i < n; i++) {
        const char *t = cc_finding_set_note(set, i);
        if (!t || note_seen_before(set, i) ||
            (no_driver && strcmp(t, CC_NOTE_NO_CUDA_CALLS) == 0)) {
            continue;
        }
        if (g->format == CC_FMT_JSON) {
            fputs("{\"type\":\"note\",\"tool\":", out);
            cc_json_write_str(out, tool);
            fputs(",\"text\":", out);
            cc_json_write_str(out, t);
            fputs("}\n", out);
        } else if (g->format == CC_FMT_SARIF) {
            if (!g->quiet) {
                cc_cli_error("note: %s", t);
            }
        } else {
            fputs("========= ", out);
            cc_text_fputs(t, out); /* notes may name kernels: escaped (core/text_escape.h) */
            fputc('\n', out);
        }
    }
}

/* Is finding i printed at --print-level (all formats)? */
static int printed(const cc_cli_opts *g, const cc_merged *m, size_t i)
{
    return cc_cli_printed_at(g->print_level, m->items[i].severity, m->items[i].kind);
}

/* The JSON members naming where finding i came from (origin.h), or NULL when not shown. */
static char *origin_more(const cc_merged *m, size_t i, const cc_finding_set *set, int shown)
{
    return shown ? cc_origin_json(m, i, set) : NULL;
}

static void print_sarif(FILE *out, const cc_cli_opts *g, const char *tool, const cc_merged *m,
                        const cc_finding_set *set, int shown)
{
    size_t cap = m->n ? m->n : 1;
    const cc_finding **ptrs = malloc(cap * sizeof *ptrs);
    char **more = calloc(cap, sizeof *more);
    if (!ptrs || !more) {
        cc_cli_error("out of memory");
        free(ptrs);
        free(more);
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (printed(g, m, i)) {
            more[k] = origin_more(m, i, set, shown);
            ptrs[k++] = &m->items[i];
        }
    }
    cc_write_sarif_more(out, tool, (const cc_finding *const *)ptrs, (const char *const *)more, k);
    for (size_t i = 0; i < k; i++) {
        free(more[i]);
    }
    free(more);
    free(ptrs);
}

static void print_findings(FILE *out, const cc_cli_opts *g, const char *tool, const cc_merged *m,
                           const cc_finding_set *set)
{
    int shown = set && cc_origin_shown(set); /* ranks, or several processes: say which */
    if (g->format == CC_FMT_JSON) {
        for (size_t i = 0; i < m->n; i++) {
            if (printed(g, m, i)) {
                char *more = origin_more(m, i, set, shown);
                cc_write_finding_jsonl_more(out, &m->items[i], more);
                free(more);
            }
        }
        return;
    }
    if (g->format == CC_FMT_SARIF) {
        print_sarif(out, g, tool, m, set, shown);
        return;
    }
    size_t level_ok = 0, shown_n = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (!printed(g, m, i)) {
            continue;
        }
        level_ok++;
        if (!g->print_limit || shown_n < g->print_limit) {
            char from[256] = "";
            if (shown) {
                cc_origin_text(m, i, set, from, sizeof from);
            }
            cc_write_finding_text_from(out, &m->items[i], &g->text, from);
            shown_n++;
        }
    }
    if (shown_n < level_ok) {
        fprintf(out, "... %zu more finding%s not shown (--print-limit %llu)\n",
                level_ok - shown_n, level_ok - shown_n == 1 ? "" : "s",
                (unsigned long long)g->print_limit);
    }
    if (level_ok < m->n) {
        fprintf(out, "... %zu finding%s below --print-level not shown\n", m->n - level_ok,
                m->n - level_ok == 1 ? "" : "s");
    }
}

void cc_cli_print_findings(FILE *out, const cc_cli_opts *g, const char *tool, const cc_merged *m,
                           const cc_finding_set *set)
{
    print_findings(out, g, tool, m, set);
    print_notes(out, g, tool, set);
}

static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void cc_cli_print_summary(const cc_cli_opts *g, const char *what, const cc_merged *m,
                          const char *tail)
{
    if (g->quiet) {
        return;
    }
    cc_merged_counts c;
    cc_merged_count(m, &c);
    char occ[64] = "";
    if (c.occurrences != m->n) {
        snprintf(occ, sizeof occ, " (%llu occurrences)", (unsigned long long)c.occurrences);
    }
    if (m->n == 0) {
        cc_cli_error("%s: no findings%s", what, tail ? tail : "");
        return;
    }
    char infos[64] = "";
    if (c.infos) {
        snprintf(infos, sizeof infos, ", %zu %s", c.infos, plural(c.infos, "info", "infos"));
    }
    cc_cli_error("%s: %zu %s, %zu %s%s%s%s", what, c.errors, plural(c.errors, "error", "errors"),
                 c.warnings, plural(c.warnings, "warning", "warnings"), infos, occ,
                 tail ? tail : "");
}
