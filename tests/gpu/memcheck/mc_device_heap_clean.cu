/* memcheck test (clean twin of the device-heap tests): threads malloc, fill and free private
 * device-heap blocks (aligned malloc too); one launch mallocs blocks that a later launch reads
 * and frees. Expected: no finding (device-heap memory is not "outside every allocation", and
 * frees of blocks from an earlier launch are valid). */
#include "mc_common.h"

__global__ void fill_private(int n, int *sum)
{
    int *p = (int *)malloc(n * sizeof(int));
    int *q = (int *)__nv_aligned_device_malloc(n * sizeof(int), 128);
    if (p == NULL || q == NULL) {
        free(p);
        free(q);
        return;
    }
    for (int k = 0; k < n; k++) {
        p[k] = k;
        q[n - 1 - k] = p[k];
    }
    atomicAdd(sum, q[0] + p[n - 1]);
    free(p);
    free(q);
}

__global__ void make_blocks(int **slots, int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    if (p != NULL) {
        for (int k = 0; k < n; k++) {
            p[k] = k;
        }
    }
    slots[threadIdx.x] = p;
}

__global__ void use_and_release(int **slots, int n, int *sum)
{
    int *p = slots[threadIdx.x];
    if (p != NULL) {
        atomicAdd(sum, p[n - 1]);
        free(p);
    }
}

int main(void)
{
    int *sum, **slots;
    CHECK(cudaMalloc((void **)&sum, sizeof(int)));
    CHECK(cudaMalloc((void **)&slots, 64 * sizeof(int *)));
    CHECK(cudaMemset(sum, 0, sizeof(int)));
    fill_private<<<2, 64>>>(16, sum);
    CHECK(cudaGetLastError());
    make_blocks<<<1, 64>>>(slots, 32);
    CHECK(cudaGetLastError());
    use_and_release<<<1, 64>>>(slots, 32, sum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(sum));
    CHECK(cudaFree(slots));
    printf("mc_device_heap_clean: done\n");
    return 0;
}
