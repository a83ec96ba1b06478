/* Loading libcupti at run time (never linked, so the agent loads where CUPTI is absent): a copy
 * the program already loaded wins (two CUPTI libraries in one process would fight), then
 * CUCHECK_CUPTI, then the loader's search path, then the toolkit's usual places. Resolves the
 * functions the backend uses and checks that the library is at least as new as the headers the
 * backend was built with (activity records only ever grow at their end). */
#include "agent/backends/cupti/cupti_backend.h"

#ifdef CC_HAVE_CUPTI_HEADERS
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent_knobs.h"

cc_cupti_api cc_cupti;

static void *try_open(const char *name, int flags)
{
    return dlopen(name, RTLD_NOW | RTLD_LOCAL | flags);
}

#define SYM(field, name, required)                                                        \
    do {                                                                                  \
        void *p_ = dlsym(h, name);                                                        \
        if (!p_ && (required)) {                                                          \
            snprintf(err, errlen, "%s lacks %s (too old?)", cc_cupti.path, name);         \
            return -1;                                                                    \
        }                                                                                 \
        memcpy(&cc_cupti.field, &p_, sizeof p_);                                          \
    } while (0)

int cc_cupti_load(char *err, size_t errlen)
{
    static const char *const loaded[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    static const char *const search[] = {
        "libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so",
        "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
    };
    void *h = NULL;
    for (size_t i = 0; !h && i < sizeof loaded / sizeof loaded[0]; i++)
        h = try_open(loaded[i], RTLD_NOLOAD);
    const char *env = cc_knob_get(CC_KNOB_CUPTI);
    if (!h && env && *env) {
        h = try_open(env, 0);
        if (!h) {
            snprintf(err, errlen, "CUCHECK_CUPTI=%s cannot be loaded: %s", env, dlerror());
            return -1;
        }
    }
    for (size_t i = 0; !h && i < sizeof search / sizeof search[0]; i++) h = try_open(search[i], 0);
    if (!h) {
        snprintf(err, errlen, "libcupti.so not found (install the CUDA toolkit's CUPTI or set "
                              "CUCHECK_CUPTI=/path/to/libcupti.so)");
        return -1;
    }
    memset(&cc_cupti, 0, sizeof cc_cupti);
    snprintf(cc_cupti.path, sizeof cc_cupti.path, "libcupti");
    SYM(GetVersion, "cuptiGetVersion", 1);
    Dl_info info;
    if (dladdr((void *)cc_cupti.GetVersion, &info) && info.dli_fname)
        snprintf(cc_cupti.path, sizeof cc_cupti.path, "%s", info.dli_fname);
    SYM(GetResultString, "cuptiGetResultString", 1);
    SYM(Subscribe, "cuptiSubscribe", 1);
    SYM(Subscribe_v2, "cuptiSubscribe_v2", 0);
    SYM(Unsubscribe, "cuptiUnsubscribe", 1);
    SYM(EnableCallback, "cuptiEnableCallback", 1);
    SYM(GetCallbackName, "cuptiGetCallbackName", 1);
    SYM(ActivityEnable, "cuptiActivityEnable", 1);
    SYM(ActivityDisable, "cuptiActivityDisable", 1);
    SYM(ActivityEnableRuntimeApi, "cuptiActivityEnableRuntimeApi", 0);
    SYM(ActivityEnableDriverApi, "cuptiActivityEnableDriverApi", 0);
    SYM(ActivityEnableHWTrace, "cuptiActivityEnableHWTrace", 0);
    SYM(ActivityRegisterCallbacks, "cuptiActivityRegisterCallbacks", 1);
    SYM(ActivityRegisterTimestampCallback, "cuptiActivityRegisterTimestampCallback", 0);
    SYM(ActivityGetNextRecord, "cuptiActivityGetNextRecord", 1);
    SYM(ActivityGetNumDroppedRecords, "cuptiActivityGetNumDroppedRecords", 1);
    SYM(ActivityFlushAll, "cuptiActivityFlushAll", 1);
    SYM(SetThreadIdType, "cuptiSetThreadIdType", 0);
    SYM(GetTimestamp, "cuptiGetTimestamp", 1);
    SYM(Finalize, "cuptiFinalize", 1);
    uint32_t version = 0;
    if (cc_cupti.GetVersion(&version) != CUPTI_SUCCESS || version < CUPTI_API_VERSION) {
        snprintf(err, errlen, "%s has CUPTI API version %u, older than the %u cucheck was "
                              "built with (set CUCHECK_CUPTI to a newer libcupti.so)",
                 cc_cupti.path, version, (unsigned)CUPTI_API_VERSION);
        return -1;
    }
    return 0;
}

const char *cc_cupti_result_string(CUptiResult r)
{
    const char *s = NULL;
    if (!cc_cupti.GetResultString || cc_cupti.GetResultString(r, &s) != CUPTI_SUCCESS || !s)
        return "unknown CUPTI error";
    return s;
}
#endif
