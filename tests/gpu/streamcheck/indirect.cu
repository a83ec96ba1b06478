/* GPU test program for streamcheck: kernels that reach their data through a table of pointers
 * kept in device memory, which no pointer argument reveals. Round 0 races: `bump` on stream A
 * writes the target while `peek` on stream B reads it, unordered. --mode full and the default
 * mode (whose first launches of a kernel are instrumented) report the race on the target;
 * --mode api reports one too, but on the pointer table (its inferred sets take every pointer
 * argument as written) and would miss it if the table were read-only memory it did not track.
 * Later rounds order peek after bump with an event; their launches make `bump` and `peek`
 * unlearnable in the default mode (accesses outside their pointer arguments' allocations):
 * after a few instrumented launches they fall back to inferred access sets, which the closing
 * note names. */
#include "sc_common.h"

#define ROUNDS 10

__global__ void bump(float *const *table, int n, long long cycles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (i < n)
        table[0][i] += 1.0f;
}

__global__ void peek(float *const *table, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[0][i];
}

int main(void)
{
    const int n = 1 << 14, block = 256, grid = (n + block - 1) / block;
    float *target, *out, **table;
    CK(cudaMalloc((void **)&target, n * sizeof(float)));
    CK(cudaMalloc((void **)&out, n * sizeof(float)));
    CK(cudaMalloc((void **)&table, sizeof(float *)));
    CK(cudaMemset(target, 0, n * sizeof(float)));
    CK(cudaMemcpy(table, &target, sizeof(float *), cudaMemcpyHostToDevice));
    cudaStream_t a, b;
    CK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CK(cudaDeviceSynchronize());
    cudaEvent_t done;
    CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    for (int r = 0; r < ROUNDS; r++) {
        bump<<<grid, block, 0, a>>>(table, n, 200000LL);
        CK(cudaGetLastError());
        if (r > 0) { /* round 0 lacks this ordering: the BUG */
            CK(cudaEventRecord(done, a));
            CK(cudaStreamWaitEvent(b, done, 0));
        }
        peek<<<grid, block, 0, b>>>(table, out, n);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    float h;
    CK(cudaMemcpy(&h, target, sizeof h, cudaMemcpyDeviceToHost));
    printf("indirect: target[0] = %.0f after %d rounds\n", h, ROUNDS);
    return 0;
}
