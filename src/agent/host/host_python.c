/* Finding CPython in the process and walking the calling thread's Python frames without the GIL
 * (see host_python.h). The walk only loads memory: the thread's own frames cannot change under
 * it (the thread is inside a C call), the code objects they run are kept alive by the frames,
 * and every pointer is checked for range, alignment and type before it is followed. */
#include "agent/host/host_python.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "agent/host/host_python_runtime.h"
#include "core/hash.h"

enum { CC_PY_UNKNOWN = 0, CC_PY_READY = 1, CC_PY_ABSENT = -1, CC_PY_UNSUPPORTED = -2 };

static struct {
    atomic_int state;
    cc_py_runtime rt;
    int (*is_initialized)(void);
    int (*is_finalizing)(void);       /* Py_IsFinalizing (3.13) / _Py_IsFinalizing, optional */
    const void *(*this_tstate)(void); /* PyGILState_GetThisThreadState: reads TLS only */
    uintptr_t interp_base;            /* load address of the module holding CPython */
    char status[128];
} cc_py = {.status = "no CPython in this process"};

static pthread_mutex_t cc_py_init_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local unsigned cc_py_calls; /* per thread: no shared cache line on launches */

/* The running version as major * 100 + minor, or 0. */
static int cc_py_version(void)
{
    const unsigned long *hex = dlsym(RTLD_DEFAULT, "Py_Version"); /* 3.11+: PY_VERSION_HEX */
    if (hex != NULL) {
        return (int)((*hex >> 24) & 0xffu) * 100 + (int)((*hex >> 16) & 0xffu);
    }
    const char *(*get)(void);
    *(void **)&get = dlsym(RTLD_DEFAULT, "Py_GetVersion"); /* "3.10.12 (main, ...) [GCC]" */
    if (get == NULL) {
        return 0;
    }
    const char *v = get();
    int major = 0, minor = 0;
    if (v == NULL || sscanf(v, "%d.%d", &major, &minor) != 2 || major < 0 || major > 99 ||
        minor < 0 || minor > 99) {
        return 0;
    }
    return major * 100 + minor;
}

/* Looks CPython up (lock held). */
static void cc_py_find(void)
{
    *(void **)&cc_py.is_initialized = dlsym(RTLD_DEFAULT, "Py_IsInitialized");
    *(void **)&cc_py.is_finalizing = dlsym(RTLD_DEFAULT, "Py_IsFinalizing");
    if (cc_py.is_finalizing == NULL) {
        *(void **)&cc_py.is_finalizing = dlsym(RTLD_DEFAULT, "_Py_IsFinalizing");
    }
    *(void **)&cc_py.this_tstate = dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
    *(void **)&cc_py.rt.addr2line = dlsym(RTLD_DEFAULT, "PyCode_Addr2Line");
    cc_py.rt.code_type = dlsym(RTLD_DEFAULT, "PyCode_Type");
    cc_py.rt.str_type = dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    cc_py.rt.frame_type = dlsym(RTLD_DEFAULT, "PyFrame_Type");
    if (cc_py.is_initialized == NULL || cc_py.this_tstate == NULL || cc_py.rt.addr2line == NULL ||
        cc_py.rt.code_type == NULL || cc_py.rt.str_type == NULL || cc_py.rt.frame_type == NULL) {
        atomic_store(&cc_py.state, CC_PY_ABSENT);
        return;
    }
    int version = cc_py_version();
    if (dlsym(RTLD_DEFAULT, "_Py_MergeZeroLocalRefcount") != NULL) {
        /* The free-threaded build: other object header, no GIL; not supported. */
        snprintf(cc_py.status, sizeof cc_py.status,
                 "CPython %d.%d free-threaded build: Python frames are not read", version / 100,
                 version % 100);
        atomic_store(&cc_py.state, CC_PY_UNSUPPORTED);
        return;
    }
    cc_py.rt.layout = cc_py_layout_for(version);
    if (cc_py.rt.layout == NULL) {
        snprintf(cc_py.status, sizeof cc_py.status,
                 "CPython %d.%d: its frame layout is not known, Python frames are not read",
                 version / 100, version % 100);
        atomic_store(&cc_py.state, CC_PY_UNSUPPORTED);
        return;
    }
    Dl_info info;
    if (dladdr(*(void **)&cc_py.rt.addr2line, &info) != 0) {
        cc_py.interp_base = (uintptr_t)info.dli_fbase;
    }
    snprintf(cc_py.status, sizeof cc_py.status, "CPython %d.%d (frames read without the GIL)",
             version / 100, version % 100);
    atomic_store(&cc_py.state, CC_PY_READY);
}

const cc_py_runtime *cc_py_runtime_get(void)
{
    int state = atomic_load_explicit(&cc_py.state, memory_order_acquire);
    if (state == CC_PY_UNKNOWN ||
        (state == CC_PY_ABSENT &&
         /* CPython may be loaded later (a program embedding it): looked for again, but a
          * dlsym costs microseconds, so only every 65,536 calls. */
         (++cc_py_calls & 0xffffu) == 0)) {
        if (pthread_mutex_trylock(&cc_py_init_lock) != 0) {
            return NULL; /* another thread is looking (or a fork child inherited the lock) */
        }
        if (atomic_load(&cc_py.state) <= CC_PY_UNKNOWN &&
            atomic_load(&cc_py.state) != CC_PY_UNSUPPORTED) {
            cc_py_find();
        }
        pthread_mutex_unlock(&cc_py_init_lock);
        state = atomic_load_explicit(&cc_py.state, memory_order_acquire);
    }
    if (state != CC_PY_READY || !cc_py.is_initialized()) {
        return NULL;
    }
    if (cc_py.is_finalizing != NULL && cc_py.is_finalizing()) {
        return NULL; /* thread states of daemon threads may be freed under them now */
    }
    return &cc_py.rt;
}

