/* memcheck test (buggy, faults natively): a packed record parser loads a 4-byte int from an
 * offset that is not a multiple of 4, which the hardware rejects (cudaErrorMisalignedAddress).
 * Expected: misaligned-global-read in parse_records; the program exits 1. */
#include "mc_common.h"

__global__ void parse_records(const unsigned char *bytes, int *values, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        values[i] = *(const int *)(bytes + i * 6 + 2); /* BUG: records are 6 bytes: misaligned */
    }
}

int main(void)
{
    const int n = 64;
    unsigned char *bytes;
    int *values;
    CHECK(cudaMalloc((void **)&bytes, n * 6 + 8));
    CHECK(cudaMalloc((void **)&values, n * sizeof(int)));
    CHECK(cudaMemset(bytes, 1, n * 6 + 8));
    parse_records<<<1, n>>>(bytes, values, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("mc_misaligned: done\n");
    return 0;
}
