/* memcheck test (clean twin of mc_capture_first.cu): the same captured, then eager launch
 * with the bound fixed. Expected: no findings, in both modes. */
#define MC_CAPTURE_FIRST_CLEAN 1
#include "mc_capture_first.cu"
