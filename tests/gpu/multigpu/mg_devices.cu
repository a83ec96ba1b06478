/* Two-GPU test program (W2-8): one binary, one case per argv[1], buggy cases and their clean
 * twins. Needs two GPUs that can access each other's memory (exit 3 with a message otherwise).
 *   peer-read-ok     a kernel on GPU 0 reads all of a GPU 1 buffer through peer access: clean
 *   peer-read-oob    the same kernel reads 32 floats past the buffer's end (memcheck:
 *                    invalid-global-read in peer_gather, against GPU 1's allocation)
 *   xdev-race        GPU 0 writes a buffer on its stream; a GPU 1 kernel reads it through peer
 *                    access on a GPU 1 stream without waiting (streamcheck: race)
 *   xdev-ok          the same, with an event recorded on GPU 0's stream and waited on by GPU 1's
 *   peercopy-race    GPU 0 writes a buffer; cudaMemcpyPeerAsync on a GPU 1 stream copies it to
 *                    GPU 1 without waiting for the write (streamcheck: race)
 *   peercopy-ok      the same, with the cross-device event wait
 * Every case prints "mg_devices CASE: done" and exits 0 when the CUDA calls succeed. */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime.h>
#include "../streamcheck/sc_common.h" /* CK() */

enum { N = 1000 }; /* floats: 4000 bytes, so the end of a buffer is not a page end */

__global__ void peer_gather(const float *remote, float *local, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        local[i] = remote[i] * 2.0f; /* BUG (peer-read-oob): n is 32 past the remote buffer */
    }
}

__global__ void produce(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 64 && i < n; k++) {
        x[i] = x[i] * 0.5f + (float)k; /* written on GPU 0 */
    }
}

__global__ void consume_peer(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = x[i] + 1.0f; /* BUG (xdev-race): GPU 0's write is not waited for */
    }
}

static int enable_peers(void)
{
    int n = 0, a = 0, b = 0;
    CK(cudaGetDeviceCount(&n));
    if (n < 2) {
        fprintf(stderr, "mg_devices: needs 2 GPUs, found %d\n", n);
        return 3;
    }
    CK(cudaDeviceCanAccessPeer(&a, 0, 1));
    CK(cudaDeviceCanAccessPeer(&b, 1, 0));
    if (!a || !b) {
        fprintf(stderr, "mg_devices: GPUs 0 and 1 cannot access each other's memory\n");
        return 3;
    }
    CK(cudaSetDevice(0));
    CK(cudaDeviceEnablePeerAccess(1, 0));
    CK(cudaSetDevice(1));
    CK(cudaDeviceEnablePeerAccess(0, 0));
    return 0;
}

static int peer_read(int oob)
{
    float *remote, *local;
    CK(cudaSetDevice(1));
    CK(cudaMalloc((void **)&remote, N * sizeof(float)));
    CK(cudaMemset(remote, 0, N * sizeof(float)));
    CK(cudaDeviceSynchronize());
    CK(cudaSetDevice(0));
    CK(cudaMalloc((void **)&local, (N + 32) * sizeof(float)));
    int n = oob ? N + 32 : N;
    peer_gather<<<(n + 255) / 256, 256>>>(remote, local, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(local));
    CK(cudaSetDevice(1));
    CK(cudaFree(remote));
    return 0;
}

/* GPU 0 writes x on stream s0; GPU 1 reads it (a kernel, or a peer copy) on stream s1. */
static int cross_device(int copy, int wait)
{
    float *x, *y;
    cudaStream_t s0, s1;
    cudaEvent_t written;
    CK(cudaSetDevice(0));
    CK(cudaMalloc((void **)&x, N * sizeof(float)));
    CK(cudaMemset(x, 0, N * sizeof(float)));
    CK(cudaDeviceSynchronize());
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
    CK(cudaSetDevice(1));
    CK(cudaMalloc((void **)&y, N * sizeof(float)));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));

    CK(cudaSetDevice(0));
    produce<<<(N + 255) / 256, 256, 0, s0>>>(x, N);
    CK(cudaGetLastError());
    CK(cudaEventRecord(written, s0));
    CK(cudaSetDevice(1));
    if (wait) {
        CK(cudaStreamWaitEvent(s1, written, 0)); /* the cross-device wait */
    }
    if (copy) {
        CK(cudaMemcpyPeerAsync(y, 1, x, 0, N * sizeof(float), s1)); /* BUG without the wait */
    } else {
        consume_peer<<<(N + 255) / 256, 256, 0, s1>>>(x, y, N);
        CK(cudaGetLastError());
    }
    CK(cudaStreamSynchronize(s1));
    CK(cudaSetDevice(0));
    CK(cudaStreamSynchronize(s0));
    CK(cudaEventDestroy(written));
    CK(cudaStreamDestroy(s0));
    CK(cudaFree(x));
    CK(cudaSetDevice(1));
    CK(cudaStreamDestroy(s1));
    CK(cudaFree(y));
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const cases[] = {"peer-read-ok", "peer-read-oob", "xdev-race",
                                        "xdev-ok",      "peercopy-race", "peercopy-ok"};
    const char *c = argc > 1 ? argv[1] : "";
    int which = -1;
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        if (strcmp(c, cases[i]) == 0) {
            which = i;
        }
    }
    if (which < 0) {
        fprintf(stderr, "usage: mg_devices peer-read-ok|peer-read-oob|xdev-race|xdev-ok|"
                        "peercopy-race|peercopy-ok\n");
        return 2;
    }
    int rc = enable_peers();
    if (rc != 0) {
        return rc;
    }
    switch (which) {
    case 0: rc = peer_read(0); break;
    case 1: rc = peer_read(1); break;
    case 2: rc = cross_device(0, 0); break;
    case 3: rc = cross_device(0, 1); break;
    case 4: rc = cross_device(1, 0); break;
    default: rc = cross_device(1, 1); break;
    }
    if (rc == 0) {
        printf("mg_devices %s: done\n", c);
    }
    return rc;
}
