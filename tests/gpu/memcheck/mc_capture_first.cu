/* memcheck test: a kernel whose first launch is captured into a graph (it runs unchecked: nothing
 * is instrumented inside a capture), then launched eagerly with the same arguments. The eager
 * launch repeats the captured one's arguments and allocations, but the captured one was never
 * checked: adaptive mode must check the eager launch and report its overrun (one word past the
 * end). With MC_CAPTURE_FIRST_CLEAN (mc_capture_first_clean.cu) the bound is right. */
#include "mc_common.h"

__global__ void store_index(unsigned *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = (unsigned)i; /* BUG: n is one word past the buffer */
}

int main(void)
{
    const int words = 256;
#ifdef MC_CAPTURE_FIRST_CLEAN
    const int n = words;
#else
    const int n = words + 1;
#endif
    unsigned *p = NULL;
    CHECK(cudaMalloc(&p, words * sizeof *p));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    store_index<<<1, 288, 0, s>>>(p, n); /* captured: not run */
    CHECK(cudaStreamEndCapture(s, &graph));
    CHECK(cudaGraphDestroy(graph));
    store_index<<<1, 288, 0, s>>>(p, n); /* eager, the same arguments */
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(p));
    printf("mc_capture_first: done\n");
    return 0;
}
