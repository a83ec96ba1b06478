/* The CUPTI backend of the agent, used instead of the Compute Sanitizer backend when the tool is
 * `profile` (one tools API per process). It loads libcupti with dlopen (the agent still loads
 * where CUPTI is absent), subscribes (naming the tool that holds CUPTI on a conflict, and then
 * letting the program run unprofiled), enables the activity kinds of the timeline, and turns
 * activity records into cucheck events (kinds 32..39 of cucheck/event.h). Activity is flushed at
 * exit and on fatal signals (not finalized: see cupti_backend.c). */
#ifndef CUCHECK_AGENT_CUPTI_BACKEND_H
#define CUCHECK_AGENT_CUPTI_BACKEND_H

#if defined(__has_include)
#if __has_include(<cupti.h>)
#define CC_HAVE_CUPTI_HEADERS 1
#endif
#endif

/* The whole start of a profiling agent: load CUPTI, subscribe, open the outputs (session +
 * recorder), install the agent's exit handlers and the backend's flush handlers, enable
 * activity. Called by the agent entry instead of the Sanitizer subscription when the tool is
 * the profile tool. 0 on success; -1 after printing one line (the program then runs unprofiled). */
int cc_cupti_backend_start(void);

#ifdef CC_HAVE_CUPTI_HEADERS
#include <cupti.h>

/* The CUPTI functions the backend uses, resolved from the loaded library. */
typedef struct cc_cupti_api {
    CUptiResult (*GetVersion)(uint32_t *);
    CUptiResult (*GetResultString)(CUptiResult, const char **);
    CUptiResult (*Subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
    CUptiResult (*Subscribe_v2)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *,
                                CUpti_SubscriberParams *);
    CUptiResult (*Unsubscribe)(CUpti_SubscriberHandle);
    CUptiResult (*EnableCallback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain,
                                  CUpti_CallbackId);
    CUptiResult (*GetCallbackName)(CUpti_CallbackDomain, uint32_t, const char **);
    CUptiResult (*ActivityEnable)(CUpti_ActivityKind);
    CUptiResult (*ActivityDisable)(CUpti_ActivityKind);
    CUptiResult (*ActivityEnableRuntimeApi)(CUpti_CallbackId, uint8_t);
    CUptiResult (*ActivityEnableDriverApi)(CUpti_CallbackId, uint8_t);
    CUptiResult (*ActivityEnableHWTrace)(uint8_t); /* NULL in a CUPTI without it */
    CUptiResult (*ActivityRegisterCallbacks)(CUpti_BuffersCallbackRequestFunc,
                                             CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*ActivityRegisterTimestampCallback)(CUpti_TimestampCallbackFunc);
    CUptiResult (*ActivityGetNextRecord)(uint8_t *, size_t, CUpti_Activity **);
    CUptiResult (*ActivityGetNumDroppedRecords)(CUcontext, uint32_t, size_t *);
    CUptiResult (*ActivityFlushAll)(uint32_t);
    CUptiResult (*SetThreadIdType)(CUpti_ActivityThreadIdType);
    CUptiResult (*GetTimestamp)(uint64_t *);
    CUptiResult (*Finalize)(void);
    char path[4096];      /* the library that was loaded */
} cc_cupti_api;

extern cc_cupti_api cc_cupti;

/* cupti_loader.c: 0, or -1 with a one-line reason in err. */
int cc_cupti_load(char *err, size_t errlen);
const char *cc_cupti_result_string(CUptiResult r);

/* cupti_records.c */
extern long long cc_cupti_ts_offset; /* subtracted from CUPTI times (0 with our clock) */
void CUPTIAPI cc_cupti_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
void CUPTIAPI cc_cupti_buffer_completed(CUcontext ctx, uint32_t stream_id, uint8_t *buffer,
                                        size_t size, size_t valid_size);
/* Name of an API function without its _vNNNN suffix ("cudaLaunchKernel"); never NULL. */
const char *cc_cupti_api_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
#endif

#endif
