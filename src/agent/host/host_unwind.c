/* Raw stack capture (see host_unwind.h). The unwinder is chosen once: libunwind's unw_backtrace
 * when libunwind.so.8 can be loaded, else glibc's backtrace(), which goes through libgcc's
 * unwinder (slower per frame, but always there). No allocation after the first call. */
#include "agent/host/host_unwind.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stddef.h>

typedef int (*cc_unw_backtrace_fn)(void **buffer, int size);

static cc_unw_backtrace_fn cc_unw_backtrace;
static pthread_once_t cc_unwind_once = PTHREAD_ONCE_INIT;

static void cc_unwind_init(void)
{
    static const char *const names[] = {"libunwind.so.8", "libunwind.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            continue;
        }
        void *fn = dlsym(h, "unw_backtrace");
        if (fn != NULL) {
            cc_unw_backtrace = (cc_unw_backtrace_fn)fn;
            return;
        }
        dlclose(h);
    }
    /* glibc loads libgcc_s lazily on the first backtrace(): do it now, not in a callback. */
    void *warm[2];
    backtrace(warm, 2);
}

const char *cc_host_unwinder_name(void)
{
    pthread_once(&cc_unwind_once, cc_unwind_init);
    return cc_unw_backtrace != NULL ? "libunwind" : "glibc backtrace";
}

int cc_host_unwind(uint64_t *pcs, int max)
{
    enum { CC_UNWIND_MAX = 128 };
    void *buf[CC_UNWIND_MAX];
    pthread_once(&cc_unwind_once, cc_unwind_init);
    if (max > CC_UNWIND_MAX) {
        max = CC_UNWIND_MAX;
    }
    if (max <= 0) {
        return 0;
    }
    int n = cc_unw_backtrace != NULL ? cc_unw_backtrace(buf, max) : backtrace(buf, max);
    if (n < 0) {
        n = 0;
    }
    for (int i = 0; i < n; i++) {
        pcs[i] = (uint64_t)(uintptr_t)buf[i];
    }
    return n;
}
