/* The Python frames of the calling thread, for CPython programs (PyTorch users need
 * `train.py:42 in step`, not `libtorch_cuda.so+0x...`), read WITHOUT the GIL: PyTorch releases
 * the GIL before it dispatches an op, so launches come from threads that run Python code but do
 * not hold it, and a CUDA callback must never take it (another thread may hold the GIL while it
 * waits for a driver lock the callback holds). Like py-spy and austin, but in-process: the
 * thread's PyThreadState comes from PyGILState_GetThisThreadState() (thread-local storage only),
 * and its frames are read through CPython's internal layout for the running version
 * (host_python_layout.c: 3.10 to 3.13). Nothing here allocates Python objects, takes a Python
 * lock or changes a reference count. CPython is found with dlsym(RTLD_DEFAULT), never linked: a
 * program without Python pays one failed lookup. */
#ifndef CUCHECK_AGENT_HOST_PYTHON_H
#define CUCHECK_AGENT_HOST_PYTHON_H

#include <stddef.h>
#include <stdint.h>

#define CC_PY_WALK_MAX 64 /* frames visited per walk at most (shim frames included) */

/* One Python frame as captured: a key for the stack cache, described later by cc_py_describe.
 * The pointers are borrowed: valid only while the frame still runs (that is, on the capturing
 * thread, before it returns into Python). */
typedef struct cc_py_frame {
    const void *code;  /* the PyCodeObject */
    int32_t offset;    /* byte offset of the current instruction; -1: before the first */
    int32_t pad;
    uint64_t ident;    /* mix of the code's filename, name, line table and first line: tells a
                        * code object at a reused address from the one cached before */
} cc_py_frame;

/* Captures the calling thread's Python frames, innermost first, up to max (0 if the process does
 * not run a supported CPython, or this thread runs no Python code). Never needs the GIL; costs a
 * few loads per frame. Stops at anything odd (a pointer out of range, an object of the wrong
 * type, more than CC_PY_WALK_MAX frames). */
int cc_py_capture(cc_py_frame *frames, int max);

/* "file:line in function" of a frame captured by this thread, while it still runs. Line numbers
 * come from PyCode_Addr2Line (decodes the line table, allocates nothing); names are read only
 * when they are compact ASCII strings ("?" otherwise). Texts are cached by (code object, line). */
void cc_py_describe(const cc_py_frame *f, char *out, size_t outlen);

/* 1 if pc lies in the module that holds CPython (libpython, or the python executable when it is
 * linked statically): those native frames are the interpreter's own. Not for the hot path
 * (dladdr). */
int cc_py_pc_in_interpreter(uint64_t pc);

/* One line saying what was found: "CPython 3.11 (frames read without the GIL)", "no CPython in
 * this process", "CPython 3.9: layout not known, Python frames are not read", ... */
const char *cc_py_status(void);

#endif
