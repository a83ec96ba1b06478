/* GPU test program for streamcheck's default mode: re-learning when a kernel's launch shape
 * changes after its module was unpatched. Two kernels on two non-blocking streams write
 * DISJOINT halves of one buffer, ROUNDS times with a device synchronize between rounds; from
 * round ROUNDS/2 on they use another grid and block (the same coverage). No race: --mode full
 * is clean. In the default mode the first launches of each shape are instrumented (the module
 * is unpatched after the first shape is learned and re-patched for the second) and later ones
 * get learned access sets, except the first launch of the second shape: its module is
 * re-patched only at the next API exit (inside the launch callback the driver deadlocks), so it
 * gets an inferred set, which reports a known false positive (run_learned.sh expects it).
 * Exercises the deferred unpatch / re-patch of the instrumentation manager on non-blocking
 * streams (instr_internal.h, cc_instr_module_want). */
#include "sc_common.h"

#define ROUNDS 8

/* Writes p[0..count) after a short spin (so that the halves overlap in time). */
__global__ void fill_part(float *p, int count, float value, long long cycles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (i < count)
        p[i] = value;
}

int main(void)
{
    const int n = 1 << 16, half = n / 2;
    float *buf;
    CK(cudaMalloc((void **)&buf, (size_t)n * sizeof(float)));
    CK(cudaMemset(buf, 0, (size_t)n * sizeof(float)));
    cudaStream_t a, b;
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CK(cudaDeviceSynchronize());
    for (int r = 0; r < ROUNDS; r++) {
        int block = r < ROUNDS / 2 ? 256 : 512; /* the second shape */
        int grid = (half + block - 1) / block;
        fill_part<<<grid, block, 0, a>>>(buf, half, 1.0f, 50000LL);
        CK(cudaGetLastError());
        fill_part<<<grid, block, 0, b>>>(buf + half, half, 2.0f, 50000LL);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    float h[2];
    CK(cudaMemcpy(h, buf, sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h + 1, buf + n - 1, sizeof(float), cudaMemcpyDeviceToHost));
    printf("reshape: buf[0] = %.0f, buf[n-1] = %.0f\n", h[0], h[1]);
    CK(cudaFree(buf));
    return 0;
}
