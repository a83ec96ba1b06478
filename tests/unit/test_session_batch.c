/* cc_session_events: a launch's access events handed over in one call (as the agent does, under
 * one lock) reach the tool in order, exactly as the same events one by one: streamcheck finds the
 * race both ways (made by the last event of the reader's batch: the writer writes only b), and
 * nothing in the twin whose reader waits on an event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "test_session_report.h"
#include "core/evtio.h"
#include "core/session.h"
#include "cucheck/tool.h"

#define SCN_HEAD                                                                                \
    "stream_create stream=s1 flags=0x1\n"                                                        \
    "stream_create stream=s2 flags=0x1\n"                                                        \
    "alloc mem_kind=device address=a size=4096\n"                                                \
    "alloc mem_kind=device address=b size=4096\n"                                                \
    "event_create event=e\n"                                                                     \
    "launch name=writer grid=1 block=32 stream=s1 launch_id=1\n"                                 \
    "access launch_id=1 address=a size=4096 flags=0x1\n"                                         \
    "access launch_id=1 address=b size=4096 flags=0x2\n"
#define SCN_TAIL                                                                                \
    "launch name=reader grid=1 block=32 stream=s2 launch_id=2\n"                                 \
    "access launch_id=2 address=a size=64 flags=0x1\n"                                           \
    "access launch_id=2 address=a size=64 flags=0x1\n"                                           \
    "access launch_id=2 address=b size=64 flags=0x1\n"                                           \
    "process_exit reason=normal code=0\n"
static const char *racy = SCN_HEAD SCN_TAIL;
static const char *ordered = SCN_HEAD "event_record event=e stream=s1\n"
                                      "event_wait event=e stream=s2\n" SCN_TAIL;
static int batches; /* cc_session_events calls with more than one event */

/* Replays scn through streamcheck; batched: consecutive access events go in one call. Returns
 * the number of race findings in the report. */
static int races(const char *scn, int batched)
{
    char path[] = "/tmp/cc-batch-test-XXXXXX";
    char err[256] = "";
    cc_session *s = cc_test_session_open("streamcheck", path);
    cc_evt_reader *r = cc_evt_reader_open_mem(scn, strlen(scn), 1, err, sizeof err);
    CHECK(s != NULL && r != NULL);
    if (s == NULL || r == NULL) {
        if (s != NULL) {
            free(cc_test_session_report(s, path));
        }
        if (r != NULL) {
            cc_evt_reader_close(r);
        }
        return -1;
    }
    cc_event ev, pending[8];
    size_t npending = 0;
    while (cc_evt_read(r, &ev, err, sizeof err) == 1) {
        if (batched && ev.h.kind == CC_EV_ACCESS && npending < 8) {
            pending[npending++] = ev; /* access events hold no strings */
            continue;
        }
        if (npending > 0) {
            batches += npending > 1;
            cc_session_events(s, pending, npending);
            npending = 0;
        }
        cc_session_event(s, &ev);
    }
    cc_evt_reader_close(r);
    char *text = cc_test_session_report(s, path);
    int n = cc_test_count(text, "\"kind\":\"race\"");
    free(text);
    return n;
}

int main(void)
{
    CHECK(cc_tool_find("streamcheck") != NULL);
    CHECK_EQ_U64(races(racy, 0), 1);
    CHECK_EQ_U64(races(ordered, 0), 0);
    batches = 0;
    CHECK_EQ_U64(races(racy, 1), 1);
    CHECK_EQ_U64(races(ordered, 1), 0);
    CHECK_EQ_U64(batches, 4); /* two launches' sets, twice */
    TEST_MAIN_END();
}
