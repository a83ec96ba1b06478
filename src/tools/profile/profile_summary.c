/* The profile summary, like `nsys stats`: the kernel, API, memory-operation (by time and by size,
 * with bandwidth) and NVTX tables, then one row per kernel launch configuration with its
 * theoretical occupancy, limiting resource and waves per SM. Written as aligned text, as CSV
 * (one block per table: title line, header, rows, blank line) or as one JSON object. Kernels
 * are named demangled (the JSON keeps the mangled name beside); names in text and CSV are
 * escaped (core/text_escape.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "core/text_escape.h"
#include "symbols/demangle.h"
#include "tools/profile/profile.h"

#define MAXCOL 14
#define CELL 64

typedef struct {
    const char *title;
    int ncol;
    const char *head[MAXCOL];
    size_t nrows;
    char (*cells)[MAXCOL][CELL]; /* all columns but the last */
    const char **last;           /* last column (a name, unbounded) */
} table_out;

static void csv_field(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void emit_table(FILE *out, cc_prof_format f, const table_out *t)
{
    int nc = t->ncol;
    if (f == CC_PROF_SUMMARY_CSV) {
        fprintf(out, "%s\n", t->title);
        for (int c = 0; c < nc; c++) {
            if (c) fputc(',', out);
            csv_field(out, t->head[c]);
        }
        fputc('\n', out);
        for (size_t r = 0; r < t->nrows; r++) {
            for (int c = 0; c < nc - 1; c++) {
                csv_field(out, t->cells[r][c]);
                fputc(',', out);
            }
            csv_field(out, t->last[r]);
            fputc('\n', out);
        }
        fputc('\n', out);
        return;
    }
    size_t w[MAXCOL];
    for (int c = 0; c < nc; c++) {
        w[c] = strlen(t->head[c]);
        for (size_t r = 0; c < nc - 1 && r < t->nrows; r++)
            if (strlen(t->cells[r][c]) > w[c]) w[c] = strlen(t->cells[r][c]);
    }
    fprintf(out, "\n%s:\n\n", t->title);
    if (t->nrows == 0) {
        fprintf(out, " (none)\n");
        return;
    }
    for (int c = 0; c < nc - 1; c++) fprintf(out, " %*s ", (int)w[c], t->head[c]);
    fprintf(out, " %s\n", t->head[nc - 1]);
    for (int c = 0; c < nc; c++) {
        fputc(' ', out);
        size_t n = c < nc - 1 ? w[c] : strlen(t->head[c]);
        for (size_t i = 0; i < n; i++) fputc('-', out);
        fputs(c < nc - 1 ? " " : "\n", out);
    }
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < nc - 1; c++) fprintf(out, " %*s ", (int)w[c], t->cells[r][c]);
        fprintf(out, " %s\n", t->last[r]);
    }
}

static int table_alloc(table_out *t, size_t nrows)
{
    t->nrows = nrows;
    t->cells = calloc(nrows ? nrows : 1, sizeof *t->cells);
    t->last = calloc(nrows ? nrows : 1, sizeof *t->last);
    return t->cells && t->last ? 0 : -1;
}

static void table_free(table_out *t)
{
    free(t->cells);
    for (size_t r = 0; t->last && r < t->nrows; r++) free((char *)t->last[r]);
    free(t->last);
}

/* A name for the text and CSV tables (kernels demangled through kernel_names; NULL for the
 * tables of other names), escaped: kernel, API and range names come from the program or a
 * recording and must not drive the terminal (core/text_escape.h). */
static char *table_name(const char *name, cc_demangle_cache *kernel_names)
{
    const char *s = kernel_names ? cc_demangle_cached(kernel_names, name) : name;
    size_t n = cc_text_escape(NULL, 0, s) + 1;
    char *out = malloc(n);
    if (out) cc_text_escape(out, n, s);
    return out;
}

