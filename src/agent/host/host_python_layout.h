/* CPython's internal memory layout, per minor version (3.10 to 3.13, x86-64/aarch64 LP64, default
 * build with the GIL): where the thread state keeps its current frame, how interpreter frames link,
 * where a code object keeps its names, line table and bytecode, and where a compact ASCII string
 * keeps its characters. host_python.c walks a thread's frames with these offsets without the GIL.
 * The offsets were computed from the structures of CPython's headers (Include/cpython/pystate.h,
 * Include/internal/pycore_frame.h, Include/cpython/code.h, Include/cpython/unicodeobject.h) of
 * each version; tests/agent/py_offsets.c checks them against the headers of the local Python. */
#ifndef CUCHECK_AGENT_HOST_PYTHON_LAYOUT_H
#define CUCHECK_AGENT_HOST_PYTHON_LAYOUT_H

#include <stddef.h>

/* How a thread's frames are found and linked. */
typedef enum cc_py_frames_kind {
    CC_PY_FRAME_OBJECTS = 1, /* 3.10: tstate->frame, PyFrameObject.f_back, f_lasti in code units */
    CC_PY_CFRAME = 2,        /* 3.11, 3.12: tstate->cframe->current_frame, _PyInterpreterFrame */
    CC_PY_CURRENT_FRAME = 3, /* 3.13: tstate->current_frame, _PyInterpreterFrame */
} cc_py_frames_kind;

typedef struct cc_py_layout {
    int version;               /* major * 100 + minor: 310, 311, ... */
    cc_py_frames_kind kind;
    /* PyThreadState */
    int ts_interp;             /* PyInterpreterState * */
    int ts_frame;              /* the frame pointer (CFRAME: the _PyCFrame pointer) */
    int cframe_current;        /* _PyCFrame.current_frame (CFRAME only, else -1) */
    /* frame: PyFrameObject (3.10) or _PyInterpreterFrame (3.11+) */
    int fr_code;               /* PyCodeObject * (3.13: f_executable, may be another object) */
    int fr_previous;           /* f_back / previous */
    int fr_instr;              /* 3.11+: _Py_CODEUNIT * (prev_instr / instr_ptr); -1 for 3.10 */
    int fr_lasti;              /* 3.10: int f_lasti (code units; -1 before the first); else -1 */
    int fr_owner;              /* char owner (3.11+), else -1 */
    int owner_generator;       /* FRAME_OWNED_BY_GENERATOR */
    int owner_cstack;          /* FRAME_OWNED_BY_CSTACK (3.12+: the C stack's shim frames), else -1 */
    /* PyCodeObject */
    int co_filename, co_name, co_qualname; /* co_qualname -1 before 3.11 */
    int co_firstlineno, co_linetable;
    int co_firsttraceable;     /* int, 3.11+: code units before the first traceable one */
    int co_code_adaptive;      /* 3.11+: the bytecode is inline here; ob_size = code units */
    int co_code;               /* 3.10: bytes object holding the bytecode; else -1 */
    /* objects and strings (PyObject_HEAD of the default build) */
    int ob_type, ob_size;      /* PyObject.ob_type, PyVarObject.ob_size */
    int str_length, str_state, str_data; /* PyASCIIObject: length, state bits, sizeof (data) */
    int str_has_ready;         /* 3.10/3.11: state bit 7 `ready` must be set */
} cc_py_layout;

/* The layout of version (major * 100 + minor), or NULL when it is not known. */
const cc_py_layout *cc_py_layout_for(int version);
/* Writes the layout as `name=value` lines (the names tests/agent/py_offsets.c prints). */
void cc_py_layout_print(const cc_py_layout *l, char *out, size_t len);

#endif
