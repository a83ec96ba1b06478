/* The profile tool on replayed event streams: statistics (count, total, average, median, min,
 * max, sample stddev, shares; nested driver calls left out; memory operations by time and size
 * with bandwidth; occupancy of a launch configuration), the trace JSON (valid, sorted, one flow
 * end per flow start, on the right tracks), the text/CSV/JSON summaries, gzip output, the merge
 * of two ranks, and the tool driven through a real session with its options. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "core/evtio.h"
#include "core/json.h"
#include "core/session.h"
#include "tools/profile/profile.h"

static const char scenario[] =
    "process_start pid=4242 argv0=/bin/train\n"
    "clock_sync wall_ns=1700000000000000000 mono_ns=1000 rank=RANK host=n1\n"
    "device_limits ordinal=0 cc_major=9 cc_minor=0 sm_count=132 warp_size=32 "
    "max_threads_per_block=1024 max_warps_per_sm=64 max_blocks_per_sm=32 regs_per_block=65536 "
    "regs_per_sm=65536 smem_per_block=49152 smem_per_sm=233472 name=H200\n"
    /* three launches of k (1000, 2000, 6000 ns), one of g through a graph launch (2 nodes) */
    "api_call tid=4242 api=runtime function=cudaLaunchKernel start=2000 end=2500 correlation=1\n"
    "api_call tid=4242 api=driver function=cuLaunchKernel start=2100 end=2400 correlation=2\n"
    "kernel_activity start=3000 end=4000 device=0 context=1 stream=7 correlation=1 name=_Z1kv "
    "grid=1056 block=512 registers=40\n"
    "api_call tid=4242 api=runtime function=cudaLaunchKernel start=5000 end=5300 correlation=3\n"
    "kernel_activity start=6000 end=8000 device=0 context=1 stream=7 correlation=3 name=_Z1kv "
    "grid=1056 block=512 registers=40\n"
    "api_call tid=4243 api=runtime function=cudaLaunchKernel start=5500 end=5600 correlation=4\n"
    "kernel_activity start=9000 end=15000 device=0 context=1 stream=13 correlation=4 name=_Z1kv "
    "grid=1056 block=512 registers=40\n"
    "api_call tid=4242 api=runtime function=cudaGraphLaunch start=16000 end=16400 correlation=6\n"
    "kernel_activity start=17000 end=17500 device=0 context=1 stream=7 correlation=6 name=g "
    "grid=1 block=32 registers=8 graph=5\n"
    "kernel_activity start=17600 end=18100 device=0 context=1 stream=7 correlation=6 name=g "
    "grid=1 block=32 registers=8 graph=5\n"
    /* copies: 2 H2D of 1 MB (100 us, 300 us), 1 memset of 4 KiB */
    "api_call tid=4242 api=runtime function=cudaMemcpyAsync start=18500 end=18600 correlation=7\n"
    "copy_activity op=1 direction=h2d src_kind=pageable dst_kind=device bytes=1000000 "
    "start=19000 end=119000 device=0 context=1 stream=7 correlation=7\n"
    "copy_activity op=1 direction=h2d src_kind=pinned dst_kind=device bytes=1000000 "
    "start=120000 end=420000 device=0 context=1 stream=7 correlation=0\n"
    "copy_activity op=2 dst_kind=device bytes=4096 start=430000 end=431000 device=0 context=1 "
    "stream=13 correlation=0\n"
    "nvtx_range tid=4242 start=1500 end=500000 id=1 name=step\n"
    "nvtx_range tid=4242 start=1600 end=20000 id=2 domain=torch name=forward\n"
    "sync_activity type=3 start=440000 end=450000 stream=7 correlation=9\n"
    "process_exit reason=normal code=0\n";

static char *scenario_for_rank(int rank)
{
    const char *at = strstr(scenario, "RANK");
    size_t n = sizeof scenario + 16;
    char *s = malloc(n);
    snprintf(s, n, "%.*s%d%s", (int)(at - scenario), scenario, rank, at + 4);
    return s;
}

static void load(cc_prof_data *d, const char *text)
{
    char err[256];
    cc_prof_data_init(d);
    cc_evt_reader *r = cc_evt_reader_open_mem(text, strlen(text), 1, err, sizeof err);
    CHECK(r != NULL);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    cc_event ev;
    int rc;
    while ((rc = cc_evt_read(r, &ev, err, sizeof err)) == 1) cc_prof_data_add(d, &ev);
    if (rc < 0) fprintf(stderr, "scenario: %s\n", err);
    CHECK_EQ_U64(rc, 0);
    cc_evt_reader_close(r);
}

