// Vector stores that cover padding: 12-byte structs written as whole 16-byte float4 stores
// (padding included), then read back as float4 loads and copied out. No findings.
#include "ic_common.h"

__global__ void write_vec(float4 *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = make_float4(1.0f, 2.0f, 3.0f, 0.0f); // .w is padding of a 3-float record
    }
}

__global__ void read_vec(const float4 *v, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 x = v[i];
        out[i] = x.x + x.y + x.z;
    }
}

int main()
{
    float4 *v = nullptr;
    float *out = nullptr, host[IC_N];
    IC_CHECK(cudaMalloc(&v, IC_N * sizeof(float4)));
    IC_CHECK(cudaMalloc(&out, IC_N * sizeof(float)));
    write_vec<<<IC_N / 256, 256>>>(v, IC_N);
    read_vec<<<IC_N / 256, 256>>>(v, out, IC_N);
    IC_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    std::printf("done %f\n", host[3]);
    return 0;
}
