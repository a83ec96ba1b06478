/* Starting and ending the CUPTI backend (see cupti_backend.h): subscription with conflict
 * detection, our clock for every CUPTI timestamp (CLOCK_MONOTONIC, the clock of event
 * timestamps), system thread ids, activity buffers, the activity kinds of the timeline and the
 * API functions that launch, copy, set, allocate or synchronise; NVTX through CUPTI's NVTX
 * injection; a clock_sync event for merging ranks. At exit (and in the last words of a fatal
 * signal or _exit(), on the agent's fatal writer thread) all activity is flushed so that the
 * tool sees it before PROCESS_EXIT (CUPTI is not finalized at exit, see on_process_exit). */
#include "agent/backends/cupti/cupti_backend.h"

#include <stdio.h>

#ifndef CC_HAVE_CUPTI_HEADERS
int cc_cupti_backend_start(void)
{
    fprintf(stderr, "cucheck: cannot profile: this agent was built without the CUPTI headers; "
                    "the program runs unprofiled\n");
    return -1;
}
#else
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "agent/backends/cupti/cupti_bridge.h"
#include "agent/core/last_words.h"
#include "agent/core/agent_knobs.h"
#include "core/rank_env.h"

static CUpti_SubscriberHandle subscriber;
static atomic_int released;  /* CUPTI flushed and finalized */
static pid_t started_pid; /* the process that subscribed (fork children must not flush) */

static uint64_t CUPTIAPI monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int part_off(const char *part);

/* Kernel timestamps from the Hardware Event System instead of CUPTI's software instrumentation
 * of every launch (which costs about a microsecond per launch, docs/profile.md). CUPTI offers
 * it on Blackwell and later, once the driver is initialized: asked for when the first context
 * is created; elsewhere CUPTI declines and the software path stays. */
static void try_hardware_trace(void)
{
    static atomic_int asked;
    if (atomic_exchange(&asked, 1) || part_off("hwtrace") || !cc_cupti.ActivityEnableHWTrace)
        return;
    CUptiResult r = cc_cupti.ActivityEnableHWTrace(1);
    cc_cupti_note("CUPTI: kernel timestamps from %s", r == CUPTI_SUCCESS
                      ? "the hardware event system"
                      : "software instrumentation (hardware trace declined)");
    if (r != CUPTI_SUCCESS) cc_cupti_note("CUPTI: cuptiActivityEnableHWTrace: %s",
                                          cc_cupti_result_string(r));
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        try_hardware_trace();
        return;
    }
    if (domain == CUPTI_CB_DOMAIN_STATE && cbid == CUPTI_CBID_STATE_FATAL_ERROR && data) {
        const CUpti_StateData *s = data;
        fprintf(stderr, "cucheck: CUPTI reported a fatal error (%s): %s; profiling stops here\n",
                cc_cupti_result_string(s->notification.result),
                s->notification.message ? s->notification.message : "");
        atomic_store(&released, 1); /* CUPTI finalizes itself after this */
    }
}

/* Whether an API function is one the profile traces: launches, copies, memsets, allocations,
 * synchronisations, graph launches. */
static int traced_api(const char *name)
{
    static const char *const parts[] = {
        "Launch", "Memcpy", "Memset", "Synchronize", "StreamWaitEvent", "EventRecord",
        "Malloc", "Free", "MemAlloc", "MemFree", "HostAlloc", "StreamQuery", "EventQuery",
    };
    size_t n = sizeof parts / sizeof parts[0];
    if (part_off("apiextra")) n = 3; /* launches, copies and memsets only */
    for (size_t i = 0; i < n; i++)
        if (strstr(name, parts[i])) return 1;
    return 0;
}

/* CUCHECK_PROFILE_OFF: a comma list of parts left off, to measure what each costs
 * (docs/profile.md): kernel, memcpy, memset, sync, marker, api, apiextra (API records of
 * launches, copies and memsets only), hwtrace (no hardware kernel timestamps), tscb (CUPTI's
 * own clock instead of the monotonic-clock timestamp callback). */
