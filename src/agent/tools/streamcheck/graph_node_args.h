/* Whether the arguments the driver returns for a graph kernel node (cuGraphKernelNodeGetParams)
 * may stand for the node launch the Compute Sanitizer reports (GRAPHS NODE_LAUNCH_BEGIN): pure
 * logic over plain values, so that it is tested without a GPU (tests/unit/test_sc_graph_args.c).
 * The node's parameters describe the node as the driver holds it; if they name another kernel
 * or another launch shape than the launch that runs (a handle reused, parameters changed in the
 * executable graph after they were read, a stale node), its argument values cannot be trusted
 * either, and the node gets no access set. */
#ifndef CUCHECK_AGENT_GRAPH_NODE_ARGS_H
#define CUCHECK_AGENT_GRAPH_NODE_ARGS_H

#include <stdint.h>

/* One side of the comparison: the node's parameters or the launch's data. */
typedef struct cc_gna_view {
    const void *func;   /* CUfunction; NULL on the node side: a CUkernel node, not compared */
    uint32_t grid[3];
    uint32_t block[3];
    int has_params;     /* node side: kernelParams != NULL */
    int has_extra;      /* node side: extra != NULL */
} cc_gna_view;

typedef enum cc_gna_verdict {
    CC_GNA_USE = 0,         /* the arguments stand for this launch */
    CC_GNA_NO_ARGS = 1,     /* the node has neither kernelParams nor extra */
    CC_GNA_OTHER_KERNEL = 2,/* the node names another function */
    CC_GNA_OTHER_SHAPE = 3, /* the node's grid or block differs from the launch's */
} cc_gna_verdict;

static inline cc_gna_verdict cc_gna_check(const cc_gna_view *node, const cc_gna_view *launch)
{
    if (!node->has_params && !node->has_extra) {
        return CC_GNA_NO_ARGS;
    }
    if (node->func != NULL && launch->func != NULL && node->func != launch->func) {
        return CC_GNA_OTHER_KERNEL;
    }
    for (int i = 0; i < 3; i++) {
        /* A zero dimension is never launched: the driver's 0 means "not filled in". */
        if (node->grid[i] != 0 && launch->grid[i] != 0 && node->grid[i] != launch->grid[i]) {
            return CC_GNA_OTHER_SHAPE;
        }
        if (node->block[i] != 0 && launch->block[i] != 0 && node->block[i] != launch->block[i]) {
            return CC_GNA_OTHER_SHAPE;
        }
    }
    return CC_GNA_USE;
}

static inline const char *cc_gna_verdict_name(cc_gna_verdict v)
{
    switch (v) {
    case CC_GNA_USE: return "usable";
    case CC_GNA_NO_ARGS: return "no kernelParams or extra";
    case CC_GNA_OTHER_KERNEL: return "the node names another kernel";
    case CC_GNA_OTHER_SHAPE: return "the node's grid or block differs from the launch";
    default: return "?";
    }
}

#endif
