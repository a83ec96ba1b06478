/* memcheck test (clean twin of mc_graph_then_eager.cu): the same eager launches, graph replays
 * and new-shape launches with the bound fixed. Expected: no findings, in both modes. */
#define MC_GRAPH_FIXED 1
#include "mc_graph_then_eager.cu"
