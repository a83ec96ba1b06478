/* Example (buggy, crashes on purpose): cudaMallocPitch returns the row pitch in BYTES, but the
 * kernel adds y * pitch to a float pointer, so row y lands 4 * y * pitch bytes in instead of
 * y * pitch: rows from height/4 on are written up to 48 MiB past the 16 MiB allocation and the
 * kernel faults. The fault surfaces later, as cudaErrorIllegalAddress from the next cudaMemcpy2D,
 * far from its cause; this is the attribution example: cucheck run names the faulting launch
 * (fill_rows) and cucheck memcheck the exact write. The program exits 1 with the error (or, if
 * the memory past the allocation happens to be mapped, with a count of wrong values).
 * Fixed twin: pitch_ok.cu. */
#include "cuda_check.h"

__global__ void fill_rows(float *base, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        base[y * pitch + x] = (float)(y * 1000 + x); /* BUG: pitch is in bytes, not floats */
    }
}

int main(void)
{
    const int width = 1024, height = 4096; /* 16 MiB of floats */
    float *host = (float *)malloc((size_t)width * height * sizeof(float));
    if (!host) {
        fprintf(stderr, "pitch_fault: out of host memory\n");
        return 1;
    }
    float *d;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&d, &pitch, width * sizeof(float), height));
    printf("pitch_fault: filling %dx%d floats, pitch %zu bytes\n", height, width, pitch);
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
    printf("pitch_fault: copied the rows back: %d wrong values\n", wrong);
    CHECK(cudaFree(d));
    free(host);
    return wrong ? 1 : 0;
}