static const cc_prof_stat *row(const cc_prof_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].name, name) == 0) return &t->rows[i];
    return NULL;
}

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) < 1e-6 * (1 + fabs((double)(b))))

static void test_stat_of(void)
{
    double v[] = {5, 1, 3, 2};
    cc_prof_stat s;
    cc_prof_stat_of(v, 4, &s);
    CHECK_EQ_U64(s.count, 4);
    CHECK(NEAR(s.total, 11) && NEAR(s.avg, 2.75) && NEAR(s.med, 2.5));
    CHECK(NEAR(s.min, 1) && NEAR(s.max, 5));
    CHECK(NEAR(s.stddev, sqrt(((5 - 2.75) * (5 - 2.75) + (1 - 2.75) * (1 - 2.75) +
                               (3 - 2.75) * (3 - 2.75) + (2 - 2.75) * (2 - 2.75)) / 3)));
    double one[] = {7};
    cc_prof_stat_of(one, 1, &s);
    CHECK(NEAR(s.med, 7) && NEAR(s.stddev, 0));
    cc_prof_stat_of(NULL, 0, &s);
    CHECK_EQ_U64(s.count, 0);
}

static void test_stats(void)
{
    char *text = scenario_for_rank(0);
    cc_prof_data d;
    load(&d, text);
    free(text);
    cc_prof_stats st;
    CHECK_EQ_U64(cc_prof_stats_build(&d, &st), 0);
    CHECK_EQ_U64(d.nkernels, 5);
    CHECK_EQ_U64(st.kernels.n, 2);
    const cc_prof_stat *k = row(&st.kernels, "_Z1kv"), *g = row(&st.kernels, "g");
    CHECK(k && g);
    if (k && g) {
        CHECK_EQ_U64(k->count, 3);
        CHECK(NEAR(k->total, 9000) && NEAR(k->med, 2000) && NEAR(k->min, 1000));
        CHECK(NEAR(k->max, 6000) && NEAR(k->avg, 3000));
        CHECK(NEAR(k->stddev, sqrt((4e6 + 1e6 + 9e6) / 2)));
        CHECK(NEAR(k->percent, 90) && NEAR(g->percent, 10));
        CHECK(&st.kernels.rows[0] == k); /* sorted by total time */
    }
    /* the cuLaunchKernel inside cudaLaunchKernel is not counted */
    CHECK_EQ_U64(st.nested_driver_calls, 1);
    CHECK(row(&st.apis, "cuLaunchKernel") == NULL);
    const cc_prof_stat *l = row(&st.apis, "cudaLaunchKernel");
    CHECK(l && l->count == 3 && NEAR(l->total, 900));
    const cc_prof_stat *h2d = row(&st.mem_time, "[CUDA memcpy Host-to-Device]");
    CHECK(h2d && h2d->count == 2 && NEAR(h2d->total, 400000) && NEAR(h2d->other, 2e6));
    const cc_prof_stat *h2ds = row(&st.mem_size, "[CUDA memcpy Host-to-Device]");
    CHECK(h2ds && NEAR(h2ds->total, 2e6) && NEAR(h2ds->total / h2ds->other, 5.0)); /* GB/s */
    CHECK(row(&st.mem_size, "[CUDA memset]") != NULL);
    CHECK(row(&st.nvtx, "torch:forward") != NULL && row(&st.nvtx, "step") != NULL);
    /* occupancy: sm_90, 512 threads, 40 registers -> 3 blocks/SM (registers), 48/64 warps */
    CHECK_EQ_U64(st.nlaunches, 2);
    const cc_prof_launch *kl = NULL;
    for (size_t i = 0; i < st.nlaunches; i++)
        if (strcmp(st.launches[i].name, "_Z1kv") == 0) kl = &st.launches[i];
    CHECK(kl != NULL);
    if (kl) {
        CHECK(kl->has_occupancy);
        CHECK_EQ_U64(kl->count, 3);
        CHECK_EQ_U64(kl->blocks_per_sm, 3);
        CHECK_EQ_U64(kl->warps_per_sm, 48);
        CHECK(NEAR(kl->occupancy, 0.75));
        CHECK(strstr(kl->limiter, "registers") != NULL);
        CHECK(NEAR(kl->waves, 1056.0 / (3 * 132)));
    }
    cc_prof_stats_free(&st);
    cc_prof_data_free(&d);
}

