/* memcheck test (buggy): each thread keeps a 16-int scratch array on its stack and thread 5
 * writes element 40 of it, an index read from memory, past the top of its stack frame.
 * Expected: invalid-local-write in scatter_local by thread (5,0,0) of block (0,0,0), size 4.
 * (Natively the write lands in the unused part of the thread's local window: no fault.) */
#include "mc_common.h"

__global__ void scatter_local(const int *slot, const int *in, int *out)
{
    int scratch[16];
    for (int k = 0; k < 16; k++) {
        scratch[k] = in[k];
    }
    scratch[slot[threadIdx.x]] = (int)threadIdx.x; /* BUG: slot[5] is 40, past scratch[15] */
    int s = 0;
    for (int k = 0; k < 16; k++) {
        s += scratch[(k + threadIdx.x) % 16];
    }
    out[threadIdx.x] = s;
}

int main(void)
{
    int h_slot[32], h_in[16], *slot, *in, *out;
    for (int k = 0; k < 32; k++) {
        h_slot[k] = k % 16;
    }
    h_slot[5] = 40;
    for (int k = 0; k < 16; k++) {
        h_in[k] = k;
    }
    CHECK(cudaMalloc((void **)&slot, sizeof h_slot));
    CHECK(cudaMalloc((void **)&in, sizeof h_in));
    CHECK(cudaMalloc((void **)&out, 32 * sizeof(int)));
    CHECK(cudaMemcpy(slot, h_slot, sizeof h_slot, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    scatter_local<<<1, 32>>>(slot, in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(slot));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("mc_local_overrun: done\n");
    return 0;
}
