/* Merging per-rank profile traces into one timeline: each input's first line says its rank and
 * the wall-clock time of its timestamp 0; inputs are ordered by rank, their timestamps shifted
 * onto the earliest input's clock, their pids renumbered (rank r's rows get r-ordered pids, so
 * equal pids on different hosts never collide) and their flow ids made distinct. Event lines are
 * rewritten only in their leading {"pid":P,"tid":T[,"ts":X],"ph":"C"[,"id":N] fields (the
 * trace writer's fixed layout); anything else is an error naming the file and line. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "core/json.h"
#include "tools/profile/profile.h"

#define MERGE_LINE_MAX (16u << 20)

typedef struct {
    const char *path;
    int rank;
    uint64_t base_wall;
    int has_wall;
    size_t order;       /* position after sorting */
    uint64_t *pids;     /* distinct pids seen, in order */
    size_t npids, cappids;
} input;

/* Reads one line (without the newline) into *buf; 1 ok, 0 at end, -1 too long / error. */
static int read_line(FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 1 >= *cap) {
            if (*cap >= MERGE_LINE_MAX || CC_ARRAY_RESERVE(*buf, *cap, n + 2)) return -1;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0) return ferror(f) ? -1 : 0;
    if (*cap == 0) {
        *buf = malloc(1);
        if (!*buf) return -1;
        *cap = 1;
    }
    (*buf)[n] = '\0';
    return 1;
}

/* The rank of a header: an int, as the trace writer wrote it (negative: unknown, sorted last).
 * JSON gives a double, which is range-checked before it is converted (converting one outside
 * int's range, or NaN, is undefined behaviour). */
static int rank_of(const cc_json *v, int *rank)
{
    double d = v->number;
    if (!(d >= (double)INT_MIN && d <= (double)INT_MAX)) return -1; /* also NaN */
    if ((double)(int)d != d) return -1;                               /* 2.5 */
    *rank = (int)d;
    return 0;
}

/* Parses the first line of a trace: {"cucheck":{...},...,"traceEvents":[ */
static int read_header(input *in, const char *line, char *err, size_t errlen)
{
    const char *tail = strstr(line, ",\"traceEvents\":[");
    if (strncmp(line, "{\"cucheck\":", 11) != 0 || !tail || tail[16] != '\0') {
        snprintf(err, errlen, "%s: not a cucheck profile trace (first line)", in->path);
        return -1;
    }
    size_t len = (size_t)(tail - line);
    char *obj = malloc(len + 2);
    if (!obj) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(obj, line, len);
    obj[len] = '}';
    obj[len + 1] = '\0';
    char jerr[128];
    cc_json *j = cc_json_parse(obj, len + 1, jerr, sizeof jerr);
    free(obj);
    const cc_json *c = cc_json_get(j, "cucheck");
    const cc_json *rank = cc_json_get(c, "rank"), *wall = cc_json_get(c, "base_wall_ns");
    const cc_json *has = cc_json_get(c, "has_wall_clock");
    if (!j || !c || !rank || rank->type != CC_JSON_NUMBER || !wall || cc_json_u64(wall, &in->base_wall) != 0) {
        snprintf(err, errlen, "%s: bad cucheck trace header%s%s", in->path, j ? "" : ": ",
                 j ? "" : jerr);
        cc_json_free(j);
        return -1;
    }
    if (rank_of(rank, &in->rank) != 0) {
        snprintf(err, errlen, "%s: bad cucheck trace header: rank %.15g is not a 32-bit integer",
                 in->path, rank->number);
        cc_json_free(j);
        return -1;
    }
    in->has_wall = has && has->type == CC_JSON_TRUE;
    cc_json_free(j);
    return 0;
}

static int cmp_input(const void *a, const void *b)
{
    const input *x = a, *y = b;
    /* ranks first (unknown, negative ranks last), then by path */
    unsigned rx = (unsigned)x->rank, ry = (unsigned)y->rank;
    if (rx != ry) return rx < ry ? -1 : 1;
    return strcmp(x->path, y->path);
}

static uint64_t new_pid(input *in, uint64_t pid)
{
    size_t k = 0;
    for (; k < in->npids; k++)
        if (in->pids[k] == pid) break;
    if (k == in->npids) {
        uint64_t *p = CC_ARRAY_PUSH(in->pids, in->npids, in->cappids);
        if (!p) return (in->order + 1) * 1000;
        *p = pid;
    }
    return (uint64_t)(in->order + 1) * 1000 + k;
}

