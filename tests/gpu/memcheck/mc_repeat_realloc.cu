/* memcheck test: a launch whose argument values repeat a checked launch's but whose buffer was
 * freed and allocated again, smaller, at the same address. Adaptive mode must check it (the
 * allocation's bounds are part of what makes a launch a repeat) and report the overrun.
 * With MC_REPEAT_CLEAN (mc_repeat_realloc_clean.cu) the same buffer is filled five times: no
 * findings, and the second launch is counted as a repeat. */
#include <stdio.h>
#include "mc_common.h"

__global__ void fill_words(unsigned *p, int n, unsigned v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v; /* BUG: n words into a block that may hold fewer */
}

int main(void)
{
    const int n = 4096;
    unsigned *p = NULL;
    CHECK(cudaMalloc(&p, n * sizeof *p));
    fill_words<<<n / 256, 256>>>(p, n, 1u);
    CHECK(cudaDeviceSynchronize());
#ifndef MC_REPEAT_CLEAN
    CHECK(cudaFree(p));
    unsigned *q = NULL;
    CHECK(cudaMalloc(&q, n / 2 * sizeof *q)); /* the driver hands the same address back */
    printf("same address: %s\n", q == p ? "yes" : "no");
    p = q;
#endif
    for (int k = 0; k < 4; k++) {
        fill_words<<<n / 256, 256>>>(p, n, 1u);
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(p));
    return 0;
}
