// Shared by rc_late_blocks.cu and rc_late_blocks_clean.cu: an elementwise kernel with no shared
// memory over a large grid (262,144 blocks of 256 threads), whose last blocks also count into a
// global counter; `COUNT(counter)` is how they count.
#pragma once
#include "rc_common.h"

#define LB_BLOCKS 262144u
#define LB_THREADS 256u
#define LB_FIRST_COUNTING 250000u

static int lb_run(void (*launch)(const float *, float *, int *))
{
    size_t n = (size_t)LB_BLOCKS * LB_THREADS;
    float *in, *out;
    int *counter, got = 0;
    RC_CHECK(cudaMalloc(&in, n * sizeof(float)));
    RC_CHECK(cudaMalloc(&out, n * sizeof(float)));
    RC_CHECK(cudaMalloc(&counter, sizeof(int)));
    RC_CHECK(cudaMemset(in, 0, n * sizeof(float)));
    RC_CHECK(cudaMemset(counter, 0, sizeof(int)));
    launch(in, out, counter);
    RC_CHECK(cudaGetLastError());
    RC_CHECK(cudaDeviceSynchronize());
    RC_CHECK(cudaMemcpy(&got, counter, sizeof got, cudaMemcpyDeviceToHost));
    RC_CHECK(cudaFree(in));
    RC_CHECK(cudaFree(out));
    RC_CHECK(cudaFree(counter));
    std::printf("counted %d of %u blocks\n", got, LB_BLOCKS - LB_FIRST_COUNTING);
    return 0;
}