/* Rewrites one event line; 0 ok, -1 not in the writer's layout. */
static int rewrite(FILE *out, input *in, char *line, double offset_us)
{
    char *p = line, *end;
    if (strncmp(p, "{\"pid\":", 7) != 0) return -1;
    uint64_t pid = strtoull(p + 7, &end, 10);
    if (end == p + 7 || strncmp(end, ",\"tid\":", 7) != 0) return -1;
    p = end + 7;
    uint64_t tid = strtoull(p, &end, 10);
    if (end == p) return -1;
    p = end;
    int has_ts = strncmp(p, ",\"ts\":", 6) == 0;
    double ts = 0;
    if (has_ts) {
        ts = strtod(p + 6, &end);
        if (end == p + 6) return -1;
        p = end;
    }
    if (strncmp(p, ",\"ph\":\"", 7) != 0 || !p[7] || p[8] != '"') return -1;
    char ph = p[7];
    p += 9;
    uint64_t np = new_pid(in, pid);
    if (ph == 'M' && strstr(p, "\"name\":\"process_sort_index\"")) {
        fprintf(out, "{\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"ph\":\"M\",\"name\":"
                     "\"process_sort_index\",\"args\":{\"sort_index\":%" PRIu64 "}}",
                np, tid, np);
        return 0;
    }
    fprintf(out, "{\"pid\":%" PRIu64 ",\"tid\":%" PRIu64, np, tid);
    if (has_ts) fprintf(out, ",\"ts\":%.3f", ts + offset_us);
    fprintf(out, ",\"ph\":\"%c\"", ph);
    if (strncmp(p, ",\"id\":", 6) == 0) {
        uint64_t id = strtoull(p + 6, &end, 10);
        if (end == p + 6) return -1;
        fprintf(out, ",\"id\":%" PRIu64, id + ((uint64_t)(in->order + 1) << 33));
        p = end;
    }
    fputs(p, out);
    return 0;
}

int cc_prof_merge_traces(const char *const *inputs, size_t n, FILE *out, char *err,
                         size_t errlen)
{
    if (n == 0) {
        snprintf(err, errlen, "no input traces");
        return -1;
    }
    input *in = calloc(n, sizeof *in);
    char *line = NULL;
    size_t cap = 0;
    int rc = -1;
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        in[i].path = inputs[i];
        FILE *f = cc_prof_open_read(inputs[i], err, errlen);
        if (!f) goto done;
        int r = read_line(f, &line, &cap);
        fclose(f);
        if (r != 1) {
            snprintf(err, errlen, "%s: empty or unreadable", inputs[i]);
            goto done;
        }
        if (read_header(&in[i], line, err, errlen) != 0) goto done;
    }
    qsort(in, n, sizeof *in, cmp_input);
    uint64_t base = UINT64_MAX;
    int all_wall = 1;
    for (size_t i = 0; i < n; i++) {
        in[i].order = i;
        all_wall &= in[i].has_wall;
        if (in[i].base_wall < base) base = in[i].base_wall;
    }
    fprintf(out, "{\"cucheck\":{\"format\":1,\"merged\":[");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s{\"rank\":%d,\"file\":", i ? "," : "", in[i].rank);
        cc_json_write_str(out, in[i].path);
        fprintf(out, ",\"base_wall_ns\":%" PRIu64 "}", in[i].base_wall);
    }
    fprintf(out, "],\"base_wall_ns\":%" PRIu64 ",\"common_clock\":%s},\"baseTimeNanoseconds\":%"
                 PRIu64 ",\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n",
            base, all_wall ? "true" : "false", base);
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        double offset = all_wall ? (double)(in[i].base_wall - base) / 1000.0 : 0.0;
        FILE *f = cc_prof_open_read(in[i].path, err, errlen);
        if (!f) goto done;
        size_t lineno = 1;
        int r = read_line(f, &line, &cap); /* header, read already */
        while ((r = read_line(f, &line, &cap)) == 1) {
            lineno++;
            size_t len = strlen(line);
            if (len && line[len - 1] == ',') line[--len] = '\0';
            if (strcmp(line, "]}") == 0) break;
            if (len == 0) continue;
            if (!first) fputs(",\n", out);
            first = 0;
            if (rewrite(out, &in[i], line, offset) != 0) {
                snprintf(err, errlen, "%s: line %zu: not an event line of a cucheck trace",
                         in[i].path, lineno);
                fclose(f);
                goto done;
            }
        }
        fclose(f);
        if (r != 1) {
            snprintf(err, errlen, "%s: %s", in[i].path,
                     r == 0 ? "truncated (no closing ']}')" : "line too long or read error");
            goto done;
        }
    }
    fputs("\n]}\n", out);
    rc = ferror(out) ? -1 : 0;
    if (rc) snprintf(err, errlen, "write error");
done:
    for (size_t i = 0; i < n; i++) free(in[i].pids);
    free(in);
    free(line);
    return rc;
}
