/* GPU test program (clean): fills a buffer with a kernel, copies it back and prints a checksum.
 * It has no bug; its stdout and exit status must be the same natively and under `cucheck run`
 * (the agent loads without changing the program's behaviour). */
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void iota_squares(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (unsigned)i * (unsigned)i;
}

int main(void)
{
    const int n = 4096;
    unsigned host[4096];
    unsigned *dev = NULL;
    cudaError_t err = cudaMalloc((void **)&dev, sizeof host);
    if (err == cudaSuccess) {
        iota_squares<<<(n + 127) / 128, 128>>>(dev, n);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess)
        err = cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        printf("trivial_clean: CUDA error %s\n", cudaGetErrorName(err));
        return 1;
    }
    unsigned long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += host[i];
    printf("trivial_clean: %d squares, checksum %llu\n", n, sum);
    cudaFree(dev);
    return 0;
}