/* The time tables (kernels, API, memops by time, NVTX): count_head names the count column. */
static void time_table(FILE *out, cc_prof_format f, const char *title, const char *count_head,
                       const char *name_head, const cc_prof_table *tb,
                       cc_demangle_cache *kernel_names)
{
    table_out t = {title, 9, {"Time (%)", "Total Time (ns)", count_head, "Avg (ns)", "Med (ns)",
                              "Min (ns)", "Max (ns)", "StdDev (ns)", name_head}, 0, NULL, NULL};
    if (table_alloc(&t, tb->n) != 0) {
        table_free(&t);
        return;
    }
    for (size_t r = 0; r < tb->n; r++) {
        const cc_prof_stat *s = &tb->rows[r];
        snprintf(t.cells[r][0], CELL, "%.1f", s->percent);
        snprintf(t.cells[r][1], CELL, "%.0f", s->total);
        snprintf(t.cells[r][2], CELL, "%" PRIu64, s->count);
        snprintf(t.cells[r][3], CELL, "%.1f", s->avg);
        snprintf(t.cells[r][4], CELL, "%.1f", s->med);
        snprintf(t.cells[r][5], CELL, "%.0f", s->min);
        snprintf(t.cells[r][6], CELL, "%.0f", s->max);
        snprintf(t.cells[r][7], CELL, "%.1f", s->stddev);
        t.last[r] = table_name(s->name, kernel_names);
    }
    emit_table(out, f, &t);
    table_free(&t);
}

static void size_table(FILE *out, cc_prof_format f, const cc_prof_table *tb)
{
    table_out t = {"CUDA GPU MemOps Summary (by Size)", 9,
                   {"Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)",
                    "StdDev (MB)", "Bandwidth (GB/s)", "Operation"}, 0, NULL, NULL};
    if (table_alloc(&t, tb->n) != 0) {
        table_free(&t);
        return;
    }
    for (size_t r = 0; r < tb->n; r++) {
        const cc_prof_stat *s = &tb->rows[r];
        snprintf(t.cells[r][0], CELL, "%.3f", s->total / 1e6);
        snprintf(t.cells[r][1], CELL, "%" PRIu64, s->count);
        snprintf(t.cells[r][2], CELL, "%.3f", s->avg / 1e6);
        snprintf(t.cells[r][3], CELL, "%.3f", s->med / 1e6);
        snprintf(t.cells[r][4], CELL, "%.3f", s->min / 1e6);
        snprintf(t.cells[r][5], CELL, "%.3f", s->max / 1e6);
        snprintf(t.cells[r][6], CELL, "%.3f", s->stddev / 1e6);
        snprintf(t.cells[r][7], CELL, "%.3f", s->other > 0 ? s->total / s->other : 0.0);
        t.last[r] = table_name(s->name, NULL);
    }
    emit_table(out, f, &t);
    table_free(&t);
}

static void launch_table(FILE *out, cc_prof_format f, const cc_prof_stats *st,
                         cc_demangle_cache *kernel_names)
{
    table_out t = {"CUDA Kernel Launch Configurations and Theoretical Occupancy", 13,
                   {"Instances", "Total Time (ns)", "Grid", "Block", "Regs", "Static SMem (B)",
                    "Dyn SMem (B)", "Blocks/SM", "Warps/SM", "Occupancy (%)", "Limiter",
                    "Waves/SM", "Name"}, 0, NULL, NULL};
    if (table_alloc(&t, st->nlaunches) != 0) {
        table_free(&t);
        return;
    }
    for (size_t r = 0; r < st->nlaunches; r++) {
        const cc_prof_launch *l = &st->launches[r];
        snprintf(t.cells[r][0], CELL, "%" PRIu64, l->count);
        snprintf(t.cells[r][1], CELL, "%.0f", l->total);
        snprintf(t.cells[r][2], CELL, "%u,%u,%u", l->grid[0], l->grid[1], l->grid[2]);
        snprintf(t.cells[r][3], CELL, "%u,%u,%u", l->block[0], l->block[1], l->block[2]);
        snprintf(t.cells[r][4], CELL, "%u", l->regs);
        snprintf(t.cells[r][5], CELL, "%u", l->static_smem);
        snprintf(t.cells[r][6], CELL, "%u", l->dynamic_smem);
        if (l->has_occupancy) {
            snprintf(t.cells[r][7], CELL, "%d", l->blocks_per_sm);
            snprintf(t.cells[r][8], CELL, "%d/%d", l->warps_per_sm, l->max_warps_per_sm);
            snprintf(t.cells[r][9], CELL, "%.1f", l->occupancy * 100.0);
            snprintf(t.cells[r][10], CELL, "%s", l->limiter[0] ? l->limiter : "-");
            snprintf(t.cells[r][11], CELL, "%.2f", l->waves);
        } else {
            for (int c = 7; c <= 11; c++) snprintf(t.cells[r][c], CELL, "n/a");
        }
        t.last[r] = table_name(l->name, kernel_names);
    }
    emit_table(out, f, &t);
    table_free(&t);
}