static cc_json *parse_file_text(const char *buf, size_t len)
{
    char err[256];
    cc_json *j = cc_json_parse(buf, len, err, sizeof err);
    if (!j) fprintf(stderr, "invalid JSON: %s\n", err);
    return j;
}

static const char *jstr(const cc_json *o, const char *k) { return cc_json_str(cc_json_get(o, k)); }
static double jnum(const cc_json *o, const char *k)
{
    const cc_json *v = cc_json_get(o, k);
    return v && v->type == CC_JSON_NUMBER ? v->number : -1e300;
}

static void check_trace(const cc_json *j, int expect_kernels)
{
    const cc_json *evs = cc_json_get(j, "traceEvents");
    CHECK(evs && evs->type == CC_JSON_ARRAY);
    size_t n = cc_json_size(evs);
    double last_ts = -1e300;
    int kernels = 0, flows_s = 0, flows_f = 0, sorted = 1;
    double s_ids[64], f_ids[64];
    for (size_t i = 0; i < n; i++) {
        const cc_json *e = cc_json_at(evs, i);
        const char *ph = jstr(e, "ph");
        CHECK(ph != NULL);
        if (!ph || strcmp(ph, "M") == 0) continue;
        double ts = jnum(e, "ts");
        if (ts < last_ts) sorted = 0;
        last_ts = ts;
        const char *cat = jstr(e, "cat");
        if (strcmp(ph, "X") == 0 && cat && strcmp(cat, "kernel") == 0) {
            kernels++;
            CHECK(jnum(e, "pid") >= CC_PROF_GPU_PID_BASE);
            CHECK(jnum(e, "dur") > 0);
        }
        if (strcmp(ph, "s") == 0 && flows_s < 64) s_ids[flows_s++] = jnum(e, "id");
        if (strcmp(ph, "f") == 0 && flows_f < 64) {
            f_ids[flows_f++] = jnum(e, "id");
            CHECK_STR(jstr(e, "bp"), "e");
        }
    }
    CHECK(sorted);
    CHECK_EQ_U64(kernels, expect_kernels);
    CHECK_EQ_U64(flows_s, flows_f);
    /* every flow id is used by exactly one start and one end */
    for (int i = 0; i < flows_s; i++) {
        int ns = 0, nf = 0;
        for (int k = 0; k < flows_s; k++) ns += s_ids[k] == s_ids[i];
        for (int k = 0; k < flows_f; k++) nf += f_ids[k] == s_ids[i];
        CHECK(ns == 1 && nf == 1);
    }
}

