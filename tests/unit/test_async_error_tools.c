/* Asynchronous errors are attributed by one piece of code in every tool: each run scenario with a
 * sticky error (tests/scenarios/run/async_*.scn, sticky_*.scn: exact, candidates, graphs,
 * progress marks, core dumps, failed synchronizations and copies) is replayed through run,
 * memcheck and streamcheck, and each must report the same single async-error finding (the same
 * message, device location, related launches and stacks; only "tool" differs). memcheck must
 * not label a call that failed with the sticky error as a bad free, copy or memset. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "test_session_report.h"
#include "core/evtio.h"
#include "cucheck/tool.h"

/* The JSON Lines report of the scenario text replayed through tool. */
static char *replay(const char *tool, const char *scn)
{
    char path[] = "/tmp/cc-async-tools-XXXXXX";
    char err[256] = "";
    cc_session *s = cc_test_session_open(tool, path);
    CHECK(s != NULL);
    if (s == NULL) {
        return calloc(1, 1);
    }
    cc_evt_reader *r = cc_evt_reader_open_mem(scn, strlen(scn), 1, err, sizeof err);
    CHECK(r != NULL);
    cc_event ev;
    while (r != NULL && cc_evt_read(r, &ev, err, sizeof err) == 1) {
        cc_session_event(s, &ev);
    }
    if (r != NULL) {
        cc_evt_reader_close(r);
    }
    return cc_test_session_report(s, path);
}

/* The report's async-error lines with "tool":"<tool>" taken out, joined; NULL if none. */
static char *async_lines(const char *report, const char *tool, int *count)
{
    char tag[64];
    snprintf(tag, sizeof tag, "\"tool\":\"%s\",", tool);
    size_t cap = strlen(report) + 1;
    char *out = calloc(1, cap);
    size_t o = 0;
    *count = 0;
    for (const char *line = report; out != NULL && *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        if (len > 0 && memmem(line, len, "\"kind\":\"async-error\"", 20) != NULL) {
            const char *t = memmem(line, len, tag, strlen(tag));
            size_t before = t != NULL ? (size_t)(t - line) : len;
            memcpy(out + o, line, before);
            o += before;
            if (t != NULL) {
                size_t after = len - before - strlen(tag);
                memcpy(out + o, t + strlen(tag), after);
                o += after;
            }
            out[o++] = '\n';
            (*count)++;
        }
        line += len + (end != NULL);
    }
    return out;
}

static int sticky_scenario(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".scn") == 0 &&
           (strncmp(name, "async_", 6) == 0 || strncmp(name, "sticky_", 7) == 0) &&
           strstr(name, "clean") == NULL;
}

static void check_scenario(const char *path)
{
    char *scn = cc_test_read_file(path, NULL);
    CHECK(scn != NULL);
    if (scn == NULL) {
        return;
    }
    static const char *const tools[] = {"run", "memcheck", "streamcheck"};
    char *lines[3];
    int counts[3];
    for (int i = 0; i < 3; i++) {
        char *report = replay(tools[i], scn);
        lines[i] = async_lines(report, tools[i], &counts[i]);
        if (i == 1) {
            /* memcheck: the failed calls are the sticky error's echo, no findings of their own */
            CHECK(strstr(report, "\"kind\":\"invalid-free\"") == NULL);
            CHECK(strstr(report, "\"kind\":\"invalid-copy\"") == NULL);
            CHECK(strstr(report, "\"kind\":\"invalid-memset\"") == NULL);
        }
        free(report);
    }
    for (int i = 0; i < 3; i++) {
        if (counts[i] != 1 || lines[i] == NULL || strcmp(lines[i], lines[0]) != 0) {
            fprintf(stderr, "%s: %s reports %d async-error(s):\n%s\nrun:\n%s\n", path, tools[i],
                    counts[i], lines[i] ? lines[i] : "", lines[0] ? lines[0] : "");
        }
        CHECK_EQ_U64(counts[i], 1);
        CHECK(lines[i] != NULL && lines[0] != NULL && strcmp(lines[i], lines[0]) == 0);
    }
    for (int i = 0; i < 3; i++) {
        free(lines[i]);
    }
    free(scn);
}

int main(void)
{
    CHECK(cc_tool_find("run") != NULL && cc_tool_find("memcheck") != NULL &&
          cc_tool_find("streamcheck") != NULL);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/scenarios/run", CC_TEST_SOURCE_DIR);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int checked = 0;
    for (struct dirent *e = d != NULL ? readdir(d) : NULL; e != NULL; e = readdir(d)) {
        if (!sticky_scenario(e->d_name)) {
            continue;
        }
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        check_scenario(path);
        checked++;
    }
    if (d != NULL) {
        closedir(d);
    }
    CHECK(checked >= 20); /* the run scenarios with a sticky error */
    TEST_MAIN_END();
}
