/* Tests of the live reporter: dedup counts and samples, what each occurrence writes (JSON lines
 * flushed at once, text up to the print limit), suppressions, the update and summary records at
 * close, notes, errors on bad suppressions/report paths, and concurrent adds from threads. */
#include "check.h"
#include "test_files.h"
#include "core/json.h"
#include "core/report.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/cc_reporter_XXXXXX";

static cc_stack_frame frames[] = {{0x401000, "main (vecadd.cu:40)"}, {0x402000, "__libc_start_main"}};

static cc_finding oob(uint32_t bx, uint32_t tx, uint64_t addr) {
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = "invalid-global-write";
    f.severity = CC_SEV_ERROR;
    f.message = "Address is out of bounds";
    f.has_device = 1;
    f.device.valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_LINE | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    f.device.kernel = "add(float const*, float*, int)";
    f.device.launch_id = 1;
    f.device.pc = 0x1f0;
    f.device.file = "vecadd.cu";
    f.device.line = 12;
    f.device.block[0] = bx;
    f.device.thread[0] = tx;
    f.device.address = addr;
    f.device.size = 4;
    f.device.access = CC_ACCESS_WRITE;
    f.device.space = CC_SPACE_GLOBAL;
    f.nframes = 2;
    f.frames = frames;
    return f;
}

/* Parse every line of a JSON Lines text; returns the number of lines, fills recs. */
static size_t parse_lines(const char *text, cc_json **recs, size_t max) {
    size_t n = 0;
    const char *p = text;
    while (*p && n < max) {
        const char *nl = strchr(p, '\n');
        CHECK(nl != NULL); /* every record is '\n'-terminated */
        if (!nl) break;
        char err[128];
        recs[n] = cc_json_parse(p, (size_t)(nl - p), err, sizeof err);
        if (!recs[n]) fprintf(stderr, "bad line: %.*s (%s)\n", (int)(nl - p), p, err);
        CHECK(recs[n] != NULL);
        n++;
        p = nl + 1;
    }
    return n;
}

static const char *type_of(const cc_json *r) { return cc_json_str(cc_json_get(r, "type")); }

static uint64_t u64_of(const cc_json *r, const char *key) {
    uint64_t v = (uint64_t)-1;
    CHECK(cc_json_u64(cc_json_get(r, key), &v) == 0);
    return v;
}

