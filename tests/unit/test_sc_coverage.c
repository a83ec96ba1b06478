/* Unit tests of streamcheck's coverage note (tools/streamcheck/sc_coverage.h): launches counted
 * by how they got their access sets (instrumented flag, learned / inferred access events, none),
 * kernels classified, a kernel that fell back to inferred sets named, graph kernel nodes
 * counted, host accesses and access events of unknown launches ignored. */
#include <string.h>
#include "check.h"
#include "cucheck/event.h"
#include "tools/streamcheck/sc_coverage.h"

static void launch(sc_cov *c, uint64_t id, uint64_t fn, const char *name, uint32_t flags)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_LAUNCH;
    ev.u.launch.launch_id = id;
    ev.u.launch.function = fn;
    ev.u.launch.name = name;
    ev.u.launch.flags = flags;
    sc_cov_event(c, &ev);
}

static void access(sc_cov *c, uint64_t id, uint32_t source)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_ACCESS;
    ev.u.access.launch_id = id;
    ev.u.access.address = 0x1000;
    ev.u.access.size = 16;
    ev.u.access.flags = CC_ACCESS_FLAG_READ;
    ev.u.access.source = source;
    sc_cov_event(c, &ev);
}

/* Graph kernel nodes counted with and without inferred access sets. */
static void graph_node_counts(void)
{
    sc_cov *c = sc_cov_new();
    CHECK(c != NULL);
    if (c == NULL)
        return;
    /* Three graph kernel nodes: two with inferred sets (one with two events), one without. */
    launch(c, 1, 10, "produce", CC_LAUNCH_FLAG_GRAPH_NODE);
    access(c, 1, CC_ACCESS_SRC_INFERRED);
    access(c, 1, CC_ACCESS_SRC_INFERRED);
    launch(c, 2, 20, "consume", CC_LAUNCH_FLAG_GRAPH_NODE);
    access(c, 2, CC_ACCESS_SRC_INFERRED);
    launch(c, 3, 20, "consume", CC_LAUNCH_FLAG_GRAPH_NODE);
    /* A stream launch with an inferred set is not a graph node. */
    launch(c, 4, 30, "clobber", 0);
    access(c, 4, CC_ACCESS_SRC_INFERRED);
    char note[1024], fell[1024];
    sc_cov_note(c, NULL, note, sizeof note, fell, sizeof fell);
    CHECK(strstr(note, "launches instrumented 0/4, learned 0, inferred 3, without access "
                       "events 1 (graph kernel nodes 3: 2 with inferred access sets, 1 "
                       "without)") != NULL);
    CHECK(fell[0] == '\0');
    sc_cov_free(c);

    /* No graph nodes: zeros; a launch id reused by a later stream launch is not a node. */
    c = sc_cov_new();
    CHECK(c != NULL);
    if (c == NULL)
        return;
    launch(c, 7, 10, "k", CC_LAUNCH_FLAG_GRAPH_NODE);
    launch(c, 7 + 65536, 10, "k", 0); /* same window slot */
    access(c, 7 + 65536, CC_ACCESS_SRC_INFERRED);
    sc_cov_note(c, NULL, note, sizeof note, fell, sizeof fell);
    CHECK(strstr(note, "(graph kernel nodes 1: 0 with inferred access sets, 1 without)") != NULL);
    sc_cov_free(c);
}

int main(void)
{
    sc_cov *c = sc_cov_new();
    CHECK(c != NULL);
    if (c == NULL)
        TEST_MAIN_END();
    /* Kernel A: instrumented twice (two events each), then learned three times. */
    launch(c, 1, 10, "kA", CC_LAUNCH_FLAG_INSTRUMENTED);
    access(c, 1, CC_ACCESS_SRC_INSTRUMENTED);
    access(c, 1, CC_ACCESS_SRC_INSTRUMENTED);
    launch(c, 2, 10, "kA", CC_LAUNCH_FLAG_INSTRUMENTED);
    access(c, 2, CC_ACCESS_SRC_INSTRUMENTED);
    for (uint64_t id = 3; id <= 5; id++) {
        launch(c, id, 10, "kA", 0);
        access(c, id, CC_ACCESS_SRC_LEARNED);
        access(c, id, CC_ACCESS_SRC_LEARNED);
    }
    /* Kernel B: instrumented, then inferred (fell back). */
    launch(c, 6, 20, "kB", CC_LAUNCH_FLAG_INSTRUMENTED);
    launch(c, 7, 20, "kB", 0);
    access(c, 7, CC_ACCESS_SRC_INFERRED);
    /* Kernel C: inferred only (no layout). A graph node without a set. */
    launch(c, 8, 30, "kC", 0);
    access(c, 8, CC_ACCESS_SRC_INFERRED);
    launch(c, 9, 40, "kG", CC_LAUNCH_FLAG_GRAPH_NODE);
    /* Ignored: a host access, an event of a launch never seen. */
    access(c, 0, CC_ACCESS_SRC_UNKNOWN);
    access(c, 12345, CC_ACCESS_SRC_LEARNED);

    char note[1024], fell[1024];
    sc_cov_note(c, NULL, note, sizeof note, fell, sizeof fell);
    fprintf(stderr, "%s\n%s\n", note, fell);
    CHECK(strstr(note, "kernels 4 (1 learned, 2 instrumented, 2 inferred, 1 without)") != NULL);
    CHECK(strstr(note, "launches instrumented 3/9, learned 3, inferred 2, without access "
                       "events 1 (graph kernel nodes 1") != NULL);
    CHECK(strstr(fell, "1 kernel(s) fell back") != NULL);
    CHECK(strstr(fell, "kB") != NULL);
    CHECK(strstr(fell, "kA") == NULL && strstr(fell, "kC") == NULL);
    sc_cov_free(c);

    /* Nothing fell back: no second sentence; big numbers are grouped. */
    c = sc_cov_new();
    CHECK(c != NULL);
    if (c == NULL)
        TEST_MAIN_END();
    for (uint64_t id = 1; id <= 1234; id++) {
        launch(c, id, 10, "kA", id == 1 ? CC_LAUNCH_FLAG_INSTRUMENTED : 0);
        access(c, id, id == 1 ? CC_ACCESS_SRC_INSTRUMENTED : CC_ACCESS_SRC_LEARNED);
    }
    sc_cov_note(c, NULL, note, sizeof note, fell, sizeof fell);
    CHECK(strstr(note, "launches instrumented 1/1,234, learned 1,233") != NULL);
    CHECK(fell[0] == '\0');
    sc_cov_free(c);
    graph_node_counts();
    TEST_MAIN_END();
}
