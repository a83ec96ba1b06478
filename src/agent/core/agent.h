/* Internal state and functions of the injected agent (libcucheck_agent.so). One process-wide
 * cc_agent holds the session (tool + reporter), the optional .cuevt recorder and the Sanitizer
 * subscription; the files of src/agent/ each own one part (entry, outputs, emit, callbacks by
 * domain, patch loading, exit/signal/fork handling). */
#ifndef CUCHECK_AGENT_AGENT_H
#define CUCHECK_AGENT_AGENT_H

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <sanitizer.h>
#include "cucheck/event.h"
#include "core/access_learn.h"
#include "core/evtio.h"
#include "core/session.h"
#include "agent/core/agent_plugin.h"
#include "agent/core/agent_knobs.h"

/* What the agent tracks (CUCHECK_TRACK, or the run tool's `--track`): the CC_TRACK_* groups of
 * core/track_spec.h, parsed there (track_config.c reads the setting). */
#include "core/track_spec.h"

#define CC_AGENT_PATH_MAX 4096

typedef struct cc_agent {
    /* Set once by the first initializer. */
    int verbose;
    int quiet;
    int subscribed;                      /* sanitizerSubscribe succeeded */
    Sanitizer_SubscriberHandle subscriber;
    char tool[128];
    uint32_t track;                      /* CC_TRACK_* */

    /* Per process (re-set in a fork child). Guarded by `lock`: emitters hold it for reading,
     * opening and closing take it for writing. */
    pthread_rwlock_t lock;
    pid_t pid;
    cc_session *session;
    cc_evt_writer *recorder;
    char report_path[CC_AGENT_PATH_MAX];
    char record_path[CC_AGENT_PATH_MAX];
    atomic_int reopen_pending;           /* fork child: open outputs on first event */
    atomic_int finished;                 /* PROCESS_EXIT emitted; later events are dropped */

    atomic_uint_fast64_t next_launch_id; /* launch ids start at 1 */
} cc_agent;

extern cc_agent cc_agent_g;

/* agent_outputs.c: open the session and recorder for the current pid (from the environment);
 * emits PROCESS_START. 0 on success, -1 after printing one line (the agent then stays inert). */
int cc_agent_open_outputs(void);
/* Emit PROCESS_EXIT and close the session and recorder (idempotent). */
void cc_agent_close_outputs(uint32_t reason, int32_t code);
/* Flush the recorder and reporter without locking (fatal-signal path; best effort). */
void cc_agent_flush_outputs_unlocked(void);
/* Flush with the lock held (before fork). */
void cc_agent_flush_outputs(void);

/* agent_emit.c */
void cc_agent_event_init(cc_event *ev, cc_event_kind kind); /* zero + header (tid, timestamp) */
void cc_agent_emit(const cc_event *ev);                     /* to the session and recorder */
void cc_agent_emit_many(const cc_event *evs, size_t n);     /* in order */
/* A launch's access set as CC_EV_ACCESS events of one source, 32 at a time. */
void cc_agent_emit_accesses(uint64_t launch_id, uint32_t source, const cc_al_access *acc,
                            size_t n);
/* The last words of a fatal signal or _exit(): the queued events (if their thread is not stuck
 * for 200 ms), then ev (may be NULL; PROCESS_EXIT marks the agent finished), then the outputs
 * flushed. Never waits for the agent's lock (drops ev instead). */
void cc_agent_emit_final(const cc_event *ev);
/* Hands events to the session and the recorder on the calling thread (the event pipe's sink). */
void cc_agent_hand_on(const cc_event *evs, size_t n, void *arg);
/* The event thread (event_pipe.h): started after the outputs open (CUCHECK_EVENT_THREAD: on or
 * off, else on for streamcheck when the process may run on two CPUs or more); stopped, its queue analysed, before
 * the outputs close; drained where a caller needs every earlier event analysed; fork hooks. */
