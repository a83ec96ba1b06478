/* Example (fixed): the twin of pitch_fault.cu. The kernel steps through rows in bytes
 * ((char *)base + y * pitch), as cudaMallocPitch expects, so every write stays inside the
 * allocation and the copy back succeeds. */
#include "cuda_check.h"

__global__ void fill_rows(float *base, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        ((float *)((char *)base + y * pitch))[x] = (float)(y * 1000 + x); /* FIX: bytes */
    }
}

int main(void)
{
    const int width = 1024, height = 4096; /* 16 MiB of floats */
    float *host = (float *)malloc((size_t)width * height * sizeof(float));
    if (!host) {
        fprintf(stderr, "pitch_ok: out of host memory\n");
        return 1;
    }
    float *d;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&d, &pitch, width * sizeof(float), height));
    printf("pitch_ok: filling %dx%d floats, pitch %zu bytes\n", height, width, pitch);
    fflush(stdout);
    dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
    fill_rows<<<grid, block>>>(d, pitch, width, height);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(host, width * sizeof(float), d, pitch, width * sizeof(float), height,
                       cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            wrong += host[(size_t)y * width + x] != (float)(y * 1000 + x);
    printf("pitch_ok: copied the rows back: %d wrong values\n", wrong);
    CHECK(cudaFree(d));
    free(host);
    return wrong ? 1 : 0;
}
