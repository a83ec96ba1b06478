/* The Python frames of the calling thread, for CPython programs (PyTorch users need
 * `train.py:42`, not `libtorch_cuda.so+0x...`). CPython is found in the process with dlsym, never
 * linked: a program without Python pays nothing. Frames are read only when the thread holds the
 * GIL (a launch from PyTorch's autograd threads has no Python frames; its native stack is used). */
#ifndef CUCHECK_AGENT_HOST_PYTHON_H
#define CUCHECK_AGENT_HOST_PYTHON_H

#include <stddef.h>
#include <stdint.h>

/* One Python frame as a cache key: its code object and the byte offset of its instruction. */
typedef struct cc_py_frame {
    void *code;    /* a strong reference while captured (released by cc_py_release) */
    int32_t lasti; /* byte offset; or minus the line number where CPython < 3.11 */
} cc_py_frame;

/* 1 if this process runs CPython and the thread holds the GIL. */
int cc_py_thread_has_gil(void);
/* Captures up to max frames, innermost first; call only if cc_py_thread_has_gil(). */
int cc_py_capture(cc_py_frame *frames, int max);
/* "file:line in function" of a captured frame (GIL held). */
void cc_py_describe(const cc_py_frame *f, char *out, size_t outlen);
/* Keeps a code object alive for a cache entry (GIL held); its address then cannot be reused. */
void cc_py_keep(void *code);
/* Releases the references cc_py_capture took (GIL held). */
void cc_py_release(cc_py_frame *frames, int n);

#endif
