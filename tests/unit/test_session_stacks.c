/* Host stacks a tool needs before the event stream defined them (the agent symbolizes stacks
 * lazily, so a finding made mid-run names ids not yet defined): the session asks its resolver
 * and the finding carries the frames; without a resolver, or when it declines, the finding
 * has no frames and nothing breaks. Uses streamcheck on a two-stream race. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "test_session_report.h"
#include "core/evtio.h"
#include "core/session.h"
#include "cucheck/tool.h"

static const char *race_scn =
    "stream_create stream=s1 flags=0x1\n"
    "stream_create stream=s2 flags=0x1\n"
    "alloc mem_kind=device address=buf size=4096 callsite=salloc\n"
    "launch name=writer grid=1 block=32 stream=s1 launch_id=1 callsite=swriter\n"
    "access launch_id=1 address=buf size=4096 flags=0x2\n"
    "launch name=reader grid=1 block=32 stream=s2 launch_id=2 callsite=sreader\n"
    "access launch_id=2 address=buf size=4096 flags=0x1\n"
    "process_exit reason=normal code=0\n";

static int calls;

/* Defines any id as one frame naming it. */
static int resolve_all(uint64_t id, cc_session_stack_sink sink, void *sink_arg, void *arg)
{
    (void)arg;
    char text[64];
    snprintf(text, sizeof text, "resolved_frame_%llu (app.cu:7)", (unsigned long long)id);
    cc_stack_frame frame = {.pc = 0x1000, .text = text};
    cc_ev_host_stack st;
    memset(&st, 0, sizeof st);
    st.id = id;
    st.nframes = 1;
    st.frames = &frame;
    sink(&st, sink_arg);
    calls++;
    return 0;
}

static int resolve_none(uint64_t id, cc_session_stack_sink sink, void *sink_arg, void *arg)
{
    (void)id;
    (void)sink;
    (void)sink_arg;
    (void)arg;
    calls++;
    return -1;
}

/* Replays race_scn through streamcheck with the given resolver (NULL: none); returns the
 * JSON Lines report's text. */
static char *replay(int (*resolve)(uint64_t, cc_session_stack_sink, void *, void *))
{
    char path[] = "/tmp/cc-stacks-test-XXXXXX";
    char err[256] = "";
    cc_session *s = cc_test_session_open("streamcheck", path);
    CHECK(s != NULL);
    if (s == NULL) {
        return calloc(1, 1);
    }
    if (resolve != NULL) {
        cc_session_set_stack_resolver(s, resolve, NULL);
    }
    cc_evt_reader *r = cc_evt_reader_open_mem(race_scn, strlen(race_scn), 1, err, sizeof err);
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

int main(void)
{
    CHECK(cc_tool_find("streamcheck") != NULL);

    calls = 0;
    char *with = replay(resolve_all);
    CHECK(strstr(with, "\"kind\":\"race\"") != NULL);
    /* both sides of the race and the allocation carry their resolved stacks */
    CHECK(cc_test_count(with, "resolved_frame_") >= 3);
    CHECK(strstr(with, "app.cu") != NULL);
    CHECK(calls >= 3);
    free(with);

    calls = 0;
    char *declined = replay(resolve_none);
    CHECK(strstr(declined, "\"kind\":\"race\"") != NULL);
    CHECK(strstr(declined, "resolved_frame_") == NULL);
    CHECK(calls >= 1);
    free(declined);

    char *without = replay(NULL);
    CHECK(strstr(without, "\"kind\":\"race\"") != NULL);
    CHECK(strstr(without, "resolved_frame_") == NULL);
    free(without);
    TEST_MAIN_END();
}
