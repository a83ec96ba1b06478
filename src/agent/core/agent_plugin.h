/* The seam between the agent's core and each tool's agent half. A tool that needs anything in
 * the checked process beyond the common event stream (device instrumentation, its own callbacks,
 * another backend) describes it in one cc_agent_plugin, defined in its folder under
 * src/agent/tools/<name>/ and listed once in src/agent/tools/plugins.c. The core and the
 * backends call the plug-in of the process's tool through these members and never name a tool.
 * Every member may be NULL / 0. Tools without an agent half get an empty plug-in. */
#ifndef CUCHECK_AGENT_CORE_AGENT_PLUGIN_H
#define CUCHECK_AGENT_CORE_AGENT_PLUGIN_H

#include <stdint.h>
#include <sanitizer.h>
#include "cucheck/event.h"

struct cc_instr_client;

/* Where a process's events come from: one tools API per process. */
typedef enum cc_agent_backend {
    CC_BACKEND_SANITIZER = 0, /* Compute Sanitizer callbacks and patching (the default) */
    CC_BACKEND_CUPTI_TRACE,   /* CUPTI activity records and callbacks (profile) */
    CC_BACKEND_CUPTI_API,     /* CUPTI driver callbacks decoded into the Sanitizer's records;
                               * falls back to the Sanitizer where CUPTI is unavailable */
} cc_agent_backend;

typedef struct cc_agent_plugin {
    const char *tool;              /* the registry name (src/tools/registry.c) */
    /* The backend this run needs (may read the tool's options); NULL: the Sanitizer. */
    cc_agent_backend (*backend)(void);
    /* CC_TRACK_* when neither CUCHECK_TRACK nor the tool's --track says; 0: everything. */
    uint32_t default_track;
    /* 1: the tool's analysis runs on the agent's event thread by default (where the process may
     * use two CPUs or more): for analyses that cost more per event than queuing it. */
    int event_thread;
    /* 1: the agent's NCCL interposer (host/nccl_calls.c) emits a CC_EV_COLLECTIVE for each NCCL
     * collective or send/recv the program enqueues; 0: NCCL calls are only forwarded. */
    int needs_collectives;
    /* 1: stream creations and cudaMalloc-style allocations name the NVIDIA library whose code
     * made them (the events' `library`, host/host_library.c: an unwind per such call). */
    int needs_library_owner;
    /* The instrumentation manager's client for this run (instr/instr_internal.h), or NULL when
     * nothing is patched; called once, after the outputs are open. */
    const struct cc_instr_client *(*instr_client)(void);
    /* After the outputs are open, before callbacks are enabled (both Sanitizer-side backends). */
    void (*init)(void);
    /* Resource callbacks (contexts, streams, modules, memory), after the core's translation. */
    void (*on_resource)(Sanitizer_CallbackId cbid, const void *data);
    /* Every enabled runtime or driver API callback, enter and exit, before the core's. */
    void (*on_api)(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                   const Sanitizer_CallbackData *d);
    /* A launch (LAUNCH_BEGIN) or a graph's kernel node (graph_node 1) before its event is
     * emitted: the plug-in may set flags on it. */
    void (*on_launch)(const Sanitizer_LaunchData *d, cc_event *ev, int graph_node);
    /* Right after a stream launch's event was emitted. */
    void (*after_launch)(const Sanitizer_LaunchData *d, const cc_event *ev);
    /* Right after a graph kernel node's launch event was emitted (not an upload). */
    void (*after_graph_node)(const Sanitizer_GraphNodeLaunchData *d, const cc_event *ev);
    /* The first sticky (asynchronous) error, before its API error event is emitted. */
    void (*on_sticky_error)(void);
    /* Every event the agent emits, in order, on the emitting thread, before the tool sees it
     * (initcheck's agent-side model). It must not take the instrumentation manager's lock
     * (events are emitted under it). */
    void (*on_event)(const cc_event *ev);
} cc_agent_plugin;

/* tools/plugins.c: the plug-in of `tool` (an empty one for a tool without an agent half). */
const cc_agent_plugin *cc_agent_plugin_find(const char *tool);

/* The plug-in of this process's tool (entry/agent_entry.c sets it before anything else runs). */
extern const cc_agent_plugin *cc_agent_plugin_g;

#define CC_PLUGIN_CALL(member, ...)                                                        \
    do {                                                                                   \
        if (cc_agent_plugin_g->member != NULL) {                                           \
            cc_agent_plugin_g->member(__VA_ARGS__);                                        \
        }                                                                                  \
    } while (0)

#endif
