/* Launch progress marks for exact attribution of asynchronous errors (run tool): every module
 * is patched at its block entries and exits (cc_progress_block_enter/_exit, patch_records.h) so
 * that the device marks in pinned host memory each grid that started and each grid whose
 * threads all exited. Launches that are marked (CC_LAUNCH_FLAG_PROGRESS) are remembered by
 * launch id; when the first sticky error surfaces the agent reads the marks and emits
 * CC_EV_LAUNCH_PROGRESS events before the API_ERROR, which the run tool uses to rule out
 * finished launches and those that never started.
 * Off by default: two patched calls per thread cost as much as memcheck's patching on kernels
 * with one element per thread (a vector add ran 24x slower on the H200); `cucheck run --progress
 * on` (or CUCHECK_PROGRESS=on) asks for it. The CLI's second run after an asynchronous error
 * with several candidates lists them (CUCHECK_PROGRESS_LAUNCHES): then only the modules holding
 * their kernels are patched and only those launches are marked. */
#ifndef CUCHECK_AGENT_LAUNCH_PROGRESS_H
#define CUCHECK_AGENT_LAUNCH_PROGRESS_H

#include <sanitizer.h>
#include "cucheck/event.h"
#include "agent/core/agent_knobs.h"


void cc_progress_init(void); /* after the outputs are open */
/* Resource callbacks: module loaded (patch it), module unloading, context destroyed. */
void cc_progress_on_resource(Sanitizer_CallbackId cbid, const void *data);
/* A launch (LAUNCH_BEGIN) or a graph's kernel node, before its event is emitted: flags it
 * CC_LAUNCH_FLAG_PROGRESS when the device will mark it. */
void cc_progress_on_launch(const Sanitizer_LaunchData *d, cc_event *ev, int graph_node);
/* The first sticky error: emit the LAUNCH_PROGRESS events. Later calls do nothing. */
void cc_progress_on_sticky(void);

#endif
