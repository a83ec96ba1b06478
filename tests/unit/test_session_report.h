/* Session helpers shared by cucheck's CPU unit tests that replay events through a tool: open a
 * session whose JSON Lines report goes to a fresh temporary file, close it and read the report
 * back, and count a text's occurrences in it. */
#ifndef CUCHECK_TEST_SESSION_REPORT_H
#define CUCHECK_TEST_SESSION_REPORT_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test_files.h"
#include "core/session.h"

/* A session of tool writing its report to a new file named from path (a mkstemp template,
 * rewritten in place); NULL (and no file left) if it cannot be opened. */
static inline cc_session *cc_test_session_open(const char *tool, char *path)
{
    int fd = mkstemp(path);
    if (fd < 0) {
        return NULL;
    }
    close(fd);
    cc_session_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tool = cc_tool_find(tool);
    cfg.report.jsonl_path = path;
    cfg.report.tool = tool;
    char err[256] = "";
    cc_session *s = cc_session_open(&cfg, err, sizeof err);
    if (s == NULL) {
        unlink(path);
    }
    return s;
}

/* Closes the session and returns its report's text (never NULL; "" if unreadable); the file
 * is removed. */
static inline char *cc_test_session_report(cc_session *s, const char *path)
{
    cc_session_close(s);
    char *text = cc_test_read_file(path, NULL);
    unlink(path);
    return text != NULL ? text : calloc(1, 1);
}

static inline int cc_test_count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

#endif
