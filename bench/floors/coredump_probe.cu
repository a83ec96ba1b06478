// What the driver's GPU core dump gives attribution (W1-4), and what it costs. Sets the core
// dump attributes through the driver API (cuCoredumpSetAttributeGlobal, or cuCoredumpSetAttribute
// on the current context) instead of the environment, so the same binary runs natively and under
// `cucheck run`. Mode "fault": four kernels on four streams, the third faults; prints what the
// failing synchronize returned, how long it took, whether the dump appeared and its size, and, if
// the driver aborts the process, which thread called abort() and when. Mode "bench": a 16M-element
// vector add, BENCH_TIME_MS per launch (bench/rounds.sh).
// Build: nvcc -O3 -arch=native -o coredump_probe coredump_probe.cu -lcuda
// Usage: coredump_probe fault|bench none|global|global_skip|ctx|ctx_skip [DUMP_FILE_PATTERN]
#include <cuda.h>
#include <cuda_runtime.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double start_s;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void on_abort(int sig)
{
    char line[160];
    int n = snprintf(line, sizeof line, "abort() in thread %ld (main thread %d) %.3f s after start\n",
                     (long)syscall(SYS_gettid), (int)getpid(), now_s() - start_s);
    if (write(2, line, (size_t)n) < 0) { /* nothing to do in a signal handler */ }
    void *frames[32];
    backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
    _exit(128 + sig);
}

__global__ void vector_work(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1.0f;
}

__global__ void third_faults(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i + (1L << 36)] = 3.0f;
}

// Sets enable, generation flags and file, globally or on the current context; prints each result.
static void set_coredump(const char *how, const char *file)
{
    int global = strncmp(how, "global", 6) == 0;
    int flags = CU_COREDUMP_LIGHTWEIGHT_FLAGS | (strstr(how, "skip") ? CU_COREDUMP_SKIP_ABORT : 0);
    bool on = true;
    size_t size = sizeof on;
    CUresult r1 = global ? cuCoredumpSetAttributeGlobal(CU_COREDUMP_ENABLE_ON_EXCEPTION, &on, &size)
                         : cuCoredumpSetAttribute(CU_COREDUMP_ENABLE_ON_EXCEPTION, &on, &size);
    size = sizeof flags;
    CUresult r2 = global ? cuCoredumpSetAttributeGlobal(CU_COREDUMP_GENERATION_FLAGS, &flags, &size)
                         : cuCoredumpSetAttribute(CU_COREDUMP_GENERATION_FLAGS, &flags, &size);
    size = strlen(file) + 1;
    CUresult r3 = global ? cuCoredumpSetAttributeGlobal(CU_COREDUMP_FILE, (void *)file, &size)
                         : cuCoredumpSetAttribute(CU_COREDUMP_FILE, (void *)file, &size);
    printf("%s settings: enable %d, flags %d, file %d\n", global ? "global" : "context", r1, r2, r3);
}

static int run_fault(void)
{
    const int n = 1 << 16;
    cudaStream_t s[4];
    float *d[4];
    for (int k = 0; k < 4; k++) {
        cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        cudaMalloc(&d[k], n * sizeof(float));
    }
    vector_work<<<n / 256, 256, 0, s[0]>>>(d[0], n);
    vector_work<<<n / 256, 256, 0, s[1]>>>(d[1], n);
    third_faults<<<n / 256, 256, 0, s[2]>>>(d[2], n);
    vector_work<<<n / 256, 256, 0, s[3]>>>(d[3], n);
    fflush(stdout);
    double t = now_s();
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize returned %s after %.3f s\n", cudaGetErrorName(e), now_s() - t);
    cudaError_t next = cudaMemset(d[0], 0, 4);
    printf("the next call returned %s\n", cudaGetErrorName(next));
    return e == cudaSuccess && next == cudaSuccess ? 0 : 1;
}

static int run_bench(void)
{
    const int n = 1 << 24, reps = 200;
    float *d;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return 1;
    for (int i = 0; i < 20; i++) vector_work<<<n / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    double t = now_s();
    for (int i = 0; i < reps; i++) vector_work<<<n / 256, 256>>>(d, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("BENCH_TIME_MS %.6f\n", (now_s() - t) / reps * 1e3);
    return e == cudaSuccess ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "fault";
    const char *how = argc > 2 ? argv[2] : "none";
    const char *pattern = argc > 3 ? argv[3] : "/tmp/coredump_probe.%p";
    start_s = now_s();
    signal(SIGABRT, on_abort);
    if (cuInit(0) != CUDA_SUCCESS) { fprintf(stderr, "coredump_probe: no CUDA device\n"); return 2; }
    if (strncmp(how, "global", 6) == 0) set_coredump(how, pattern);
    cudaFree(0);
    if (strncmp(how, "ctx", 3) == 0) set_coredump(how, pattern);
    bool enabled = false;
    size_t size = sizeof enabled;
    CUresult r = cuCoredumpGetAttribute(CU_COREDUMP_ENABLE_ON_EXCEPTION, &enabled, &size);
    printf("context reads enable-on-exception: %d (result %d)\n", (int)enabled, r);
    int rc = strcmp(mode, "bench") == 0 ? run_bench() : run_fault();
    char path[512];
    const char *p = strstr(pattern, "%p");
    if (p) snprintf(path, sizeof path, "%.*s%d%s", (int)(p - pattern), pattern, (int)getpid(), p + 2);
    else snprintf(path, sizeof path, "%s", pattern);
    struct stat st;
    if (stat(path, &st) == 0) printf("core dump %s: %lld bytes\n", path, (long long)st.st_size);
    else printf("core dump %s: none\n", path);
    return rc;
}
