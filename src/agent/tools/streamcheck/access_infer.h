/* streamcheck's inferred access sets (CC_ACCESS_SRC_INFERRED): at each kernel launch, the
 * words of the launch's parameter buffer that point into a live device allocation become
 * CC_EV_ACCESS events (read|write, from the pointer to its allocation's end), emitted right
 * after the launch event. The parameter buffer comes from the launch API's enter callback on
 * the same thread (cudaLaunchKernel(_ptsz) / cudaLaunchCooperativeKernel / cudaLaunchKernelExC
 * `args`, cuLaunchKernel / cuLaunchCooperativeKernel / cuLaunchKernelEx `kernelParams` or the
 * packed `extra` buffer); argument offsets and sizes from the kernel's KPARAM_INFO records in
 * the module's cubin (symbols/kparams.h); allocations from the RESOURCE callbacks. Inactive
 * unless the tool is streamcheck. In --mode default and full the launch's plan (sc_agent.h)
 * comes first: a launch that runs instrumented or gets a learned set gets no inferred one, and
 * --mode full gets none at all. Graph kernel nodes (GRAPHS NODE_LAUNCH_BEGIN) are the exception:
 * they run neither instrumented nor learned, so in every mode they get an inferred set from the
 * arguments the driver holds for the node (cuGraphKernelNodeGetParams; none if that fails, if
 * the node's kernel or shape differs from the launch, or with CUCHECK_SC_GRAPH_ARGS=0). */
#ifndef CUCHECK_AGENT_ACCESS_INFER_H
#define CUCHECK_AGENT_ACCESS_INFER_H

#include <sanitizer.h>
#include "cucheck/event.h"

/* Hooks: members of streamcheck's plug-in (streamcheck_plugin.c). */
void cc_access_init(void); /* after the outputs are open */
void cc_access_on_resource(Sanitizer_CallbackId cbid, const void *data);
void cc_access_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                      const Sanitizer_CallbackData *d);
/* After the launch event was emitted (LAUNCH_BEGIN of a stream launch). */
void cc_access_after_launch(const Sanitizer_LaunchData *d, const cc_event *launch);
/* After a graph kernel node's launch event was emitted (NODE_LAUNCH_BEGIN, not an upload). */
void cc_access_after_graph_node(const Sanitizer_GraphNodeLaunchData *d, const cc_event *launch);

#endif
