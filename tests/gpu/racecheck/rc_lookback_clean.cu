// A decoupled look-back chain, as CUB's scans do it: each block publishes its {flag, running sum}
// with one strong (relaxed, GPU-scope) 8-byte store and the next block polls it with strong loads.
// Strong accesses of one scope do not race with each other (PTX memory model): nothing to report.
#include "rc_common.h"
__global__ void lookback(unsigned long long *status, unsigned *out)
{
    if (threadIdx.x != 0) return;
    unsigned b = blockIdx.x;
    unsigned long long prev = 1ull << 32; // block 0's predecessor: ready, sum 0
    if (b > 0) {
        do {
            asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(prev) : "l"(status + b - 1));
        } while ((prev >> 32) == 0);
    }
    unsigned sum = (unsigned)prev + b + 1;
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(status + b),
                 "l"((1ull << 32) | sum));
    out[b] = sum;
}

int main()
{
    const unsigned blocks = 16;
    unsigned long long *status;
    unsigned *out, host[blocks];
    RC_CHECK(cudaMalloc(&status, blocks * sizeof(*status)));
    RC_CHECK(cudaMalloc(&out, blocks * sizeof(*out)));
    RC_CHECK(cudaMemset(status, 0, blocks * sizeof(*status)));
    lookback<<<blocks, 32>>>(status, out);
    RC_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    if (host[blocks - 1] != blocks * (blocks + 1) / 2) {
        std::printf("wrong sum %u\n", host[blocks - 1]);
        return 1;
    }
    RC_CHECK(cudaFree(status));
    RC_CHECK(cudaFree(out));
    return 0;
}