static size_t count_of(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

static void test_dedup_and_records(void) {
    char path[256];
    snprintf(path, sizeof path, "%s/dedup.jsonl", dir);
    char *text = NULL;
    size_t tlen = 0;
    FILE *tout = open_memstream(&text, &tlen);
    cc_report_config cfg = {path, tout, 0, NULL, "memcheck", NULL, NULL};
    char err[256] = "";
    cc_reporter *r = cc_reporter_open(&cfg, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;

    /* the first occurrence is new and written at once */
    cc_finding f = oob(3, 256, 0x7f0000000410);
    CHECK(cc_reporter_add(r, &f) == 1);
    char *now = cc_test_read_file(path, NULL);
    CHECK(now && count_of(now, "\"type\":\"finding\"") == 1); /* flushed before close */
    free(now);

    /* same bug, other threads/blocks/addresses: folded */
    uint32_t bx[] = {3, 4, 4, 5, 6, 7};
    for (int i = 0; i < 6; i++) {
        cc_finding g = oob(bx[i], 256 + (uint32_t)i, 0x7f0000000410 + 4u * (uint32_t)i);
        CHECK(cc_reporter_add(r, &g) == 0);
    }
    /* an occurrence standing for several (count 5) */
    cc_finding many = oob(9, 1, 0x7f0000000500);
    many.count = 5;
    CHECK(cc_reporter_add(r, &many) == 0);

    /* a different pc is a different finding */
    cc_finding other = oob(0, 0, 0x10);
    other.device.pc = 0x200;
    CHECK(cc_reporter_add(r, &other) == 1);
    /* a different top host frame too */
    cc_stack_frame fr2[] = {{0x1, "other_caller"}};
    cc_finding viaother = oob(0, 0, 0x10);
    viaother.frames = fr2;
    viaother.nframes = 1;
    CHECK(cc_reporter_add(r, &viaother) == 1);
    /* a warning without device location; same message folds, other message does not */
    cc_finding w;
    memset(&w, 0, sizeof w);
    w.tool = "memcheck";
    w.kind = "api-error";
    w.severity = CC_SEV_WARNING;
    w.message = "cudaFree(0x1) returned cudaErrorInvalidValue";
    CHECK(cc_reporter_add(r, &w) == 1);
    CHECK(cc_reporter_add(r, &w) == 0);
    w.message = "cudaMemcpy returned cudaErrorInvalidValue";
    CHECK(cc_reporter_add(r, &w) == 1);
    cc_reporter_note(r, "checked 3 of 3 kernels, 12 of 12 launches instrumented");

    CHECK_EQ_U64(cc_reporter_distinct(r), 5);
    CHECK_EQ_U64(cc_reporter_total(r), 1 + 6 + 5 + 1 + 1 + 3);
    CHECK_EQ_U64(cc_reporter_errors(r), 3);
    CHECK_EQ_U64(cc_reporter_suppressed(r), 0);
    cc_reporter_flush(r);
    cc_reporter_close(r);
    fclose(tout);

    char *file = cc_test_read_file(path, NULL);
    CHECK(file != NULL);
    if (!file) return;
    cc_json *recs[64] = {0};
    size_t n = parse_lines(file, recs, 64);
    /* header, 5 findings, 1 note, 2 updates (the oob and the api-error), summary */
    CHECK_EQ_U64(n, 1 + 5 + 1 + 2 + 1);
    CHECK_STR(type_of(recs[0]), "header");
    CHECK_STR(cc_json_str(cc_json_get(recs[0], "tool")), "memcheck");
    CHECK_EQ_U64(u64_of(recs[0], "pid"), (uint64_t)getpid());
    CHECK(cc_json_str(cc_json_get(recs[0], "version")) != NULL);
    CHECK_STR(type_of(recs[1]), "finding");
    CHECK_EQ_U64(u64_of(recs[1], "id"), 1);
    CHECK_EQ_U64(u64_of(recs[1], "count"), 1); /* as first seen */
    CHECK_STR(type_of(recs[6]), "note");
    CHECK_STR(cc_json_str(cc_json_get(recs[6], "text")),
              "checked 3 of 3 kernels, 12 of 12 launches instrumented");
    CHECK_STR(type_of(recs[7]), "update");
    CHECK_EQ_U64(u64_of(recs[7], "id"), 1);
    CHECK_EQ_U64(u64_of(recs[7], "count"), 12);
    const cc_json *samples = cc_json_get(recs[7], "samples");
    CHECK_EQ_U64(cc_json_size(samples), 4); /* the first 4 distinct (block, thread) */
    uint64_t b;
    CHECK(cc_json_u64(cc_json_at(cc_json_get(cc_json_at(samples, 0), "block"), 0), &b) == 0 && b == 3);
    CHECK(cc_json_u64(cc_json_at(cc_json_get(cc_json_at(samples, 3), "thread"), 0), &b) == 0 && b == 259);
    CHECK_STR(type_of(recs[8]), "update");
    CHECK_EQ_U64(u64_of(recs[8], "count"), 2);
    CHECK(cc_json_get(recs[8], "samples") == NULL); /* no threads in an API error */
    CHECK_STR(type_of(recs[9]), "summary");
    CHECK_EQ_U64(u64_of(recs[9], "distinct"), 5);
    CHECK_EQ_U64(u64_of(recs[9], "total"), 17);
    CHECK_EQ_U64(u64_of(recs[9], "errors"), 3);
    CHECK_EQ_U64(u64_of(recs[9], "warnings"), 2);
    CHECK_EQ_U64(u64_of(recs[9], "suppressed"), 0);
    for (size_t i = 0; i < n; i++) cc_json_free(recs[i]);
    free(file);

    /* text: every new finding, the note, the repeated list and the summary */
    CHECK(text != NULL);
    if (!text) return;
    CHECK_EQ_U64(count_of(text, "Invalid __global__ write of size 4 bytes [invalid-global-write]"), 3);
    CHECK(strstr(text, "=========     at add(float const*, float*, int)+0x1f0 in vecadd.cu:12\n"));
    CHECK(strstr(text, "=========     by thread (256,0,0) in block (3,0,0)\n"));
    CHECK(strstr(text, "========= checked 3 of 3 kernels"));
    CHECK(strstr(text, "12x Invalid __global__ write of size 4 bytes at add(float const*, float*, int)+0x1f0 in vecadd.cu:12"));
    CHECK(strstr(text, "threads (256,0,0) in block (3,0,0), (257,0,0) in block (4,0,0), (258,0,0) in block (4,0,0), (259,0,0) in block (5,0,0), ..."));
    CHECK(strstr(text, "========= ERROR SUMMARY: 3 errors (14 occurrences), 2 warnings (3 occurrences)\n"));
    free(text);
}

static void test_print_limit_and_suppressions(void) {
    char supp[256], path[256];
    snprintf(supp, sizeof supp, "%s/rules.supp", dir);
    snprintf(path, sizeof path, "%s/limit.jsonl", dir);
    FILE *sf = fopen(supp, "w");
    fputs("# known issue in a library kernel\nkind=invalid-global-*\nkernel=libkernel*\n", sf);
    fclose(sf);
    char *text = NULL;
    size_t tlen = 0;
    FILE *tout = open_memstream(&text, &tlen);
    cc_report_config cfg = {path, tout, 2, supp, "memcheck", NULL, NULL};
    char err[256] = "";
    cc_reporter *r = cc_reporter_open(&cfg, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    for (uint32_t i = 0; i < 5; i++) {
        cc_finding f = oob(0, 0, 0x100);
        f.device.line = 100 + i; /* 5 distinct findings */
        CHECK(cc_reporter_add(r, &f) == 1);
    }
    cc_finding s = oob(1, 1, 0x100);
    s.device.kernel = "libkernel_fwd";
    s.count = 3;
    CHECK(cc_reporter_add(r, &s) == 0);
    CHECK(cc_reporter_add(r, &s) == 0);
    CHECK_EQ_U64(cc_reporter_suppressed(r), 6);
    CHECK_EQ_U64(cc_reporter_distinct(r), 5);
    cc_reporter_close(r);
    fclose(tout);
    CHECK_EQ_U64(count_of(text, "[invalid-global-write]"), 2);
    CHECK_EQ_U64(count_of(text, "further findings not printed (print limit 2)"), 1);
    CHECK(strstr(text, "2 of 5 findings printed (print limit 2)"));
    CHECK(strstr(text, "ERROR SUMMARY: 5 errors, 6 suppressed\n"));
    CHECK(!strstr(text, "libkernel"));
    char *file = cc_test_read_file(path, NULL);
    CHECK(file && count_of(file, "\"type\":\"finding\"") == 5); /* the file has them all */
    CHECK(file && !strstr(file, "libkernel"));
    CHECK(file && strstr(file, "\"suppressed\":6"));
    free(file);
    free(text);

    /* bad suppressions file: open fails with the line number */
    sf = fopen(supp, "w");
    fputs("kind=race\nnonsense\n", sf);
    fclose(sf);
    cc_report_config bad = {NULL, NULL, 0, supp, "memcheck", NULL, NULL};
    CHECK(cc_reporter_open(&bad, err, sizeof err) == NULL);
    char want[300];
    snprintf(want, sizeof want, "%s:2:", supp);
    CHECK(strstr(err, want) != NULL);
    cc_report_config nopath = {"/nonexistent-dir/x/report.jsonl", NULL, 0, NULL, "memcheck",
                               NULL, NULL};
    CHECK(cc_reporter_open(&nopath, err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent-dir/x/report.jsonl") != NULL);
    unlink(supp);
    unlink(path);
}

static void test_clean_run(void) {
    char *text = NULL;
    size_t tlen = 0;
    FILE *tout = open_memstream(&text, &tlen);
    cc_report_config cfg = {NULL, tout, 0, NULL, "memcheck", NULL, NULL};
    cc_reporter *r = cc_reporter_open(&cfg, NULL, 0);
    CHECK(r != NULL);
    cc_reporter_close(r);
    fclose(tout);
    CHECK_STR(text, "========= ERROR SUMMARY: 0 errors\n");
    free(text);
}

typedef struct worker_arg {
    cc_reporter *r;
    uint32_t id;
} worker_arg;

static void *worker(void *p) {
    worker_arg *a = p;
    for (uint32_t i = 0; i < 2000; i++) {
        cc_finding f = oob(a->id, i, 0x1000 + i);
        f.device.line = i % 10; /* 10 distinct findings shared by all threads */
        cc_reporter_add(a->r, &f);
    }
    return NULL;
}

static void test_threads(void) {
    char path[256];
    snprintf(path, sizeof path, "%s/threads.jsonl", dir);
    cc_report_config cfg = {path, NULL, 0, NULL, "memcheck", NULL, NULL};
    cc_reporter *r = cc_reporter_open(&cfg, NULL, 0);
    CHECK(r != NULL);
    if (!r) return;
    pthread_t th[8];
    worker_arg args[8];
    for (uint32_t i = 0; i < 8; i++) {
        args[i] = (worker_arg){r, i};
        pthread_create(&th[i], NULL, worker, &args[i]);
    }
    for (int i = 0; i < 8; i++) pthread_join(th[i], NULL);
    CHECK_EQ_U64(cc_reporter_distinct(r), 10);
    CHECK_EQ_U64(cc_reporter_total(r), 16000);
    cc_reporter_close(r);
    cc_finding_set *s = cc_finding_set_new();
    char err[256];
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK_EQ_U64(cc_finding_set_size(s), 10);
    uint64_t sum = 0;
    for (size_t i = 0; i < cc_finding_set_size(s); i++) sum += cc_finding_set_get(s, i)->count;
    CHECK_EQ_U64(sum, 16000);
    cc_finding_set_free(s);
    unlink(path);
}

int main(void) {
    CHECK(mkdtemp(dir) != NULL);
    test_dedup_and_records();
    test_print_limit_and_suppressions();
    test_clean_run();
    test_threads();
    char path[256];
    snprintf(path, sizeof path, "%s/dedup.jsonl", dir);
    unlink(path);
    rmdir(dir);
    TEST_MAIN_END();
}
