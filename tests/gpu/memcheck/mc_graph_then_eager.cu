/* memcheck test (buggy): a kernel checked on its first eager launches, then replayed 400 times
 * as the kernel node of a CUDA graph (graph nodes never run checked: in adaptive mode its module
 * is unpatched after the replays begin, so that they stop paying the patched calls), then
 * launched eagerly again with a new shape that writes one element past its buffer. Adaptive mode
 * must patch the module again and check the new shape's launches. Expected:
 * invalid-global-write in scale_into by thread (0,0,0) of block (2,0,0), size 4, in both
 * modes. mc_graph_then_eager_clean.cu builds it with MC_GRAPH_FIXED: the bound is right, no
 * finding. */
#include "mc_common.h"

__global__ void scale_into(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef MC_GRAPH_FIXED
    if (i < n) out[i] = 2.0f * in[i];
#else
    if (i <= n) out[i] = 2.0f * in[i % n]; /* BUG: i == n writes one element past the end */
#endif
}

int main(void)
{
    const int n = 1000, small = 512;
    float *in, *out, *tail;
    CHECK(cudaMalloc((void **)&in, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&tail, small * sizeof(float)));
    CHECK(cudaMemset(in, 0, n * sizeof(float)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    /* Eager, in bounds (small elements of out, 128-thread blocks): the checked launches. */
    for (int k = 0; k < 2; k++) {
        scale_into<<<small / 128, 128, 0, s>>>(out, in, small - 1);
    }
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    scale_into<<<small / 128, 128, 0, s>>>(out, in, small - 1);
    CHECK(cudaStreamEndCapture(s, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int k = 0; k < 400; k++) {
        CHECK(cudaGraphLaunch(exec, s));
    }
    CHECK(cudaStreamSynchronize(s));
    /* Eager again, a new shape (3 blocks of 256 threads) over the 512 elements of tail. */
    for (int k = 0; k < 3; k++) {
        scale_into<<<3, 256, 0, s>>>(tail, in, small);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(tail));
    printf("mc_graph_then_eager: done\n");
    return 0;
}
