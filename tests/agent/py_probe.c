/* Test helper libcc_py_probe.so: the agent's Python-frame code (src/agent/host_python*.c) in a
 * library that a Python script loads with ctypes. Through ctypes.CDLL the call runs with the GIL
 * released, as PyTorch's launches do; through ctypes.PyDLL with the GIL held. The script checks
 * the frames reported here against its own source (tests/agent/py_frames_test.py). */
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "agent/host/host_python.h"
#include "agent/host/host_python_runtime.h"

#define CC_PROBE_MAX 64

/* Writes the calling thread's Python frames, innermost first, one "file:line in name" per line;
 * returns how many (0: none found). */
int cc_py_probe(char *out, size_t len)
{
    cc_py_frame frames[CC_PROBE_MAX];
    int n = cc_py_capture(frames, CC_PROBE_MAX);
    size_t at = 0;
    if (len == 0) {
        return n;
    }
    out[0] = '\0';
    for (int i = 0; i < n && at + 1 < len; i++) {
        char text[320];
        cc_py_describe(&frames[i], text, sizeof text);
        int w = snprintf(out + at, len - at, "%s\n", text);
        if (w < 0 || (size_t)w >= len - at) {
            break;
        }
        at += (size_t)w;
    }
    return n;
}

/* The agent's offset table for the running CPython as name=value lines; -1 if none applies. */
int cc_py_probe_layout(char *out, size_t len)
{
    const cc_py_runtime *rt = cc_py_runtime_get();
    if (rt == NULL) {
        snprintf(out, len, "%s\n", cc_py_status());
        return -1;
    }
    cc_py_layout_print(rt->layout, out, len);
    return 0;
}

const char *cc_py_probe_status(void)
{
    return cc_py_status();
}

static void *cc_probe_thread(void *arg)
{
    cc_py_frame frames[8];
    *(int *)arg = cc_py_capture(frames, 8);
    return NULL;
}

/* Frames seen by a thread that never ran Python (expected: 0); -1 if it could not start. */
int cc_py_probe_foreign_thread(void)
{
    pthread_t t;
    int n = -1;
    if (pthread_create(&t, NULL, cc_probe_thread, &n) != 0) {
        return -1;
    }
    pthread_join(t, NULL);
    return n;
}

/* Nanoseconds per capture of the calling thread's frames (the per-launch part: no text). */
double cc_py_probe_capture_ns(int iterations)
{
    cc_py_frame frames[16];
    struct timespec a, b;
    volatile int sink = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < iterations; i++) {
        sink += cc_py_capture(frames, 16);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    (void)sink;
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    return iterations > 0 ? ns / iterations : 0.0;
}

/* Nanoseconds per description of the innermost frame (after the first: a cache hit). */
double cc_py_probe_describe_ns(int iterations)
{
    cc_py_frame frames[1];
    char text[320];
    if (cc_py_capture(frames, 1) != 1) {
        return -1.0;
    }
    struct timespec a, b;
    cc_py_describe(&frames[0], text, sizeof text);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < iterations; i++) {
        cc_py_describe(&frames[0], text, sizeof text);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    return iterations > 0 ? ns / iterations : 0.0;
}

/* host_stacks.c cuts a native stack where the interpreter begins (cc_py_pc_in_interpreter):
 * the index of the first return address of this call's native stack inside CPython (expected:
 * after this library's and ctypes' frames), or -1 when none is. */
int cc_py_probe_first_interpreter_frame(void)
{
    void *pcs[64];
    int n = backtrace(pcs, 64);
    for (int i = 0; i < n; i++) {
        if (cc_py_pc_in_interpreter((uint64_t)(uintptr_t)pcs[i])) {
            return i;
        }
    }
    return -1;
}