const char *cc_py_status(void)
{
    (void)cc_py_runtime_get();
    return cc_py.status;
}

/* The byte offset of the frame's current instruction in code (-1: before the first), or -2 when
 * the frame is to be skipped (not started yet), or -3 when something is odd. */
static int32_t cc_py_frame_offset(const cc_py_layout *L, const char *frame, const char *code,
                                  int owner)
{
    if (L->kind == CC_PY_FRAME_OBJECTS) {
        const char *bytecode = cc_py_load_ptr(code, L->co_code);
        if (!cc_py_ptr_ok(bytecode)) {
            return -3;
        }
        int64_t nbytes = cc_py_load_i64(bytecode, L->ob_size);
        int32_t lasti = cc_py_load_i32(frame, L->fr_lasti); /* in code units */
        if (lasti < 0) {
            return -1;
        }
        return (int64_t)lasti * 2 < nbytes ? lasti * 2 : -3;
    }
    int64_t units = cc_py_load_i64(code, L->ob_size); /* code units inline in the object */
    const char *start = code + L->co_code_adaptive;
    const char *ip = cc_py_load_ptr(frame, L->fr_instr);
    if (units <= 0 || units > (1 << 28) || ip == NULL) {
        return -3;
    }
    intptr_t at = (ip - start) / 2; /* _Py_CODEUNIT is 2 bytes */
    if (owner != L->owner_generator && at < cc_py_load_i32(code, L->co_firsttraceable)) {
        return -2; /* frame pushed but not yet past its prologue (CPython skips it too) */
    }
    if (at < 0) {
        return -1;
    }
    return at < units ? (int32_t)(at * 2) : -3;
}

int cc_py_capture(cc_py_frame *frames, int max)
{
    const cc_py_runtime *rt = cc_py_runtime_get();
    if (rt == NULL || max <= 0) {
        return 0;
    }
    const cc_py_layout *L = rt->layout;
    const char *ts = cc_py.this_tstate();
    if (!cc_py_ptr_ok(ts) || !cc_py_ptr_ok(cc_py_load_ptr(ts, L->ts_interp))) {
        return 0; /* no Python thread state on this thread */
    }
    const char *f = cc_py_load_ptr(ts, L->ts_frame);
    if (L->kind == CC_PY_CFRAME) {
        if (!cc_py_ptr_ok(f)) {
            return 0;
        }
        f = cc_py_load_ptr(f, L->cframe_current);
    }
    int n = 0;
    for (int depth = 0; f != NULL && depth < CC_PY_WALK_MAX && n < max; depth++) {
        if (!cc_py_ptr_ok(f)) {
            break;
        }
        const char *next = cc_py_load_ptr(f, L->fr_previous);
        if (next == f) {
            break;
        }
        int owner = L->fr_owner >= 0 ? (signed char)f[L->fr_owner] : 0;
        if (L->owner_cstack >= 0 && owner == L->owner_cstack) {
            f = next; /* the C stack's shim frame between two interpreter runs */
            continue;
        }
        if (L->kind == CC_PY_FRAME_OBJECTS &&
            cc_py_load_ptr(f, L->ob_type) != (const char *)rt->frame_type) {
            break;
        }
        const char *code = cc_py_load_ptr(f, L->fr_code);
        if (!cc_py_ptr_ok(code) || cc_py_load_ptr(code, L->ob_type) != (const char *)rt->code_type) {
            break;
        }
        int32_t offset = cc_py_frame_offset(L, f, code, owner);
        if (offset == -3) {
            break;
        }
        if (offset != -2) {
            const char *name = cc_py_load_ptr(code, L->co_qualname >= 0 ? L->co_qualname
                                                                        : L->co_name);
            /* Tells a code object from another one later allocated at its address: products
             * with odd constants, independent of each other (no chain of mixing steps on the
             * launch path; host_stacks.c mixes the result once per frame). */
            uint64_t ident =
                (uint64_t)(uintptr_t)cc_py_load_ptr(code, L->co_filename) * 0x9E3779B97F4A7C15ull ^
                (uint64_t)(uintptr_t)name * 0xC2B2AE3D27D4EB4Full ^
                (uint64_t)(uintptr_t)cc_py_load_ptr(code, L->co_linetable) *
                    0x165667B19E3779F9ull ^
                (uint64_t)(uint32_t)cc_py_load_i32(code, L->co_firstlineno) *
                    0xD6E8FEB86659FD93ull;
            frames[n].code = code;
            frames[n].offset = offset;
            frames[n].pad = 0;
            frames[n].ident = ident;
            n++;
        }
        f = next;
    }
    return n;
}

int cc_py_pc_in_interpreter(uint64_t pc)
{
    if (cc_py_runtime_get() == NULL || cc_py.interp_base == 0) {
        return 0;
    }
    Dl_info info;
    return dladdr((void *)(uintptr_t)pc, &info) != 0 &&
           (uintptr_t)info.dli_fbase == cc_py.interp_base;
}
