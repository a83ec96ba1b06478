// Kernels with known resources for the occupancy --binary tests (CPU: read from the cubin and
// compared with ptxas --resource-usage) and the GPU comparison (tests/gpu/occupancy).
#include <cuda_runtime.h>

extern "C" __global__ void k_plain(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f + 1.0f;
}

// Register-hungry: many live accumulators.
#define HEAVY_BODY                                                                   \
    float acc[96];                                                                   \
    _Pragma("unroll") for (int j = 0; j < 96; j++) acc[j] = in[(i + j * 97) % n];    \
    for (int it = 0; it < 8; it++) {                                                 \
        _Pragma("unroll") for (int j = 0; j < 96; j++) acc[j] = acc[j] * acc[(j + 1) % 96] + 1.0f; \
    }                                                                                \
    float s = 0;                                                                     \
    _Pragma("unroll") for (int j = 0; j < 96; j++) s += acc[j];                      \
    out[i] = s;

extern "C" __global__ void k_heavy(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    HEAVY_BODY
}

extern "C" __global__ void __launch_bounds__(256, 4) k_lb256_4(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    HEAVY_BODY
}

extern "C" __global__ void __launch_bounds__(128) k_lb128(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    HEAVY_BODY
}

extern "C" __global__ void k_smem12k(float *out, const float *in, int n)
{
    __shared__ float buf[3072];
    int t = threadIdx.x;
    for (int j = t; j < 3072; j += blockDim.x) buf[j] = in[(blockIdx.x * 3072 + j) % n];
    __syncthreads();
    out[(blockIdx.x * blockDim.x + t) % n] = buf[(t * 7) % 3072];
}

extern "C" __global__ void k_dyn(float *out, const float *in, int n)
{
    extern __shared__ float dyn[];
    int t = threadIdx.x;
    dyn[t] = in[(blockIdx.x * blockDim.x + t) % n];
    __syncthreads();
    out[(blockIdx.x * blockDim.x + t) % n] = dyn[blockDim.x - 1 - t];
}

#ifdef OCC_KERNELS_MAIN
int main(void) { return 0; }
#endif