static int part_off(const char *part)
{
    const char *v = cc_knob_get(CC_KNOB_PROFILE_OFF);
    size_t n = strlen(part);
    for (const char *p = v; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, part, n) == 0) return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static void enable_apis(void)
{
    if (!cc_cupti.ActivityEnableRuntimeApi || !cc_cupti.ActivityEnableDriverApi) {
        cc_cupti.ActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME); /* fallback: all of them */
        return;
    }
    int n = 0;
    for (uint32_t cbid = 1; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; cbid++) {
        const char *name = NULL;
        if (cc_cupti.GetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) == CUPTI_SUCCESS &&
            name && traced_api(name) && cc_cupti.ActivityEnableRuntimeApi(cbid, 1) == CUPTI_SUCCESS)
            n++;
    }
    /* Driver launches matter (Triton, cuBLAS-less code calls cuLaunchKernel directly); the ones
     * the runtime makes on a program's behalf are left out of the API summary by the tool. */
    for (uint32_t cbid = 1; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; cbid++) {
        const char *name = NULL;
        if (cc_cupti.GetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &name) == CUPTI_SUCCESS &&
            name && traced_api(name) && cc_cupti.ActivityEnableDriverApi(cbid, 1) == CUPTI_SUCCESS)
            n++;
    }
    cc_cupti_note("CUPTI: tracing %d runtime/driver API functions", n);
}

