/* memcheck test (clean twin of mc_late_kernel.cu): the same long run and late kernel with the
 * bound fixed. Expected: no findings, in both modes. */
#define MC_LATE_FIXED 1
#include "mc_late_kernel.cu"
