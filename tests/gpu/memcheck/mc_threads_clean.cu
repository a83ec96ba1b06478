/* memcheck test (clean twin of mc_threads.cu): the same 8 threads and launches with the bound
 * fixed. Expected: no findings, in both modes. */
#define MC_THREADS_FIXED 1
#include "mc_threads.cu"