/* ---- JSON ---- */
/* Rows of a time table; kernels (kernel_names given) are named demangled, "mangled" beside. */
static void json_stat_rows(FILE *out, const char *key, const cc_prof_table *tb,
                           cc_demangle_cache *kernel_names)
{
    fprintf(out, ",\"%s\":[", key);
    for (size_t r = 0; r < tb->n; r++) {
        const cc_prof_stat *s = &tb->rows[r];
        fprintf(out,
                "%s{\"time_percent\":%.3f,\"total_ns\":%.0f,\"count\":%" PRIu64
                ",\"avg_ns\":%.3f,\"med_ns\":%.3f,\"min_ns\":%.0f,\"max_ns\":%.0f,"
                "\"stddev_ns\":%.3f,\"name\":",
                r ? "," : "", s->percent, s->total, s->count, s->avg, s->med, s->min, s->max,
                s->stddev);
        if (kernel_names) {
            cc_json_write_str(out, cc_demangle_cached(kernel_names, s->name));
            fputs(",\"mangled\":", out);
        }
        cc_json_write_str(out, s->name);
        if (strcmp(key, "memops_by_time") == 0)
            fprintf(out, ",\"bytes\":%.0f,\"bandwidth_gbps\":%.3f", s->other,
                    s->total > 0 ? s->other / s->total : 0.0);
        fputc('}', out);
    }
    fputc(']', out);
}

static void json_summary(FILE *out, const cc_prof_data *d, const cc_prof_stats *st,
                         cc_demangle_cache *kernel_names)
{
    fprintf(out, "{\"tool\":\"profile\",\"pid\":%u,\"program\":", d->pid);
    cc_json_write_str(out, cc_prof_str(d, d->program));
    fprintf(out, ",\"rank\":%d,\"kernel_instances\":%zu,\"gpu_kernel_time_ns\":%.0f,"
                 "\"dropped_records\":%" PRIu64 ",\"nested_driver_calls\":%" PRIu64,
            d->has_clock ? d->clock.rank : -1, d->nkernels, st->kernel_total_ns, d->dropped,
            st->nested_driver_calls);
    json_stat_rows(out, "kernels", &st->kernels, kernel_names);
    json_stat_rows(out, "api", &st->apis, NULL);
    json_stat_rows(out, "memops_by_time", &st->mem_time, NULL);
    fputs(",\"memops_by_size\":[", out);
    for (size_t r = 0; r < st->mem_size.n; r++) {
        const cc_prof_stat *s = &st->mem_size.rows[r];
        fprintf(out,
                "%s{\"total_bytes\":%.0f,\"count\":%" PRIu64 ",\"avg_bytes\":%.3f,"
                "\"med_bytes\":%.3f,\"min_bytes\":%.0f,\"max_bytes\":%.0f,\"stddev_bytes\":%.3f,"
                "\"bandwidth_gbps\":%.3f,\"operation\":",
                r ? "," : "", s->total, s->count, s->avg, s->med, s->min, s->max, s->stddev,
                s->other > 0 ? s->total / s->other : 0.0);
        cc_json_write_str(out, s->name);
        fputc('}', out);
    }
    fputc(']', out);
    json_stat_rows(out, "nvtx", &st->nvtx, NULL);
    fputs(",\"launches\":[", out);
    for (size_t r = 0; r < st->nlaunches; r++) {
        const cc_prof_launch *l = &st->launches[r];
        fprintf(out, "%s{\"name\":", r ? "," : "");
        cc_json_write_str(out, cc_demangle_cached(kernel_names, l->name));
        fputs(",\"mangled\":", out);
        cc_json_write_str(out, l->name);
        fprintf(out,
                ",\"device\":%d,\"instances\":%" PRIu64 ",\"total_ns\":%.0f,\"grid\":[%u,%u,%u],"
                "\"block\":[%u,%u,%u],\"registers\":%u,\"static_smem\":%u,\"dynamic_smem\":%u,"
                "\"local_mem\":%u",
                l->device, l->count, l->total, l->grid[0], l->grid[1], l->grid[2], l->block[0],
                l->block[1], l->block[2], l->regs, l->static_smem, l->dynamic_smem, l->local_mem);
        if (l->has_occupancy) {
            fprintf(out,
                    ",\"blocks_per_sm\":%d,\"warps_per_sm\":%d,\"max_warps_per_sm\":%d,"
                    "\"theoretical_occupancy\":%.4f,\"limiter\":",
                    l->blocks_per_sm, l->warps_per_sm, l->max_warps_per_sm, l->occupancy);
            cc_json_write_str(out, l->limiter);
            fprintf(out, ",\"waves_per_sm\":%.4f", l->waves);
        } else {
            fputs(",\"theoretical_occupancy\":null,\"why\":", out);
            cc_json_write_str(out, l->why);
        }
        fputc('}', out);
    }
    fputs("]}\n", out);
}

