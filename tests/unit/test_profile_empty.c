/* The profile of a process that recorded nothing: no kernels, copies, API calls or ranges. Every
 * step runs over empty arrays (which are NULL: qsort and memcpy must not be handed them, which
 * a -fsanitize=undefined build reports), the summaries say "(none)", the trace is valid JSON,
 * and a trace whose header carries a rank that is no 32-bit integer is refused by the merge
 * with a message instead of being converted (undefined for doubles out of int's range). */
#include "check.h"
#include "core/json.h"
#include "tools/profile/profile.h"

#include <stdlib.h>
#include <unistd.h>

static char *written(void (*write)(FILE *, void *), void *arg, size_t *len)
{
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    write(m, arg);
    fclose(m);
    return buf;
}

typedef struct ctx {
    cc_prof_data *d;
    cc_prof_stats *st;
    cc_prof_format f;
} ctx;

static void summary(FILE *out, void *p)
{
    ctx *c = p;
    cc_prof_write_summary(out, c->d, c->st, c->f, NULL);
}

static void trace(FILE *out, void *p)
{
    ctx *c = p;
    CHECK(cc_prof_write_trace(out, c->d, NULL) == 0);
}

static void test_empty_profile(void)
{
    cc_prof_data d;
    cc_prof_data_init(&d);
    cc_prof_mark_nested(&d);
    cc_prof_stats st;
    CHECK(cc_prof_stats_build(&d, &st) == 0);
    ctx c = {&d, &st, CC_PROF_SUMMARY_TEXT};
    size_t len;
    char *t = written(summary, &c, &len);
    CHECK(t && strstr(t, "0 kernel instance(s)") && strstr(t, "CUDA GPU Kernel Summary:\n\n (none)"));
    free(t);
    c.f = CC_PROF_SUMMARY_JSON;
    t = written(summary, &c, &len);
    cc_json *j = t ? cc_json_parse(t, len, NULL, 0) : NULL;
    CHECK(j != NULL);
    cc_json_free(j);
    free(t);
    c.f = CC_PROF_SUMMARY_CSV;
    t = written(summary, &c, &len);
    CHECK(t && strstr(t, "CUDA GPU Kernel Summary\n"));
    free(t);
    t = written(trace, &c, &len);
    j = t ? cc_json_parse(t, len, NULL, 0) : NULL;
    const cc_json *evs = cc_json_get(j, "traceEvents");
    CHECK(evs && evs->type == CC_JSON_ARRAY); /* process metadata only */
    cc_json_free(j);
    free(t);
    cc_prof_stats_free(&st);
    cc_prof_data_free(&d);
}

/* Merges one trace whose header says rank; returns the merge's result, err its message. */
static int merge_rank(const char *rank, char *err, size_t errlen)
{
    char path[256];
    snprintf(path, sizeof path, "%s/test_profile_empty_%d.json", CC_TEST_BINARY_DIR, (int)getpid());
    FILE *f = fopen(path, "w");
    fprintf(f, "{\"cucheck\":{\"format\":1,\"rank\":%s,\"base_wall_ns\":1000,"
               "\"has_wall_clock\":true},\"traceEvents\":[\n]}\n", rank);
    fclose(f);
    FILE *out = fopen("/dev/null", "w");
    const char *in[] = {path};
    err[0] = '\0';
    int rc = cc_prof_merge_traces(in, 1, out, err, errlen);
    fclose(out);
    unlink(path);
    return rc;
}

static void test_merge_rank(void)
{
    char err[512];
    CHECK(merge_rank("0", err, sizeof err) == 0);
    CHECK(merge_rank("-1", err, sizeof err) == 0);  /* unknown */
    CHECK(merge_rank("-7", err, sizeof err) == 0);  /* negative: unknown too, sorted last */
    CHECK(merge_rank("2147483647", err, sizeof err) == 0);
    CHECK(merge_rank("2147483648", err, sizeof err) == -1);
    CHECK(strstr(err, "rank 2147483648 is not a 32-bit integer") != NULL);
    CHECK(merge_rank("1e300", err, sizeof err) == -1);
    CHECK(strstr(err, "rank 1e+300 is not a 32-bit integer") != NULL);
    CHECK(merge_rank("-1e300", err, sizeof err) == -1);
    CHECK(merge_rank("1e999", err, sizeof err) == -1); /* infinity */
    CHECK(strstr(err, "rank inf is not") != NULL);
    CHECK(merge_rank("2.5", err, sizeof err) == -1);
    CHECK(merge_rank("NaN", err, sizeof err) == -1); /* not JSON at all */
    CHECK(strstr(err, "bad cucheck trace header") != NULL);
}

int main(void)
{
    test_empty_profile();
    test_merge_rank();
    TEST_MAIN_END();
}
