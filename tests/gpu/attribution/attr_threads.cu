// Robustness: 8 host threads launch 2,000 kernels each at once, each on its own stream, while a
// forked child (which never touched CUDA before the fork) runs its own CUDA work. Clean.
#include <cstdio>
#include <cuda_runtime.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
__global__ void tiny(int *p) { if (threadIdx.x == 0) atomicAdd(p, 1); }
static void *worker(void *arg)
{
    int *d = static_cast<int *>(arg);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int i = 0; i < 2000; i++) tiny<<<1, 32, 0, s>>>(d);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    return nullptr;
}
static int cuda_work(int threads)
{
    int *d = nullptr, h = 0;
    cudaMalloc(&d, sizeof(int));
    cudaMemset(d, 0, sizeof(int));
    pthread_t t[8];
    for (int i = 0; i < threads; i++) pthread_create(&t[i], nullptr, worker, d);
    for (int i = 0; i < threads; i++) pthread_join(t[i], nullptr);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    return h == threads * 2000 ? 0 : 1;
}
int main()
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) _exit(cuda_work(2)); // the child ends with _exit
    int rc = cuda_work(8);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("parent %d child %d\n", rc, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return rc || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}