static void write_summary(FILE *out, const cc_prof_data *d, const cc_prof_stats *st,
                          cc_prof_format f, cc_demangle_cache *kernel_names)
{
    if (f == CC_PROF_SUMMARY_JSON) {
        json_summary(out, d, st, kernel_names);
        return;
    }
    if (f == CC_PROF_SUMMARY_TEXT) {
        fprintf(out, "cucheck profile: pid %u (", d->pid);
        cc_text_fputs(cc_prof_str(d, d->program), out);
        fputc(')', out);
        if (d->has_clock && d->clock.rank >= 0) fprintf(out, ", rank %d", d->clock.rank);
        fprintf(out, ": %zu kernel instance(s), %.0f ns of GPU kernel time, %zu memory "
                     "operation(s), %zu API call(s), %zu NVTX range(s)\n",
                d->nkernels, st->kernel_total_ns, d->ncopies, d->napis, d->nranges);
        if (d->dropped)
            fprintf(out, "warning: %" PRIu64 " activity record(s) were dropped; the numbers "
                         "below miss them\n", d->dropped);
    }
    time_table(out, f, "CUDA GPU Kernel Summary", "Instances", "Name", &st->kernels,
               kernel_names);
    time_table(out, f, "CUDA API Summary", "Num Calls", "Name", &st->apis, NULL);
    time_table(out, f, "CUDA GPU MemOps Summary (by Time)", "Count", "Operation", &st->mem_time,
               NULL);
    size_table(out, f, &st->mem_size);
    time_table(out, f, "NVTX Range Summary", "Instances", "Range", &st->nvtx, NULL);
    launch_table(out, f, st, kernel_names);
    if (f == CC_PROF_SUMMARY_TEXT && st->nested_driver_calls)
        fprintf(out, "\n(%" PRIu64 " driver API call(s) made inside runtime API calls are not "
                     "counted in the API summary)\n", st->nested_driver_calls);
}

void cc_prof_write_summary(FILE *out, const cc_prof_data *d, const cc_prof_stats *st,
                           cc_prof_format f, cc_demangle_cache *kernel_names)
{
    cc_demangle_cache *own = kernel_names ? NULL : cc_demangle_cache_new();
    write_summary(out, d, st, f, kernel_names ? kernel_names : own);
    cc_demangle_cache_free(own);
}
