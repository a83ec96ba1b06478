/* streamcheck target: a long run of one learned kernel on s1 (6,000 launches, past the point
 * where streamcheck turns launch-end callbacks off: nothing is being instrumented), then a new
 * kernel on s2 that writes the buffer s1's kernel reads. Its first launch turns the callbacks
 * back on and gets an inferred access set, its second an instrumented one.
 * Build: default: no order between the streams (race: late_writer against steady_reader);
 * -DCC_ORDERED: s2 waits on an event recorded after the reads (clean). */
#include "sc_common.h"

__global__ void steady_reader(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += in[i];
}

__global__ void late_writer(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 3.0f;
}

int main(void)
{
    const int n = 1 << 12;
    float *in, *out;
    cudaStream_t s1, s2;
    cudaEvent_t done;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    CK(cudaMalloc((void **)&in, n * sizeof(float)));
    CK(cudaMalloc((void **)&out, n * sizeof(float)));
    CK(cudaMemset(in, 0, n * sizeof(float)));
    CK(cudaMemset(out, 0, n * sizeof(float)));
    CK(cudaDeviceSynchronize());
    for (int k = 0; k < 6000; k++) {
        steady_reader<<<n / 256, 256, 0, s1>>>(in, out, n);
    }
    CK(cudaEventRecord(done, s1));
#ifdef CC_ORDERED
    CK(cudaStreamWaitEvent(s2, done, 0));
#endif
    for (int k = 0; k < 2; k++) {
        late_writer<<<n / 256, 256, 0, s2>>>(in, n); /* BUG without CC_ORDERED */
    }
    CK(cudaDeviceSynchronize());
    printf("late_kernel: done\n");
    return 0;
}
