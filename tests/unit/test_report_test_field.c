/* Tests of a finding's "test" (the test that was running when it was made): the reporter reads
 * the variable it was told about per finding (not without being told, not over a test the tool
 * gave), the same bug in two tests stays two findings while repeats in one test fold, and the
 * field goes through the JSON Lines writer and loader, the text writer (escaped), SARIF and deep
 * copies; a finding without a test writes no "test" anywhere. */
#include "check.h"
#include "test_files.h"
#include "core/finding_util.h"
#include "core/report.h"

#include <stdlib.h>
#include <unistd.h>

#define TEST_VAR "CC_UNIT_RUNNING_TEST"

static char dir[] = "/tmp/cc_report_test_XXXXXX";

static cc_stack_frame frames[] = {{0x401000, "tests/test_model.py:12 in test_fwd"}};

static cc_finding oob(uint32_t thread) {
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = "invalid-global-write";
    f.severity = CC_SEV_ERROR;
    f.message = "Address is 4 bytes after the end of a 1024-byte allocation";
    f.has_device = 1;
    f.device.valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    f.device.kernel = "triton_poi_fused_add_0";
    f.device.pc = 0x80;
    f.device.thread[0] = thread;
    f.device.address = 0x7f0000000400;
    f.device.size = 4;
    f.device.access = CC_ACCESS_WRITE;
    f.device.space = CC_SPACE_GLOBAL;
    f.nframes = 1;
    f.frames = frames;
    return f;
}

