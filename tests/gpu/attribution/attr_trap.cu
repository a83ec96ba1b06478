// A kernel that traps: cudaErrorLaunchFailure (719), seen at cudaEventSynchronize.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void trapping(int *flag)
{
    if (threadIdx.x == 7) { *flag = 1; asm volatile("trap;"); }
}
int main()
{
    int *d = nullptr;
    cudaEvent_t ev;
    cudaMalloc(&d, sizeof(int));
    cudaEventCreate(&ev);
    trapping<<<4, 64>>>(d); // BUG: executes a trap instruction
    cudaEventRecord(ev, 0);
    cudaError_t e = cudaEventSynchronize(ev);
    printf("event sync: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
