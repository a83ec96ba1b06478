/* "file:line in function" for a captured Python frame, without the GIL: the line comes from
 * PyCode_Addr2Line (public; it only decodes co_linetable), the names are copied straight out of
 * compact ASCII str objects (anything else reads "?"). Texts are cached by (code object, line),
 * checked against the code's identity so that a code object at a reused address is not given
 * another's text; the cache lock is only tried, never waited for (a busy cache, or one whose lock
 * a fork child inherited, is bypassed). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "agent/host/host_python.h"
#include "agent/host/host_python_runtime.h"

#define CC_PY_NAME_MAX 200   /* characters of a file name or function name kept */
#define CC_PY_TEXT_MAX 256   /* a cached frame text */
#define CC_PY_CACHE_SLOTS 1024

typedef struct cc_py_text_slot {
    const void *code; /* NULL: empty */
    uint64_t ident;
    int line;
    char text[CC_PY_TEXT_MAX];
} cc_py_text_slot;

/* A direct-mapped cache of frame texts (a new text overwrites its slot), not a map: it keeps no
 * entry it has no room for, so core/hashmap.h does not apply. */
static pthread_mutex_t cc_py_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cc_py_text_slot *cc_py_cache; /* allocated on first use */

/* Copies the characters of a compact ASCII str object into out; 0 if obj is not one. */
static int cc_py_ascii(const cc_py_runtime *rt, const char *obj, char *out, size_t outlen)
{
    const cc_py_layout *L = rt->layout;
    if (!cc_py_ptr_ok(obj) || cc_py_load_ptr(obj, L->ob_type) != (const char *)rt->str_type) {
        return 0;
    }
    uint32_t state = (uint32_t)cc_py_load_i32(obj, L->str_state);
    unsigned kind = (state >> 2) & 7u, compact = (state >> 5) & 1u, ascii = (state >> 6) & 1u;
    unsigned ready = (state >> 7) & 1u;
    if (kind != 1 || !compact || !ascii || (L->str_has_ready && !ready)) {
        return 0;
    }
    int64_t length = cc_py_load_i64(obj, L->str_length);
    if (length < 0 || length > 4096) {
        return 0;
    }
    size_t n = (size_t)length < outlen - 1 ? (size_t)length : outlen - 1;
    memcpy(out, obj + L->str_data, n);
    out[n] = '\0';
    for (size_t i = 0; i < n; i++) { /* ASCII by its flag; keep the text printable anyway */
        if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] > 0x7e) {
            out[i] = '?';
        }
    }
    return 1;
}

static void cc_py_format(const cc_py_runtime *rt, const char *code, int line, char *out,
                         size_t outlen)
{
    const cc_py_layout *L = rt->layout;
    char file[CC_PY_NAME_MAX], name[CC_PY_NAME_MAX];
    if (!cc_py_ascii(rt, cc_py_load_ptr(code, L->co_filename), file, sizeof file)) {
        snprintf(file, sizeof file, "?");
    }
    if ((L->co_qualname < 0 ||
         !cc_py_ascii(rt, cc_py_load_ptr(code, L->co_qualname), name, sizeof name)) &&
        !cc_py_ascii(rt, cc_py_load_ptr(code, L->co_name), name, sizeof name)) {
        snprintf(name, sizeof name, "?");
    }
    snprintf(out, outlen, "%s:%d in %s", file, line, name);
}

void cc_py_describe(const cc_py_frame *f, char *out, size_t outlen)
{
    if (outlen == 0) {
        return;
    }
    const cc_py_runtime *rt = cc_py_runtime_get();
    if (rt == NULL || !cc_py_ptr_ok(f->code)) {
        snprintf(out, outlen, "?");
        return;
    }
    const char *code = f->code;
    int line = f->offset < 0 ? cc_py_load_i32(code, rt->layout->co_firstlineno)
                             : rt->addr2line(code, f->offset);
    uintptr_t key = (uintptr_t)code ^ ((uintptr_t)(unsigned)line * 0x9E3779B1u);
    size_t slot = (size_t)((key >> 4) * 0x9E3779B97F4A7C15ull >> 54) & (CC_PY_CACHE_SLOTS - 1);
    if (pthread_mutex_trylock(&cc_py_cache_lock) != 0) {
        cc_py_format(rt, code, line, out, outlen);
        return;
    }
    if (cc_py_cache == NULL) {
        cc_py_cache = calloc(CC_PY_CACHE_SLOTS, sizeof *cc_py_cache);
    }
    cc_py_text_slot *s = cc_py_cache != NULL ? &cc_py_cache[slot] : NULL;
    if (s != NULL && s->code == code && s->line == line && s->ident == f->ident) {
        snprintf(out, outlen, "%s", s->text);
    } else {
        cc_py_format(rt, code, line, out, outlen);
        if (s != NULL) {
            s->code = code;
            s->ident = f->ident;
            s->line = line;
            snprintf(s->text, sizeof s->text, "%s", out);
        }
    }
    pthread_mutex_unlock(&cc_py_cache_lock);
}
