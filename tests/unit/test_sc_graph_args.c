/* Unit tests of the check of a graph kernel node's driver-held parameters against the launch the
 * Compute Sanitizer reports (src/agent/tools/streamcheck/graph_node_args.h). The closing note's count of graph
 * kernel nodes is tested with the rest of the note (test_sc_coverage.c). */
#include <string.h>
#include "check.h"
#include "agent/tools/streamcheck/graph_node_args.h"

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

int main(void)
{
    check_args();
    TEST_MAIN_END();
}
