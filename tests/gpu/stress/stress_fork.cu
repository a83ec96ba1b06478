/* Stress program for fork and exec under the agent: the parent starts two threads that launch
 * clean kernels on their own non-blocking streams (with allocations and frees), forks while they
 * launch, and the child execs another CUDA program at once (default: `stress_threads 4 400 bug`
 * next to this program, whose overrun memcheck must report; give `stress_threads 4 400` for the
 * clean twin). The parent waits for the child, finishes its own work and frees everything: its
 * own report must be clean in every tool.
 *
 * stderr: "stress_fork: parent pid P child pid C" (so that a runner can tell the per-process
 * reports apart). stdout: the child's output, then "stress_fork: child exited 0, parent done
 * <checksum>". Exits 0 when the child exited 0, else 1.
 * usage: stress_fork [CHILD [ARGS...]] */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>
#define STRESS_NAME "stress_fork"
#include "stress_common.h"


#define N 1000
#define PARENT_THREADS 2
#define PARENT_LAUNCHES 1500
#define LAUNCHES_BEFORE_FORK 200

__global__ void fork_parent_step(float *p, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * f + 1.0f;
}

__global__ void fork_parent_sum(const float *p, int n, float *out)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += p[i];
    *out = s;
}

static int g_launched[PARENT_THREADS];
static float g_sums[PARENT_THREADS];

static void *parent_worker(void *arg)
{
    int id = (int)(long)arg;
    cudaStream_t s;
    float *buf, *sum;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&buf, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&sum, sizeof(float)));
    CHECK(cudaMemsetAsync(buf, 0, N * sizeof(float), s));
    for (int k = 0; k < PARENT_LAUNCHES; k++) {
        fork_parent_step<<<(N + 127) / 128, 128, 0, s>>>(buf, N, 0.5f);
        if (k % 100 == 99) { /* a short-lived buffer, allocated and freed while others launch */
            float *t;
            CHECK(cudaMalloc((void **)&t, N * sizeof(float)));
            CHECK(cudaMemcpyAsync(t, buf, N * sizeof(float), cudaMemcpyDeviceToDevice, s));
            CHECK(cudaStreamSynchronize(s));
            CHECK(cudaFree(t));
        }
        __atomic_store_n(&g_launched[id], k + 1, __ATOMIC_RELEASE);
    }
    fork_parent_sum<<<1, 1, 0, s>>>(buf, N, sum);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(&g_sums[id], sum, sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaFree(buf));
    CHECK(cudaFree(sum));
    CHECK(cudaStreamDestroy(s));
    return NULL;
}

/* The path of `stress_threads` next to this program's own file. */
static int default_child(char *path, size_t n)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return -1;
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) return -1;
    *slash = '\0';
    return snprintf(path, n, "%s/stress_threads", self) < (int)n ? 0 : -1;
}

int main(int argc, char **argv)
{
    char child_path[PATH_MAX];
    char *default_argv[] = {child_path, (char *)"4", (char *)"400", (char *)"bug", NULL};
    char **child_argv = argv + 1;
    if (argc < 2) {
        if (default_child(child_path, sizeof child_path) != 0) {
            fprintf(stderr, "stress_fork: cannot find stress_threads next to this program\n");
            return 2;
        }
        child_argv = default_argv;
    }

    CHECK(cudaFree(0)); /* the parent's context exists before the fork */
    pthread_t t[PARENT_THREADS];
    for (long i = 0; i < PARENT_THREADS; i++) {
        if (pthread_create(&t[i], NULL, parent_worker, (void *)i) != 0) {
            fprintf(stderr, "stress_fork: cannot start a thread\n");
            return 1;
        }
    }
    for (int i = 0; i < PARENT_THREADS; i++) { /* fork while both threads launch */
        while (__atomic_load_n(&g_launched[i], __ATOMIC_ACQUIRE) < LAUNCHES_BEFORE_FORK) {
            sched_yield();
        }
    }
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "stress_fork: fork failed: %s\n", strerror(errno));
        return 1;
    }
    if (child == 0) { /* nothing but exec: the parent's CUDA state is not usable here */
        execv(child_argv[0], child_argv);
        static const char msg[] = "stress_fork: the child cannot exec its program\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(127);
    }
    fprintf(stderr, "stress_fork: parent pid %d child pid %d\n", (int)getpid(), (int)child);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "stress_fork: waitpid failed: %s\n", strerror(errno));
            return 1;
        }
    }
    for (int i = 0; i < PARENT_THREADS; i++) {
        pthread_join(t[i], NULL);
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("stress_fork: child exited %d, parent done %.1f\n", code,
           (double)g_sums[0] + g_sums[1]);
    return code == 0 ? 0 : 1;
}
