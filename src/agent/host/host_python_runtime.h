/* What host_python.c found about the CPython in this process, shared with host_python_text.c:
 * the layout of its version, the type objects that tell a code object and a str, and the few
 * public functions used without the GIL. Internal to the agent's Python-frame code. */
#ifndef CUCHECK_AGENT_HOST_PYTHON_RUNTIME_H
#define CUCHECK_AGENT_HOST_PYTHON_RUNTIME_H

#include <stdint.h>
#include <string.h>
#include "agent/host/host_python_layout.h"

typedef struct cc_py_runtime {
    const cc_py_layout *layout;
    const void *code_type;                /* &PyCode_Type */
    const void *str_type;                 /* &PyUnicode_Type */
    const void *frame_type;               /* &PyFrame_Type (3.10 frame objects) */
    int (*addr2line)(const void *, int);  /* PyCode_Addr2Line */
} cc_py_runtime;

/* The runtime when a supported CPython is initialized in this process, else NULL. */
const cc_py_runtime *cc_py_runtime_get(void);

/* A pointer that can be a live object or frame: 8-aligned, above the first 64 KiB, below the
 * top of user space. */
static inline int cc_py_ptr_ok(const void *p)
{
    uintptr_t v = (uintptr_t)p;
    return v >= 65536u && (v & 7u) == 0 && v < ((uintptr_t)1 << 56);
}

/* Unaligned-safe reads of a field at a byte offset. */
static inline const char *cc_py_load_ptr(const void *base, int off)
{
    const char *v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}
static inline int32_t cc_py_load_i32(const void *base, int off)
{
    int32_t v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}
static inline int64_t cc_py_load_i64(const void *base, int off)
{
    int64_t v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}

#endif
