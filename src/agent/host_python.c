/* Python frames through CPython's public C API, looked up once with dlsym (see host_python.h).
 * The walk disables the cyclic garbage collector while it runs: frame objects it materializes
 * must not start a collection whose finalizers could call back into CUDA from inside a CUDA
 * callback. The pending Python exception, if any, is kept across the name lookups. */
#include "host_python.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static struct {
    int ok;
    int (*is_initialized)(void);
    int (*gil_check)(void);
    void *(*get_frame)(void);
    void *(*frame_back)(void *);
    void *(*frame_code)(void *);
    int (*frame_lasti)(void *);      /* 3.11+ */
    int (*frame_line)(void *);
    int (*addr2line)(void *, int);   /* PyCode_Addr2Line */
    void (*incref)(void *);
    void (*decref)(void *);
    void *(*getattr)(void *, const char *);
    const char *(*utf8)(void *);
    int (*gc_disable)(void);         /* 3.10+ */
    int (*gc_enable)(void);
    void (*err_fetch)(void **, void **, void **);
    void (*err_restore)(void *, void *, void *);
} cc_py;

static pthread_once_t cc_py_once = PTHREAD_ONCE_INIT;

#define CC_PY_SYM(field, name) (*(void **)&cc_py.field = dlsym(RTLD_DEFAULT, name))

static void cc_py_init(void)
{
    CC_PY_SYM(is_initialized, "Py_IsInitialized");
    CC_PY_SYM(gil_check, "PyGILState_Check");
    CC_PY_SYM(get_frame, "PyEval_GetFrame");
    CC_PY_SYM(frame_back, "PyFrame_GetBack");
    CC_PY_SYM(frame_code, "PyFrame_GetCode");
    CC_PY_SYM(frame_lasti, "PyFrame_GetLasti");
    CC_PY_SYM(frame_line, "PyFrame_GetLineNumber");
    CC_PY_SYM(addr2line, "PyCode_Addr2Line");
    CC_PY_SYM(incref, "Py_IncRef");
    CC_PY_SYM(decref, "Py_DecRef");
    CC_PY_SYM(getattr, "PyObject_GetAttrString");
    CC_PY_SYM(utf8, "PyUnicode_AsUTF8");
    CC_PY_SYM(gc_disable, "PyGC_Disable");
    CC_PY_SYM(gc_enable, "PyGC_Enable");
    CC_PY_SYM(err_fetch, "PyErr_Fetch");
    CC_PY_SYM(err_restore, "PyErr_Restore");
    cc_py.ok = cc_py.is_initialized && cc_py.gil_check && cc_py.get_frame && cc_py.frame_back &&
               cc_py.frame_code && cc_py.frame_line && cc_py.incref && cc_py.decref &&
               cc_py.getattr && cc_py.utf8 && cc_py.err_fetch && cc_py.err_restore;
}

int cc_py_thread_has_gil(void)
{
    pthread_once(&cc_py_once, cc_py_init);
    /* CPython may be loaded later (a C program that embeds it): looked up again then. */
    if (!cc_py.ok) {
        /* A dlsym costs microseconds: looked for again only every 65,536 calls. */
        static atomic_uint calls;
        if ((atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed) & 0xffffu) != 0xffffu ||
            dlsym(RTLD_DEFAULT, "PyEval_GetFrame") == NULL) {
            return 0;
        }
        cc_py_init();
        if (!cc_py.ok) {
            return 0;
        }
    }
    return cc_py.is_initialized() && cc_py.gil_check();
}

int cc_py_capture(cc_py_frame *frames, int max)
{
    int gc_was_enabled = cc_py.gc_disable != NULL ? cc_py.gc_disable() : 0;
    int n = 0;
    void *f = cc_py.get_frame(); /* borrowed */
    void *owned = NULL;          /* the frame we hold a reference to */
    while (f != NULL && n < max) {
        void *code = cc_py.frame_code(f); /* new reference */
        if (code == NULL) {
            break;
        }
        frames[n].code = code;
        frames[n].lasti = cc_py.frame_lasti != NULL ? cc_py.frame_lasti(f) : -cc_py.frame_line(f);
        n++;
        void *back = cc_py.frame_back(f); /* new reference */
        if (owned != NULL) {
            cc_py.decref(owned);
        }
        owned = back;
        f = back;
    }
    if (owned != NULL) {
        cc_py.decref(owned);
    }
    if (gc_was_enabled && cc_py.gc_enable != NULL) {
        cc_py.gc_enable();
    }
    return n;
}

/* Drops the exception the last failed call raised, if any. */
static void cc_py_clear_error(void)
{
    void *t = NULL, *v = NULL, *tb = NULL;
    cc_py.err_fetch(&t, &v, &tb);
    if (t != NULL) cc_py.decref(t);
    if (v != NULL) cc_py.decref(v);
    if (tb != NULL) cc_py.decref(tb);
}

static const char *cc_py_attr(void *obj, const char *name, void **keep)
{
    void *v = cc_py.getattr(obj, name);
    *keep = v;
    const char *s = v != NULL ? cc_py.utf8(v) : NULL;
    return s;
}

void cc_py_describe(const cc_py_frame *f, char *out, size_t outlen)
{
    void *t = NULL, *v = NULL, *tb = NULL;
    cc_py.err_fetch(&t, &v, &tb);
    void *fo = NULL, *no = NULL;
    const char *file = cc_py_attr(f->code, "co_filename", &fo);
    const char *name = cc_py_attr(f->code, "co_qualname", &no);
    if (name == NULL) {
        if (no != NULL) {
            cc_py.decref(no);
        }
        cc_py_clear_error();
        name = cc_py_attr(f->code, "co_name", &no);
    }
    int line;
    if (f->lasti < 0) {
        line = -f->lasti;
    } else {
        line = cc_py.addr2line != NULL ? cc_py.addr2line(f->code, f->lasti) : 0;
    }
    snprintf(out, outlen, "%s:%d in %s", file != NULL ? file : "?", line,
             name != NULL ? name : "?");
    if (fo != NULL) {
        cc_py.decref(fo);
    }
    if (no != NULL) {
        cc_py.decref(no);
    }
    /* Drop whatever the lookups raised, then put the program's own state back. */
    cc_py_clear_error();
    cc_py.err_restore(t, v, tb);
}

void cc_py_keep(void *code)
{
    cc_py.incref(code);
}

void cc_py_release(cc_py_frame *frames, int n)
{
    for (int i = 0; i < n; i++) {
        cc_py.decref(frames[i].code);
        frames[i].code = NULL;
    }
}
