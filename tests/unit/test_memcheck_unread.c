/* memcheck keeps an instrumented launch until its LAUNCH_CHECKED (memcheck_unread.c): a finding
 * read back after 100,000 later launches (all instrumented and read at once, as in --mode full)
 * still names the launch's host stack and stream and is explained against the allocation live at
 * the launch; launches that were read, one by one or in runs, are forgotten (no note about
 * forgotten launches), and a stream that never says a launch was read is bounded: the oldest
 * are forgotten, with a note. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "test_session_report.h"
#include "cucheck/tool.h"

#define BUF 0x7f0000000000ull

static void ev_launch(cc_session *s, uint64_t id, uint64_t callsite, uint64_t stream)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_LAUNCH;
    ev.u.launch.name = id == 1 ? "reader" : "step";
    ev.u.launch.launch_id = id;
    ev.u.launch.callsite = callsite;
    ev.u.launch.stream = stream;
    ev.u.launch.flags = CC_LAUNCH_FLAG_INSTRUMENTED;
    cc_session_event(s, &ev);
}

static void ev_checked_run(cc_session *s, uint64_t first, uint64_t last, uint32_t errors)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_LAUNCH_CHECKED;
    ev.u.launch_checked.launch_id = first;
    ev.u.launch_checked.last_id = last;
    ev.u.launch_checked.errors = errors;
    cc_session_event(s, &ev);
}

static void ev_checked(cc_session *s, uint64_t id, uint32_t errors)
{
    ev_checked_run(s, id, 0, errors);
}

static void ev_alloc(cc_session *s, uint64_t size, uint64_t callsite, int free_first)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    if (free_first) {
        ev.h.kind = CC_EV_FREE;
        ev.u.free.mem_kind = CC_MEM_DEVICE;
        ev.u.free.address = BUF;
        cc_session_event(s, &ev);
        memset(&ev, 0, sizeof ev);
    }
    ev.h.kind = CC_EV_ALLOC;
    ev.u.alloc.mem_kind = CC_MEM_DEVICE;
    ev.u.alloc.address = BUF;
    ev.u.alloc.size = size;
    ev.u.alloc.callsite = callsite;
    cc_session_event(s, &ev);
}

static void ev_stack(cc_session *s, uint64_t id, const char *text)
{
    cc_stack_frame frame = {.pc = 0x1000, .text = text};
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_HOST_STACK;
    ev.u.host_stack.id = id;
    ev.u.host_stack.nframes = 1;
    ev.u.host_stack.frames = &frame;
    cc_session_event(s, &ev);
}

static void ev_overrun(cc_session *s)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_DEVICE_ACCESS_ERROR;
    ev.u.device_access_error.launch_id = 1;
    ev.u.device_access_error.kernel = "reader";
    ev.u.device_access_error.file = "";
    ev.u.device_access_error.address = BUF + 4004;
    ev.u.device_access_error.size = 4;
    ev.u.device_access_error.flags = CC_ACCESS_FLAG_READ;
    ev.u.device_access_error.space = 1;
    ev.u.device_access_error.violation = CC_VIOLATION_OUT_OF_BOUNDS;
    ev.u.device_access_error.count = 1;
    cc_session_event(s, &ev);
}

enum { READ_NONE, READ_EACH, READ_RUNS };
#define RUN 48 /* launches the agent reads together when its slots run short */

/* Launch 1 overruns a 4000-byte buffer; `later` instrumented launches follow (read: never, each
 * at once, or in runs of RUN that one LAUNCH_CHECKED covers), with the buffer freed and
 * reallocated at its address after each; then launch 1's finding and its LAUNCH_CHECKED.
 * Returns the report. */
static char *late_finding(int later, int read)
{
    char path[] = "/tmp/cc-mc-unread-XXXXXX";
    cc_session *s = cc_test_session_open("memcheck", path);
    CHECK(s != NULL);
    if (s == NULL) {
        return calloc(1, 1);
    }
    ev_stack(s, 11, "main (reader.cu:9)");
    ev_stack(s, 12, "main (reader.cu:21)");
    ev_alloc(s, 4000, 11, 0);
    ev_launch(s, 1, 12, 0x51);
    for (int i = 0; i < later; i++) {
        ev_launch(s, (uint64_t)i + 2, 0, 0x52);
        if (read == READ_EACH) {
            ev_checked(s, (uint64_t)i + 2, 0);
        } else if (read == READ_RUNS && (i + 1) % RUN == 0) {
            ev_checked_run(s, (uint64_t)i + 2 - (RUN - 1), (uint64_t)i + 2, 0);
        }
        ev_alloc(s, i % 2 == 0 ? 8192 : 4000, 0, 1);
    }
    ev_overrun(s);
    ev_checked(s, 1, 1);
    return cc_test_session_report(s, path);
}

int main(void)
{
    CHECK(cc_tool_find("memcheck") != NULL);

    char *full = late_finding(100000, READ_EACH);
    CHECK(strstr(full, "\"kind\":\"invalid-global-read\"") != NULL);
    CHECK(strstr(full, "4 bytes after the end of a 4000-byte device allocation") != NULL);
    CHECK(strstr(full, "reader.cu:21") != NULL); /* the launch's host stack */
    CHECK(strstr(full, "reader.cu:9") != NULL);  /* the allocation's */
    CHECK(strstr(full, "\"stream\":\"0x51\"") != NULL);
    CHECK(strstr(full, "forgotten") == NULL);
    free(full);

    /* No LAUNCH_CHECKED for the later launches (an older agent): launch 1 is among the oldest
     * unread ones and is forgotten past the bound, said in a note. */
    /* Read in runs, one event each (launch 1 lies outside every run): the same report, and no
     * launch is forgotten. */
    char *runs = late_finding(100000 / RUN * RUN, READ_RUNS);
    CHECK(strstr(runs, "4 bytes after the end of a 4000-byte device allocation") != NULL);
    CHECK(strstr(runs, "reader.cu:21") != NULL);
    CHECK(strstr(runs, "reader.cu:9") != NULL);
    CHECK(strstr(runs, "forgotten") == NULL);
    free(runs);

    char *unread = late_finding(70000, READ_NONE);
    CHECK(strstr(unread, "\"launch_id\":1,") != NULL); /* reported, with less context */
    CHECK(strstr(unread, "checked launch(es) were forgotten unread") != NULL);
    free(unread);
    TEST_MAIN_END();
}