static void test_trace(void)
{
    char *text = scenario_for_rank(0);
    cc_prof_data d;
    load(&d, text);
    free(text);
    cc_prof_stats st;
    CHECK_EQ_U64(cc_prof_stats_build(&d, &st), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_EQ_U64(cc_prof_write_trace(f, &d, NULL), 0);
    fclose(f);
    cc_json *j = parse_file_text(buf, len);
    CHECK(j != NULL);
    if (j) {
        check_trace(j, 5);
        const cc_json *evs = cc_json_get(j, "traceEvents");
        /* 6 flows: 3 launches, 2 graph nodes (one graph launch), 1 copy; the 2 copies without
         * a correlation have none; the flow start sits on the launching thread at its start */
        int s = 0, graph_s = 0;
        for (size_t i = 0; i < cc_json_size(evs); i++) {
            const cc_json *e = cc_json_at(evs, i);
            if (strcmp(jstr(e, "ph"), "s") != 0) continue;
            s++;
            if (NEAR(jnum(e, "ts"), (16000.0 - 1) / 1000)) graph_s++; /* base: t=1 */
        }
        CHECK_EQ_U64(s, 6);
        CHECK_EQ_U64(graph_s, 2);
        const cc_json *c = cc_json_get(j, "cucheck");
        CHECK(c && jnum(c, "rank") == 0);
        CHECK(jnum(c, "pid") == 4242);
        /* two streams of GPU 0 -> two named tracks; the thread rows and the sync row */
        int stream_names = 0, sync_row = 0;
        for (size_t i = 0; i < cc_json_size(evs); i++) {
            const cc_json *e = cc_json_at(evs, i);
            const cc_json *args = cc_json_get(e, "args");
            const char *nm = jstr(args, "name");
            if (nm && strncmp(nm, "Stream ", 7) == 0) stream_names++;
            if (nm && strcmp(nm, "CUDA synchronization") == 0) sync_row++;
        }
        CHECK_EQ_U64(stream_names, 2);
        CHECK_EQ_U64(sync_row, 1);
        cc_json_free(j);
    }
    free(buf);

    /* summaries */
    const cc_prof_format fmts[] = {CC_PROF_SUMMARY_TEXT, CC_PROF_SUMMARY_CSV,
                                   CC_PROF_SUMMARY_JSON};
    for (int i = 0; i < 3; i++) {
        buf = NULL;
        f = open_memstream(&buf, &len);
        cc_prof_write_summary(f, &d, &st, fmts[i], NULL);
        fclose(f);
        if (fmts[i] == CC_PROF_SUMMARY_JSON) {
            cc_json *s = parse_file_text(buf, len);
            CHECK(s != NULL);
            const cc_json *k = cc_json_at(cc_json_get(s, "kernels"), 0);
            CHECK_STR(jstr(k, "mangled"), "_Z1kv");
            CHECK_STR(jstr(k, "name"), "k()");
            CHECK(jnum(k, "count") == 3 && jnum(k, "med_ns") == 2000);
            const cc_json *l = cc_json_at(cc_json_get(s, "launches"), 0);
            CHECK(NEAR(jnum(l, "theoretical_occupancy"), 0.75));
            cc_json_free(s);
        } else if (fmts[i] == CC_PROF_SUMMARY_CSV) {
            CHECK(strstr(buf, "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),"
                              "Max (ns),StdDev (ns),Name\n90.0,9000,3,3000.0,2000.0,1000,6000,")
                  != NULL);
        } else {
            CHECK(strstr(buf, "CUDA GPU Kernel Summary") != NULL);
            CHECK(strstr(buf, "[CUDA memcpy Host-to-Device]") != NULL);
            CHECK(strstr(buf, "torch:forward") != NULL);
        }
        free(buf);
    }
    cc_prof_stats_free(&st);
    cc_prof_data_free(&d);
}

static char *slurp(const char *path, size_t *len)
{
    char err[256];
    FILE *f = cc_prof_open_read(path, err, sizeof err);
    if (!f) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (*len + n + 1 > cap) {
            cap = (*len + n + 1) * 2;
            buf = realloc(buf, cap);
        }
        memcpy(buf + *len, chunk, n);
        *len += n;
    }
    fclose(f);
    if (buf) buf[*len] = '\0';
    return buf;
}

/* The tool through a session, as the agent and replay drive it; returns the trace path. */
static void run_tool(const char *scn, const char *trace, int gzip, const char *summary_path)
{
    char opts[1024];
    snprintf(opts, sizeof opts, "trace=%s\nsummary=json\nsummary-file=%s\n%s", trace,
             summary_path, gzip ? "gzip=1\n" : "");
    cc_session_config cfg = {0};
    cfg.tool = cc_tool_find("profile");
    cfg.options = opts;
    cfg.report.tool = "profile";
    char err[256];
    cc_session *s = cc_session_open(&cfg, err, sizeof err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "session: %s\n", err);
        return;
    }
    cc_evt_reader *r = cc_evt_reader_open_mem(scn, strlen(scn), 1, err, sizeof err);
    cc_event ev;
    while (r && cc_evt_read(r, &ev, err, sizeof err) == 1) cc_session_event(s, &ev);
    cc_evt_reader_close(r);
    cc_session_close(s);
}