static void enable_activity(void)
{
    static const struct {
        CUpti_ActivityKind kind;
        const char *part;
    } kinds[] = {
        {CUPTI_ACTIVITY_KIND_DEVICE, ""},           {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "kernel"},
        {CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy"},     {CUPTI_ACTIVITY_KIND_MEMCPY2, "memcpy"},
        {CUPTI_ACTIVITY_KIND_MEMSET, "memset"},     {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "sync"},
        {CUPTI_ACTIVITY_KIND_MARKER, "marker"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (kinds[i].part[0] && part_off(kinds[i].part)) {
            cc_cupti_note("CUPTI: %s activity left off (CUCHECK_PROFILE_OFF)", kinds[i].part);
            continue;
        }
        CUptiResult r = cc_cupti.ActivityEnable(kinds[i].kind);
        if (r != CUPTI_SUCCESS)
            cc_cupti_note("CUPTI: cannot enable activity kind %d: %s", (int)kinds[i].kind,
                          cc_cupti_result_string(r));
    }
    if (!part_off("api")) enable_apis();
}

/* Flush everything CUPTI holds (completed or not) through the buffer callback, once. CUPTI is
 * not finalized: that was done here to avoid programs running slower after profiling
 * (pytorch/pytorch#146604), a concern for a process that goes on running, never at its end. */
static void release_cupti(void)
{
    if (atomic_exchange(&released, 1)) return;
    cc_cupti.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

/* Registered after the agent's exit handler, so it runs first: the tool gets every record
 * before PROCESS_EXIT. Flush only: cuptiFinalize at exit buys nothing (the process ends) and
 * races the threads still inside CUDA (PyTorch's) — CUPTI documents it as safe only from a
 * callback's exit site; Kineto saw it crash) — a way for a profiled process to crash or stall at
 * its end. A fork child skips CUPTI
 * altogether: CUPTI's threads were not copied by fork, and a flush there could wait forever. */
static void on_process_exit(int status, void *arg)
{
    (void)status;
    (void)arg;
    if (getpid() != started_pid) return;
    release_cupti();
}

/* The fatal writer's last words (a fatal signal or _exit(), exit_handlers.c): the activity
 * goes to the tool before PROCESS_EXIT, on the writer's thread, never inside a signal handler
 * (CUPTI is not async-signal-safe: a crash inside CUPTI or the allocator would hang there; on
 * the writer a stuck flush is abandoned after the agent's bound). */
static void flush_at_last_words(void)
{
    if (getpid() != started_pid) return;
    release_cupti();
}

static void install_flush_handlers(void)
{
    on_exit(on_process_exit, NULL);
    cc_agent_on_last_words(flush_at_last_words);
}

static void emit_clock_sync(void)
{
    cc_event ev;
    struct timespec wall, mono;
    char host[256] = "";
    cc_cupti_event_init(&ev, CC_EV_CLOCK_SYNC);
    clock_gettime(CLOCK_REALTIME, &wall);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    gethostname(host, sizeof host - 1);
    ev.u.clock_sync.wall_ns = (uint64_t)wall.tv_sec * 1000000000u + (uint64_t)wall.tv_nsec;
    ev.u.clock_sync.mono_ns = (uint64_t)mono.tv_sec * 1000000000u + (uint64_t)mono.tv_nsec;
    ev.u.clock_sync.rank = cc_rank_from_env();
    ev.u.clock_sync.host = host;
    cc_cupti_emit(&ev);
}

int cc_cupti_backend_start(void)
{
    char err[1024];
    if (cc_cupti_load(err, sizeof err) != 0) {
        fprintf(stderr, "cucheck: cannot profile: %s; the program runs unprofiled (try "
                        "'cucheck doctor')\n", err);
        return -1;
    }
    /* NVTX ranges reach CUPTI through NVTX's injection hook; only effective for NVTX calls
     * the program has not made yet (the agent loads at start under LD_PRELOAD). */
    const char *nvtx = getenv("NVTX_INJECTION64_PATH");
    if (!nvtx || !*nvtx) setenv("NVTX_INJECTION64_PATH", cc_cupti.path, 1);

    char holder[256] = "";
    CUptiResult r;
    if (cc_cupti.Subscribe_v2) {
        CUpti_SubscriberParams p;
        memset(&p, 0, sizeof p);
        p.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
        p.subscriberName = "cucheck";
        p.oldSubscriberName = holder;
        p.oldSubscriberSize = sizeof holder;
        r = cc_cupti.Subscribe_v2(&subscriber, on_callback, NULL, &p);
    } else {
        r = cc_cupti.Subscribe(&subscriber, on_callback, NULL);
    }
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        holder[sizeof holder - 1] = '\0';
        fprintf(stderr, "cucheck: cannot profile: CUPTI is already in use by %s (one CUPTI "
                        "client per process: Nsight Systems/Compute, compute-sanitizer, "
                        "torch.profiler/Kineto, ...); the program runs unprofiled (try "
                        "'cucheck doctor')\n",
                holder[0] ? holder : "another tool");
        return -1;
    }
    if (r != CUPTI_SUCCESS) {
        fprintf(stderr, "cucheck: cannot profile: cuptiSubscribe failed (%d: %s%s); the program "
                        "runs unprofiled (try 'cucheck doctor')\n",
                (int)r, cc_cupti_result_string(r),
                r == CUPTI_ERROR_UNKNOWN || r == CUPTI_ERROR_NOT_INITIALIZED
                    ? "; is the NVIDIA driver, libcuda.so.1, installed?" : "");
        return -1;
    }
    cc_cupti.EnableCallback(1, subscriber, CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR);
    cc_cupti.EnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                            CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (part_off("tscb") || !cc_cupti.ActivityRegisterTimestampCallback ||
        cc_cupti.ActivityRegisterTimestampCallback(monotonic_ns) != CUPTI_SUCCESS) {
        uint64_t now = 0;
        cc_cupti.GetTimestamp(&now); /* CUPTI's own clock: measure its offset once */
        cc_cupti_ts_offset = (long long)now - (long long)monotonic_ns();
    }
    if (cc_cupti.SetThreadIdType) cc_cupti.SetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    r = cc_cupti.ActivityRegisterCallbacks(cc_cupti_buffer_requested, cc_cupti_buffer_completed);
    if (r != CUPTI_SUCCESS) {
        fprintf(stderr, "cucheck: cannot profile: cuptiActivityRegisterCallbacks failed (%s); "
                        "the program runs unprofiled\n", cc_cupti_result_string(r));
        cc_cupti.Unsubscribe(subscriber);
        return -1;
    }
    if (cc_cupti_open_outputs() != 0) {
        cc_cupti.Unsubscribe(subscriber);
        return -1;
    }
    emit_clock_sync();
    started_pid = getpid();
    cc_cupti_install_agent_exit_handlers();
    install_flush_handlers();
    enable_activity();
    cc_cupti_note("profiling with %s", cc_cupti.path);
    return 0;
}
#endif
