/* GPU test program for streamcheck's graph kernel nodes (tests/gpu/streamcheck/run_targets.sh).
 * A CUDA graph is built by stream capture on s1: g_produce writes buf, then g_consume reads buf
 * (and writes out). The graph is launched on s1 ROUNDS times; each round, clobber writes buf on
 * stream s2 with nothing ordering it against the graph: a race between clobber and the graph's
 * kernel nodes, visible only if the nodes get access sets (their arguments are read from the
 * driver: cuGraphKernelNodeGetParams). A device synchronize separates the rounds.
 *   -DCC_ORDERED        the correct twin: an event recorded on s1 after the graph launch is
 *                       waited on by s2 before clobber: clean.
 *   -DCC_DISJOINT       clobber writes another allocation, not buf (no ordering): clean.
 *   -DCC_DESTROY_GRAPH  as the racy build, but the captured graph is destroyed right after it was
 *                       instantiated (what PyTorch's CUDA graphs do): the executable graph's
 *                       nodes must still give their arguments, and the agent must not crash.
 * Exit 0 (1 on a CUDA error). */
#include "sc_common.h"

#define ROUNDS 3

__global__ void g_produce(float *buf, int n, float value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = value + (float)i;
}

__global__ void g_consume(const float *buf, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = buf[i] * 0.5f;
}

/* Spins for about `cycles` clock cycles, then writes p[i] = value. */
__global__ void clobber(float *p, int n, float value, long long cycles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (i < n)
        p[i] = value;
}

int main(void)
{
    const int n = 1 << 16, block = 256, grid = (n + block - 1) / block;
    const size_t bytes = (size_t)n * sizeof(float);
    float *buf, *out, *other;
    CK(cudaMalloc((void **)&buf, bytes));
    CK(cudaMalloc((void **)&out, bytes));
    CK(cudaMalloc((void **)&other, bytes));
    CK(cudaMemset(buf, 0, bytes));
    CK(cudaMemset(out, 0, bytes));
    CK(cudaMemset(other, 0, bytes));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t done;
    CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    cudaFuncAttributes attr; /* load the kernels before capture and before the streams start */
    CK(cudaFuncGetAttributes(&attr, g_produce));
    CK(cudaFuncGetAttributes(&attr, g_consume));
    CK(cudaFuncGetAttributes(&attr, clobber));
    CK(cudaDeviceSynchronize());

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
    g_produce<<<grid, block, 0, s1>>>(buf, n, 1.0f);
    g_consume<<<grid, block, 0, s1>>>(buf, out, n);
    CK(cudaStreamEndCapture(s1, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
#ifdef CC_DESTROY_GRAPH
    CK(cudaGraphDestroy(graph));
#endif
#ifdef CC_DISJOINT
    float *target = other; /* not touched by the graph */
#else
    float *target = buf;
#endif

    for (int r = 0; r < ROUNDS; r++) {
        CK(cudaGraphLaunch(exec, s1));
#ifdef CC_ORDERED
        CK(cudaEventRecord(done, s1));
        CK(cudaStreamWaitEvent(s2, done, 0)); /* clobber runs after every node of the graph */
#endif
        /* In the racy build (BUG) nothing orders clobber against the graph's nodes. */
        clobber<<<grid, block, 0, s2>>>(target, n, -1.0f, 100000LL);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize()); /* orders this round before the next */
    }
    float h[2];
    CK(cudaMemcpy(h, out + 1, sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h + 1, buf + 1, sizeof(float), cudaMemcpyDeviceToHost));
    printf("graph%s: %d launches of a captured graph (g_produce -> g_consume) on s1, clobber on "
           "s2: out[1] = %.2f, buf[1] = %.2f\n",
#if defined(CC_ORDERED)
           " (ordered twin)",
#elif defined(CC_DISJOINT)
           " (disjoint buffers)",
#elif defined(CC_DESTROY_GRAPH)
           " (graph destroyed after instantiation)",
#else
           "",
#endif
           ROUNDS, h[0], h[1]);
    CK(cudaGraphExecDestroy(exec));
#ifndef CC_DESTROY_GRAPH
    CK(cudaGraphDestroy(graph));
#endif
    CK(cudaEventDestroy(done));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFree(buf));
    CK(cudaFree(out));
    CK(cudaFree(other));
    return 0;
}
