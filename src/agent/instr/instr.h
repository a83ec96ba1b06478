/* The instrumentation manager, serving the client of the process's tool (its plug-in's
 * instr_client: memcheck's device checks, tools/memcheck/mc_client.c, or streamcheck's
 * per-allocation access ranges, tools/streamcheck/sc_client.c). It mirrors live allocations into
 * a sorted table (uploaded per launch with its header), patches modules with the client's patch
 * functions, asks the client per launch whether it runs instrumented (unpatching a module whose
 * launches no longer need it, re-patching with back-off), binds a per-launch slot (the client's
 * device header and host records) with sanitizerSetLaunchCallbackData, and lets the client drain
 * the slot into events carrying the launch's id: at the launch call's exit (streamcheck), or
 * later, once the launch is known to be finished (memcheck, instr_drain.c), then LAUNCH_CHECKED.
 * Inactive without a client. Files: instr_state.c (contexts, table, slots), instr_modules.c
 * (modules, patching, the shared unpatch/repatch policy), instr_launch.c (activation, the launch
 * gate, launch begin/end), instr_drain.c (reading slots back), patch_loader.c. */
#ifndef CUCHECK_AGENT_INSTR_H
#define CUCHECK_AGENT_INSTR_H

#include <sanitizer.h>
#include "cucheck/event.h"

/* Hooks, called by the agent's entry and backends for whichever client is set. */
struct cc_instr_client;
/* After the outputs are open, with the client of the process's tool (NULL: inactive). */
void cc_instr_init(const struct cc_instr_client *client);
void cc_instr_on_resource(Sanitizer_CallbackId cbid, const void *data);
void cc_instr_on_launch_begin(const Sanitizer_LaunchData *d, cc_event *ev); /* before emit */
void cc_instr_on_launch_end(Sanitizer_CallbackId cbid, const void *data);
/* A kernel node of a graph launch (no LAUNCH_BEGIN comes for it): its patched code must see no
 * launch data, or it would write into a slot another launch owns. */
void cc_instr_on_graph_kernel_node(const Sanitizer_LaunchData *d);
/* Any API call's enter (enter 1) or exit: the launch gate, deferred module changes. */
void cc_instr_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, int enter,
                     CUcontext ctx);
/* Bumped whenever the agent raised a context's stack limit (cached limits are stale). */
unsigned cc_instr_stack_generation(void);
/* The program synchronized a stream (or, whole_context, its context): launches there are done. */
void cc_instr_on_synchronized(CUcontext ctx, CUstream stream, int whole_context);
void cc_instr_on_sticky_error(void);        /* before the API error is emitted */
/* on_exit (late: records only, no Sanitizer call) or a fatal signal; the normal exit drain is an
 * atexit handler of the manager's own. */
void cc_instr_on_process_end(int fatal);
void cc_instr_after_fork_child(void);

#endif
