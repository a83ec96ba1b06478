/* Unit tests of streamcheck's graph kernel node access sets, the parts that need no GPU: the
 * check of a node's driver-held parameters against the launch the Compute Sanitizer reports
 * (src/agent/graph_node_args.h), and the closing note's count of graph kernel nodes with and
 * without inferred access sets (tools/streamcheck/sc_coverage.h). */
#include <string.h>
#include "check.h"
#include "agent/graph_node_args.h"
#include "cucheck/event.h"
#include "tools/streamcheck/sc_coverage.h"

static int kernel_a, kernel_b; /* stand-ins for two CUfunction handles */

static cc_gna_view view(const void *func, uint32_t gx, uint32_t bx, int params, int extra)
{
    cc_gna_view v = {func, {gx, 1, 1}, {bx, 1, 1}, params, extra};
    return v;
}

static void check_args(void)
{
    cc_gna_view run = view(&kernel_a, 64, 256, 0, 0);
    cc_gna_view node = view(&kernel_a, 64, 256, 1, 0);
    CHECK(cc_gna_check(&node, &run) == CC_GNA_USE);
    node = view(&kernel_a, 64, 256, 0, 1); /* packed `extra` buffer only */
    CHECK(cc_gna_check(&node, &run) == CC_GNA_USE);
    node = view(&kernel_a, 64, 256, 0, 0);
    CHECK(cc_gna_check(&node, &run) == CC_GNA_NO_ARGS);
    node = view(&kernel_b, 64, 256, 1, 0);
    CHECK(cc_gna_check(&node, &run) == CC_GNA_OTHER_KERNEL);
    node = view(NULL, 64, 256, 1, 0); /* a CUkernel node: the function is not compared */
    CHECK(cc_gna_check(&node, &run) == CC_GNA_USE);
    node = view(&kernel_a, 32, 256, 1, 0); /* parameters changed after they were read */
    CHECK(cc_gna_check(&node, &run) == CC_GNA_OTHER_SHAPE);
    node = view(&kernel_a, 64, 128, 1, 0);
    CHECK(cc_gna_check(&node, &run) == CC_GNA_OTHER_SHAPE);
    node = view(&kernel_a, 64, 256, 1, 0);
    node.grid[2] = 2;
    CHECK(cc_gna_check(&node, &run) == CC_GNA_OTHER_SHAPE);
    node.grid[2] = 0; /* not filled in by the driver: not compared */
    CHECK(cc_gna_check(&node, &run) == CC_GNA_USE);
    CHECK(strcmp(cc_gna_verdict_name(CC_GNA_OTHER_KERNEL), "?") != 0);
    CHECK(strcmp(cc_gna_verdict_name((cc_gna_verdict)99), "?") == 0);
}

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
    ev.u.access.flags = CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE;
    ev.u.access.source = source;
    sc_cov_event(c, &ev);
}

static void check_note(void)
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
    sc_cov_note(c, note, sizeof note, fell, sizeof fell);
    fprintf(stderr, "%s\n", note);
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
    sc_cov_note(c, note, sizeof note, fell, sizeof fell);
    CHECK(strstr(note, "(graph kernel nodes 1: 0 with inferred access sets, 1 without)") != NULL);
    sc_cov_free(c);
}

int main(void)
{
    check_args();
    check_note();
    TEST_MAIN_END();
}
