/* Tables that grow well past their first size keep every entry findable: the session's host
 * stacks (hundreds defined, one redefined, the findings name the right frames), the reporter's
 * dedup table and the loader's finding ids (hundreds of distinct findings over two sections of
 * one report file, each with its own count), and the profile store's interned strings (ids
 * stable, texts kept). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "test_session_report.h"
#include "core/evtio.h"
#include "core/report.h"
#include "cucheck/tool.h"
#include "tools/profile/profile.h"

#define NSTACKS 600

/* A two-stream race whose allocation, writer and reader name stacks 0, 5 and NSTACKS - 1 of
 * NSTACKS defined before it; stack 5 is defined twice (the second definition wins). */
static char *race_with_many_stacks(void)
{
    size_t cap = 64 * (NSTACKS + 16), n = 0;
    char *s = malloc(cap);
    CHECK(s != NULL);
    if (s == NULL) {
        return NULL;
    }
    for (int i = 0; i < NSTACKS; i++) {
        n += (size_t)snprintf(s + n, cap - n, "host_stack id=h%d frame=\"site_%d (app.cu:%d)\"\n",
                              i, i, i + 1);
    }
    n += (size_t)snprintf(s + n, cap - n,
                          "host_stack id=h5 frame=\"redefined_site (app.cu:999)\"\n"
                          "stream_create stream=s1 flags=0x1\n"
                          "stream_create stream=s2 flags=0x1\n"
                          "alloc mem_kind=device address=buf size=4096 callsite=h0\n"
                          "launch name=writer grid=1 block=32 stream=s1 launch_id=1 callsite=h5\n"
                          "access launch_id=1 address=buf size=4096 flags=0x2\n"
                          "launch name=reader grid=1 block=32 stream=s2 launch_id=2 "
                          "callsite=h%d\n"
                          "access launch_id=2 address=buf size=4096 flags=0x1\n"
                          "process_exit reason=normal code=0\n",
                          NSTACKS - 1);
    CHECK(n < cap);
    return s;
}

static void test_session_stacks(void)
{
    char *scn = race_with_many_stacks();
    if (scn == NULL) {
        return;
    }
    char path[] = "/tmp/cc-container-stacks-XXXXXX";
    char err[256] = "";
    cc_session *s = cc_test_session_open("streamcheck", path);
    CHECK(s != NULL);
    if (s == NULL) {
        free(scn);
        return;
    }
    cc_evt_reader *r = cc_evt_reader_open_mem(scn, strlen(scn), 1, err, sizeof err);
    CHECK(r != NULL);
    cc_event ev;
    int rc = 0;
    while (r != NULL && (rc = cc_evt_read(r, &ev, err, sizeof err)) == 1) {
        cc_session_event(s, &ev);
    }
    CHECK_EQ_U64(rc, 0);
    if (r != NULL) {
        cc_evt_reader_close(r);
    }
    char *report = cc_test_session_report(s, path);
    CHECK(strstr(report, "\"kind\":\"race\"") != NULL);
    CHECK(strstr(report, "redefined_site (app.cu:999)") != NULL);
    CHECK(strstr(report, "site_5 (") == NULL);
    char last[64];
    snprintf(last, sizeof last, "site_%d (app.cu:%d)", NSTACKS - 1, NSTACKS);
    CHECK(strstr(report, last) != NULL);
    CHECK(strstr(report, "site_0 (app.cu:1)") != NULL);
    free(report);
    free(scn);
}

#define NDISTINCT 500
#define NSECOND 70

static cc_finding finding_at_line(uint32_t line)
{
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = "invalid-global-read";
    f.severity = CC_SEV_ERROR;
    f.message = "Address is out of bounds";
    f.has_device = 1;
    f.device.valid = CC_DLOC_KERNEL | CC_DLOC_LINE;
    f.device.kernel = "scan(int*)";
    f.device.launch_id = 1;
    f.device.file = "scan.cu";
    f.device.line = line;
    return f;
}

/* Adds findings at lines 1..n of scan.cu, the one at line i (1 + i % 3) times. */
static int write_section(const char *path, uint32_t n)
{
    cc_report_config cfg = {path, NULL, 0, NULL, "memcheck", NULL, NULL};
    cc_reporter *r = cc_reporter_open(&cfg, NULL, 0);
    CHECK(r != NULL);
    if (r == NULL) {
        return -1;
    }
    for (uint32_t i = 1; i <= n; i++) {
        cc_finding f = finding_at_line(i);
        for (uint32_t k = 0; k < 1 + i % 3; k++) {
            cc_reporter_add(r, &f);
        }
    }
    CHECK_EQ_U64(cc_reporter_distinct(r), n);
    cc_reporter_close(r);
    return 0;
}

static void test_report_tables(void)
{
    char dir[] = "/tmp/cc-container-report-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/two_sections.jsonl", dir);
    /* two sections in one file (a process that exec'd): finding ids start again at 1 */
    if (write_section(path, NDISTINCT) != 0 || write_section(path, NSECOND) != 0) {
        unlink(path);
        rmdir(dir);
        return;
    }
    cc_finding_set *s = cc_finding_set_new();
    char err[256] = "";
    size_t sections = 0;
    CHECK(cc_finding_set_load_report(s, path, NULL, &sections, err, sizeof err) == 0);
    CHECK_EQ_U64(sections, 2);
    CHECK_EQ_U64(cc_finding_set_size(s), NDISTINCT + NSECOND);
    for (size_t i = 0; i < cc_finding_set_size(s); i++) {
        const cc_finding *f = cc_finding_set_get(s, i);
        uint32_t line = (uint32_t)(i < NDISTINCT ? i + 1 : i - NDISTINCT + 1);
        CHECK_EQ_U64(f->device.line, line);
        CHECK_EQ_U64(f->count, 1 + line % 3); /* its section's update line applied to it */
    }
    cc_finding_set_free(s);
    unlink(path);
    rmdir(dir);
}

#define NSTRINGS 5000

static void test_profile_strings(void)
{
    cc_prof_data d;
    cc_prof_data_init(&d);
    CHECK_STR(cc_prof_str(&d, 0), "");
    CHECK_EQ_U64(cc_prof_intern(&d, ""), 0);
    CHECK_EQ_U64(cc_prof_intern(&d, NULL), 0);
    static uint32_t ids[NSTRINGS];
    char text[32];
    for (uint32_t i = 0; i < NSTRINGS; i++) {
        snprintf(text, sizeof text, "kernel_%u", i);
        ids[i] = cc_prof_intern(&d, text);
        CHECK_EQ_U64(ids[i], i + 1);
    }
    for (uint32_t i = 0; i < NSTRINGS; i++) {
        snprintf(text, sizeof text, "kernel_%u", i);
        CHECK_EQ_U64(cc_prof_intern(&d, text), ids[i]);
        CHECK_STR(cc_prof_str(&d, ids[i]), text);
    }
    CHECK_EQ_U64(d.nstrs, NSTRINGS + 1);
    CHECK(!d.oom);
    CHECK_STR(cc_prof_str(&d, NSTRINGS + 1), ""); /* an unknown id reads as "" */
    cc_prof_data_free(&d);
}

int main(void)
{
    CHECK(cc_tool_find("streamcheck") != NULL);
    test_session_stacks();
    test_report_tables();
    test_profile_strings();
    TEST_MAIN_END();
}
