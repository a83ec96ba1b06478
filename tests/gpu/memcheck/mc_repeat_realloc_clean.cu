/* memcheck test (clean twin of mc_repeat_realloc.cu): five identical launches on one
 * buffer. Expected: no findings; in adaptive mode the second launch counts as a repeat. */
#define MC_REPEAT_CLEAN 1
#include "mc_repeat_realloc.cu"
