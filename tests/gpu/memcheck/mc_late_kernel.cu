/* memcheck test (buggy): a long run of a clean kernel (6,000 launches, past the point where
 * launch-end callbacks go off), then two launches of a new kernel that writes one element past
 * its buffer. Adaptive mode must still check the new kernel. Its first launch finds its module
 * unpatched (the steady kernel's checks were done) and runs unchecked while the module is
 * patched again; the second is checked with launch-end callbacks still off, so only the exit of
 * its launch call can mark it submitted (a first version turned them off and missed this overrun;
 * a launch-end it waited for would never come, and with no later launch nothing else marks it).
 * Expected:
 * invalid-global-write in late_overrun by thread (232,0,0) of block (3,0,0), size 4, in both
 * modes. mc_late_kernel_clean.cu builds it with MC_LATE_FIXED: the bound is right, no finding. */
#include "mc_common.h"

__global__ void steady(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1.0f;
}

__global__ void late_overrun(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef MC_LATE_FIXED
    if (i < n) out[i] = 2.0f;
#else
    if (i <= n) out[i] = 2.0f; /* BUG: i == n writes one element past the end */
#endif
}

int main(void)
{
    const int n = 1000;
    float *a, *out;
    CHECK(cudaMalloc((void **)&a, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
    CHECK(cudaMemset(a, 0, n * sizeof(float)));
    for (int k = 0; k < 6000; k++) {
        steady<<<(n + 127) / 128, 128>>>(a, n);
    }
    CHECK(cudaGetLastError());
    for (int k = 0; k < 2; k++) {
        late_overrun<<<(n + 255) / 256, 256>>>(out, n);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(a));
    CHECK(cudaFree(out));
    printf("mc_late_kernel: done\n");
    return 0;
}