void cc_agent_events_start(void);
void cc_agent_events_stop(void);
void cc_agent_events_drain(void);
void cc_agent_events_fork_prepare(void);
void cc_agent_events_fork_parent(void);
void cc_agent_events_fork_child(void);
void cc_agent_events_report(void); /* stderr, with CUCHECK_SELF_TIME=1 */
uint64_t cc_agent_now_ns(void);
uint32_t cc_agent_tid(void);
void cc_agent_note(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* verbose only */
/* A note in this process's report (what was not checked, and why); dropped before the outputs
 * open. Takes the agent's lock for reading: never from a signal handler. */
void cc_agent_report_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* driver_symbol.c: a driver function from the libcuda the program loaded, or NULL (not loaded,
 * or no such function). */
void *cc_agent_driver_symbol(const char *name);
/* Whether work put on stream is captured into a graph rather than run: 1 capturing, 0 not,
 * -1 unknown (cuStreamIsCapturing missing or failing). */
int cc_agent_stream_capturing(CUstream stream);

/* capture_calls.c: 1 if (domain, cbid) begins (*begin 1) or ends a stream capture; the
 * process-wide count of captures that may be in progress, kept from every API enter and exit
 * (cc_agent_capture_count), and whether it is above zero. */
int cc_agent_capture_call(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, int *begin);
void cc_agent_capture_count(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                            int enter);
int cc_agent_captures_open(void);

/* kernel_names.c: the name of a launched kernel as a string that lives as long as the process
 * (launch events are analysed after their callback returned). */
const char *cc_agent_kernel_name(const void *function, const char *source);
void cc_agent_kernel_names_after_fork(void); /* fork child: a fresh lock */

/* agent_ids.c: CUDA handles to event ids. */
uint64_t cc_agent_stream_id(CUstream stream, Sanitizer_StreamHandle handle);
uint64_t cc_agent_handle_id(const void *handle);
/* A stream the program handed to a library (NCCL), outside any callback: its id as launch
 * events on it carry, and in *context the id of its context (the current one for the implicit
 * streams, or when the driver does not say). Makes driver calls: never inside a callback. */
uint64_t cc_agent_app_stream_id(CUstream stream, uint64_t *context);

/* track_config.c: CC_TRACK_* from CUCHECK_TRACK or the tool option "track" (a malformed value
 * is said on stderr and dflt is used). Without either, dflt: the tool plug-in's default_track
 * (0: everything). */
uint32_t cc_agent_track_config(uint32_t dflt);
/* An on/off switch: the environment variable env, else the tool option name, else dflt (a
 * malformed value is said on stderr and dflt used). 1 on, 0 off. */
int cc_agent_switch(const char *env, const char *name, int dflt);

/* host_stacks.c: the calling thread's host stack as a stack id (CC_EV_HOST_STACK is emitted
 * the first time a stack is seen); 0 when stacks are not tracked. */
uint64_t cc_agent_callsite(void);
void cc_agent_stacks_after_fork(void);
/* One line on how the call-site cache did (CUCHECK_SELF_TIME). */
void cc_agent_stacks_report(FILE *out);
/* Symbolizes and defines the native stacks seen but not yet defined (before an API error is
 * reported, and at exit); not from signal handlers. */
void cc_agent_stacks_flush(void);
/* A stack a tool needs before it was flushed (a finding made mid-run): symbolize pending stack
 * `id` and hand it to sink, without emitting it (the flush at exit still records it). 0 done;
 * -1 if it is not pending or the stack table is busy (never waits). */
typedef void (*cc_agent_stack_sink)(const cc_ev_host_stack *stack, void *arg);
int cc_agent_stack_resolve(uint64_t id, cc_agent_stack_sink sink, void *arg);

/* sanitizer_subscribe.c */
int cc_agent_subscribe(void);       /* 0 ok; -1 after printing why (program runs unchecked) */
/* This thread (one of the agent's own) makes driver calls for the agent: their callbacks are
 * ignored, as those of the agent's calls inside a callback are (no events, no tool hooks). */
void cc_agent_ignore_callbacks_here(void);
void cc_agent_enable_callbacks(void);

/* Callback translation, one function per domain (translate_*.c). */
void cc_agent_on_resource(Sanitizer_CallbackId cbid, const void *data);
void cc_agent_on_launch(Sanitizer_CallbackId cbid, const void *data);
void cc_agent_on_memcpy(Sanitizer_CallbackId cbid, const void *data);
void cc_agent_on_memset(Sanitizer_CallbackId cbid, const void *data);
void cc_agent_on_graphs(Sanitizer_CallbackId cbid, const void *data);
void cc_agent_on_synchronize(Sanitizer_CallbackId cbid, const void *data);
void cc_agent_on_events(Sanitizer_CallbackId cbid, const void *data);
void cc_agent_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void *data);

/* translate_api.c: flags of the stream the calling thread is creating (0 if none known). */
uint32_t cc_agent_creating_stream_flags(void);
/* translate_api.c: 1 while the calling thread is inside a synchronous peer copy call
 * (cudaMemcpyPeer, cudaMemcpy3DPeer, cuMemcpyPeer, cuMemcpy3DPeer). */
int cc_agent_in_peer_copy(void);

/* Shared helpers of the translators (translate_work.c). */
void cc_agent_fill_memcpy(cc_event *ev, const Sanitizer_MemcpyData *d);
void cc_agent_fill_memset(cc_event *ev, const Sanitizer_MemsetData *d);
void cc_agent_fill_launch(cc_event *ev, const Sanitizer_LaunchData *d);

/* patch_loader.c: patching calls are serialized by one mutex. */
/* Add the patch fatbin to ctx, once per context, before a module of it is instrumented (the
 * caller holds no patching lock). 0 on success. */
int cc_agent_patches_load(CUcontext ctx);
void cc_agent_patches_on_context_destroy(CUcontext ctx);
int cc_agent_patches_embedded(void); /* 1 if the build embedded a patch fatbin */
int cc_agent_patches_available(void); /* embedded, or a fatbin file named by CUCHECK_PATCHES */
void cc_agent_patches_after_fork(void); /* fork child: the parent's contexts are not ours */

/* exit_handlers.c */
void cc_agent_install_exit_handlers(void);

#endif
