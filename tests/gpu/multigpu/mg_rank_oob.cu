/* Per-rank test program (W2-8): started once per rank by a launcher (torchrun --no-python, or
 * a shell starting it with RANK/LOCAL_RANK set), it runs on GPU LOCAL_RANK modulo the GPU count
 * (so two ranks share one GPU where only one is present). The rank named by argv[1] (default:
 * none) overruns its buffer by one warp: memcheck must report invalid-global-read in
 * scale_rank from that rank only. Prints "mg_rank_oob rank R: done". */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include "../streamcheck/sc_common.h" /* CK() */

enum { N = 1000 };

__global__ void scale_rank(const float *in, float *out, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * k; /* BUG (the buggy rank): n is 32 past in[]'s end */
    }
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? atoi(v) : dflt;
}

int main(int argc, char **argv)
{
    int rank = env_int("RANK", 0), local = env_int("LOCAL_RANK", rank);
    int buggy = argc > 1 ? atoi(argv[1]) : -1;
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    CK(cudaSetDevice(local % (ndev > 0 ? ndev : 1)));
    float *in, *out;
    CK(cudaMalloc((void **)&out, (N + 32) * sizeof(float))); /* first: nothing after `in` */
    CK(cudaMalloc((void **)&in, N * sizeof(float)));
    CK(cudaMemset(in, 0, N * sizeof(float)));
    int n = rank == buggy ? N + 32 : N;
    scale_rank<<<(n + 255) / 256, 256>>>(in, out, n, 2.0f);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(in));
    CK(cudaFree(out));
    printf("mg_rank_oob rank %d: done\n", rank);
    return 0;
}