static void test_tool_and_merge(void)
{
    char dir[512], t0[600], t1[600], sum[600], merged[600];
    snprintf(dir, sizeof dir, "%s/test_profile_%d", CC_TEST_BINARY_DIR, (int)getpid());
    snprintf(t0, sizeof t0, "%s.r0.json", dir);
    snprintf(t1, sizeof t1, "%s.r1.json", dir);
    snprintf(sum, sizeof sum, "%s.summary.json", dir);
    snprintf(merged, sizeof merged, "%s.merged.json", dir);
    char *s0 = scenario_for_rank(0), *s1 = scenario_for_rank(1);
    /* rank 1 started 2 ms (wall) later */
    char *w = strstr(s1, "wall_ns=1700000000000000000");
    memcpy(w, "wall_ns=1700000000002000000", 27);
    run_tool(s1, t1, 0, sum);
    int gz = cc_prof_zlib_available();
    run_tool(s0, t0, 1, sum);
    char t0gz[620];
    snprintf(t0gz, sizeof t0gz, "%s%s", t0, gz ? ".gz" : "");
    size_t len;
    char *txt = slurp(t1, &len);
    CHECK(txt != NULL);
    cc_json *j = txt ? parse_file_text(txt, len) : NULL;
    CHECK(j != NULL);
    if (j) check_trace(j, 5);
    cc_json_free(j);
    free(txt);
    txt = slurp(t0gz, &len);
    CHECK(txt != NULL);
    j = txt ? parse_file_text(txt, len) : NULL;
    CHECK(j != NULL);
    cc_json_free(j);
    free(txt);
    txt = slurp(sum, &len);
    j = txt ? parse_file_text(txt, len) : NULL;
    CHECK(j != NULL && jnum(j, "kernel_instances") == 5);
    cc_json_free(j);
    free(txt);

    /* merge: rank order, common clock, distinct flow ids, renumbered pids */
    const char *in[] = {t1, t0gz};
    char err[512];
    FILE *out = fopen(merged, "w");
    CHECK_EQ_U64(cc_prof_merge_traces(in, 2, out, err, sizeof err), 0);
    fclose(out);
    txt = slurp(merged, &len);
    j = txt ? parse_file_text(txt, len) : NULL;
    CHECK(j != NULL);
    if (j) {
        const cc_json *evs = cc_json_get(j, "traceEvents");
        double first_r0 = -1, first_r1 = -1;
        int s = 0, f = 0, kernels = 0;
        double ids[64];
        for (size_t i = 0; i < cc_json_size(evs); i++) {
            const cc_json *e = cc_json_at(evs, i);
            const char *ph = jstr(e, "ph");
            double pid = jnum(e, "pid");
            if (strcmp(ph, "X") == 0 && strcmp(jstr(e, "cat"), "nvtx") == 0 &&
                strcmp(jstr(e, "name"), "step") == 0) {
                if (pid >= 1000 && pid < 2000) first_r0 = jnum(e, "ts");
                if (pid >= 2000 && pid < 3000) first_r1 = jnum(e, "ts");
            }
            if (strcmp(ph, "X") == 0 && strcmp(jstr(e, "cat"), "kernel") == 0) kernels++;
            if (strcmp(ph, "s") == 0 && s < 64) ids[s++] = jnum(e, "id");
            if (strcmp(ph, "f") == 0) f++;
        }
        CHECK_EQ_U64(kernels, 10);
        CHECK_EQ_U64(s, 12);
        CHECK_EQ_U64(f, 12);
        for (int a = 0; a < s; a++)
            for (int b = a + 1; b < s; b++) CHECK(ids[a] != ids[b]);
        CHECK(first_r0 >= 0 && first_r1 >= 0);
        CHECK(NEAR(first_r1 - first_r0, 2000.0)); /* 2 ms later, in microseconds */
        cc_json_free(j);
    }
    free(txt);

    /* a file that is not a trace, and a truncated one */
    const char *bad[] = {sum};
    out = fopen(merged, "w");
    CHECK(cc_prof_merge_traces(bad, 1, out, err, sizeof err) != 0);
    CHECK(strstr(err, "not a cucheck profile trace") != NULL);
    fclose(out);
    txt = slurp(t1, &len);
    FILE *tf = fopen(t1, "w");
    fwrite(txt, 1, len / 2, tf);
    fclose(tf);
    free(txt);
    const char *trunc[] = {t1};
    out = fopen(merged, "w");
    CHECK(cc_prof_merge_traces(trunc, 1, out, err, sizeof err) != 0);
    fclose(out);
    unlink(t0gz);
    unlink(t1);
    unlink(sum);
    unlink(merged);
    free(s0);
    free(s1);
}

static void test_bad_options(void)
{
    cc_session_config cfg = {0};
    cfg.tool = cc_tool_find("profile");
    cfg.options = "summary=xml\n";
    char err[256] = "";
    cc_session *s = cc_session_open(&cfg, err, sizeof err);
    CHECK(s == NULL);
    CHECK(strstr(err, "xml") != NULL);
    if (s) cc_session_close(s);
}

int main(void)
{
    /* registered */
    const cc_tool *t = cc_tool_find("profile");
    CHECK(t != NULL && t->options != NULL);
    test_stat_of();
    test_stats();
    test_trace();
    test_tool_and_merge();
    test_bad_options();
    TEST_MAIN_END();
}