static size_t count_of(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

/* The reporter told about TEST_VAR: per-test findings, folding within a test, no test between. */
static void test_reporter_reads_running_test(const char *path) {
    char *text = NULL;
    size_t tlen = 0;
    FILE *tout = open_memstream(&text, &tlen);
    cc_report_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.jsonl_path = path;
    cfg.text_out = tout;
    cfg.tool = "memcheck";
    char err[256] = "";
    cc_reporter *r = cc_reporter_open(&cfg, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    CHECK(cc_reporter_set_test_env(r, TEST_VAR) == 0);
    cc_finding f = oob(1);

    setenv(TEST_VAR, "tests/test_model.py::test_fwd", 1);
    CHECK(cc_reporter_add(r, &f) == 1);
    f.device.thread[0] = 2;
    CHECK(cc_reporter_add(r, &f) == 0); /* a repeat in the same test folds */
    setenv(TEST_VAR, "tests/test_model.py::test_bwd[cuda]", 1);
    CHECK(cc_reporter_add(r, &f) == 1); /* the same bug in another test is its own finding */
    setenv(TEST_VAR, "", 1);            /* between tests */
    CHECK(cc_reporter_add(r, &f) == 1);
    unsetenv(TEST_VAR);
    CHECK(cc_reporter_add(r, &f) == 0); /* unset reads as empty: folds with the one before */
    setenv(TEST_VAR, "tests/test_model.py::test_fwd", 1);
    cc_finding own = oob(3);
    own.test = "tests/other.py::test_given";
    CHECK(cc_reporter_add(r, &own) == 1); /* a test the tool gave is kept */
    setenv(TEST_VAR, "tests/t.py::test_\x1b[2J", 1);
    CHECK(cc_reporter_add(r, &f) == 1);
    unsetenv(TEST_VAR);
    CHECK_EQ_U64(cc_reporter_distinct(r), 5);
    CHECK_EQ_U64(cc_reporter_total(r), 7);
    cc_reporter_close(r);
    fclose(tout);

    CHECK_EQ_U64(count_of(text, "In test: tests/test_model.py::test_fwd\n"), 1);
    CHECK_EQ_U64(count_of(text, "In test: tests/test_model.py::test_bwd[cuda]\n"), 1);
    CHECK_EQ_U64(count_of(text, "In test: tests/other.py::test_given\n"), 1);
    CHECK_EQ_U64(count_of(text, "In test: tests/t.py::test_\\x1b[2J\n"), 1); /* escaped */
    CHECK(strchr(text, '\x1b') == NULL);
    CHECK_EQ_U64(count_of(text, "In test:"), 4);
    free(text);

    size_t len = 0;
    char *jsonl = cc_test_read_file(path, &len);
    CHECK(jsonl != NULL);
    if (!jsonl) return;
    CHECK_EQ_U64(count_of(jsonl, "\"test\":\"tests/test_model.py::test_fwd\""), 1);
    CHECK_EQ_U64(count_of(jsonl, "\"test\":\"tests/test_model.py::test_bwd[cuda]\""), 1);
    CHECK_EQ_U64(count_of(jsonl, "\"test\":\"tests/t.py::test_\\u001b[2J\""), 1);
    CHECK_EQ_U64(count_of(jsonl, "\"test\":"), 4);
    free(jsonl);
}

/* Not told about a variable: the reporter never reads one. */
static void test_reporter_not_told(void) {
    char *text = NULL;
    size_t tlen = 0;
    FILE *tout = open_memstream(&text, &tlen);
    cc_report_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.text_out = tout;
    cfg.tool = "memcheck";
    char err[256] = "";
    cc_reporter *r = cc_reporter_open(&cfg, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    setenv(TEST_VAR, "tests/test_model.py::test_fwd", 1);
    cc_finding f = oob(1);
    CHECK(cc_reporter_add(r, &f) == 1);
    CHECK(cc_reporter_set_test_env(r, TEST_VAR) == 0);
    CHECK(cc_reporter_set_test_env(r, NULL) == 0); /* told, then told to stop */
    CHECK(cc_reporter_add(r, &f) == 0);
    unsetenv(TEST_VAR);
    cc_reporter_close(r);
    fclose(tout);
    CHECK(strstr(text, "In test") == NULL);
    free(text);
}

/* The loader reads "test" back; a "test" that is no string is a damaged line. */
static void test_load_back(const char *path) {
    cc_finding_set *s = cc_finding_set_new();
    char err[512] = "";
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK_EQ_U64(cc_finding_set_size(s), 5);
    const cc_finding *a = cc_finding_set_get(s, 0), *b = cc_finding_set_get(s, 1),
                     *none = cc_finding_set_get(s, 2), *own = cc_finding_set_get(s, 3);
    CHECK(a && b && none && own);
    if (a && b && none && own) {
        CHECK_STR(a->test, "tests/test_model.py::test_fwd");
        CHECK_EQ_U64(a->count, 2);
        CHECK_STR(b->test, "tests/test_model.py::test_bwd[cuda]");
        CHECK(none->test == NULL);
        CHECK_EQ_U64(none->count, 2);
        CHECK_STR(own->test, "tests/other.py::test_given");

        /* deep copy */
        cc_finding *copy = cc_finding_clone(a, NULL, 0);
        CHECK(copy && copy->test != a->test);
        if (copy) CHECK_STR(copy->test, a->test);
        free(copy);

        /* SARIF: the test is a result property; a finding without one has none */
        char *sarif = NULL;
        size_t slen = 0;
        FILE *out = open_memstream(&sarif, &slen);
        const cc_finding *both[] = {a, none};
        cc_write_sarif(out, "memcheck", both, 2);
        fclose(out);
        CHECK_EQ_U64(count_of(sarif, "\"test\":\"tests/test_model.py::test_fwd\""), 1);
        CHECK_EQ_U64(count_of(sarif, "\"test\":"), 1);
        free(sarif);
    }
    cc_finding_set_free(s);

    char bad[256];
    snprintf(bad, sizeof bad, "%s/bad.jsonl", dir);
    CHECK(cc_test_write_file(
              bad, "{\"type\":\"finding\",\"tool\":\"memcheck\",\"kind\":\"leak\",\"test\":5}\n"
                   "{\"type\":\"finding\",\"tool\":\"memcheck\",\"kind\":\"leak\",\"test\":\"t::a\"}\n") == 0);
    s = cc_finding_set_new();
    err[0] = '\0';
    CHECK(cc_finding_set_load_jsonl(s, bad, err, sizeof err) == 1);
    CHECK(strstr(err, ":1:") != NULL);
    CHECK_EQ_U64(cc_finding_set_size(s), 1);
    if (cc_finding_set_size(s) == 1) CHECK_STR(cc_finding_set_get(s, 0)->test, "t::a");
    cc_finding_set_free(s);
    unlink(bad);
}

int main(void) {
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/report.jsonl", dir);
    test_reporter_reads_running_test(path);
    test_reporter_not_told();
    test_load_back(path);
    unlink(path);
    rmdir(dir);
    TEST_MAIN_END();
}
