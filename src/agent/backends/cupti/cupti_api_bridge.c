/* The Sanitizer side of streamcheck --mode api on CUPTI (see cupti_api.h): each plain record the
 * CUPTI source decoded becomes the Compute Sanitizer callback record of the same meaning and
 * goes to the same translator (translate_*.c), so both sources make identical events. Stream
 * handles are absent (CUPTI has none): events name streams by their CUstream, consistently,
 * since every event of such a process comes from this source. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/core/agent_plugin.h"
#include "agent/backends/cupti/cupti_api.h"
#include "agent/core/self_time.h"

int cc_capi_open_outputs(void)
{
    if (cc_agent_open_outputs() != 0) {
        return -1;
    }
    cc_agent_install_exit_handlers();
    return 0;
}

void cc_capi_after_start(void)
{
    CC_PLUGIN_CALL(init);    /* the tool's own state (inferred access sets) */
    cc_agent_events_start(); /* the analysis on its own thread */
}

void cc_capi_note(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cc_agent_note("%s", buf);
}

int cc_capi_is_idle(void)
{
    return (cc_agent_g.track & CC_TRACK_IDLE) != 0;
}

int cc_capi_self_time_on(void)
{
    return cc_self_time_on;
}

uint64_t cc_capi_self_time_now(void)
{
    return cc_self_time_now();
}

void cc_capi_self_time_add(unsigned domain, uint64_t t0)
{
    cc_self_time_add(domain, t0);
}

void cc_capi_on_api(int enter, uint32_t cbid, const char *name, const void *params,
                    const void *result, void *context)
{
    Sanitizer_CallbackData d;
    memset(&d, 0, sizeof d);
    d.callbackSite = enter ? SANITIZER_API_ENTER : SANITIZER_API_EXIT;
    d.functionName = name;
    d.functionParams = params;
    d.functionReturnValue = enter ? NULL : result;
    d.context = context;
    cc_agent_on_api(SANITIZER_CB_DOMAIN_DRIVER_API, (Sanitizer_CallbackId)cbid, &d);
}

static void cc_capi_launch_data(const cc_capi_launch *l, Sanitizer_LaunchData *d)
{
    memset(d, 0, sizeof *d);
    d->context = l->context;
    d->stream = l->stream;
    d->function = l->function;
    d->functionName = l->name;
    d->gridDim_x = l->grid[0];
    d->gridDim_y = l->grid[1];
    d->gridDim_z = l->grid[2];
    d->blockDim_x = l->block[0];
    d->blockDim_y = l->block[1];
    d->blockDim_z = l->block[2];
    d->clusterDim_x = l->cluster[0];
    d->clusterDim_y = l->cluster[1];
    d->clusterDim_z = l->cluster[2];
    d->device = l->device;
    d->apiContext = l->context;
    d->apiStream = l->stream;
}

void cc_capi_on_launch(const cc_capi_launch *l)
{
    Sanitizer_LaunchData d;
    cc_capi_launch_data(l, &d);
    cc_agent_on_launch(SANITIZER_CBID_LAUNCH_BEGIN, &d);
}

void cc_capi_on_graph_launch(void *context, void *stream, void *exec)
{
    Sanitizer_GraphLaunchData d;
    memset(&d, 0, sizeof d);
    d.context = context;
    d.stream = stream;
    d.graphExec = exec;
    cc_agent_on_graphs(SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN, &d);
}

void cc_capi_on_graph_kernel(void *exec, void *node, const cc_capi_launch *l)
{
    Sanitizer_GraphNodeLaunchData d;
    memset(&d, 0, sizeof d);
    d.graphExec = exec;
    d.node = node;
    d.nodeType = CU_GRAPH_NODE_TYPE_KERNEL;
    cc_capi_launch_data(l, &d.launchData); /* apiStream: the graph launch's stream */
    cc_agent_on_graphs(SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN, &d);
}

void cc_capi_on_copy(const cc_capi_copy *c)
{
    static const Sanitizer_MemcpyDirection dirs[] = {
        [CC_CAPI_DIR_UNKNOWN] = SANITIZER_MEMCPY_DIRECTION_UNKNOWN,
        [CC_CAPI_H2H] = SANITIZER_MEMCPY_DIRECTION_HOST_TO_HOST,
        [CC_CAPI_H2D] = SANITIZER_MEMCPY_DIRECTION_HOST_TO_DEVICE,
        [CC_CAPI_D2H] = SANITIZER_MEMCPY_DIRECTION_DEVICE_TO_HOST,
        [CC_CAPI_D2D] = SANITIZER_MEMCPY_DIRECTION_DEVICE_TO_DEVICE,
    };
    Sanitizer_MemcpyData d;
    memset(&d, 0, sizeof d);
    d.srcContext = c->src_context;
    d.dstContext = c->dst_context;
    d.srcStream = c->stream;
    d.dstStream = c->stream;
    d.srcAddress = c->src;
    d.dstAddress = c->dst;
    d.size = c->size;
    d.width = c->width;
    d.height = c->height;
    d.depth = c->depth;
    d.srcPitch = c->src_pitch;
    d.dstPitch = c->dst_pitch;
    d.isAsync = c->is_async;
    d.direction = c->direction <= CC_CAPI_D2D ? dirs[c->direction]
                                              : SANITIZER_MEMCPY_DIRECTION_UNKNOWN;
    d.apiContext = c->api_context != NULL ? c->api_context : c->dst_context;
    d.apiStream = c->stream;
    cc_agent_on_memcpy(SANITIZER_CBID_MEMCPY_STARTING, &d);
}

void cc_capi_on_set(const cc_capi_set *s)
{
    Sanitizer_MemsetData d;
    memset(&d, 0, sizeof d);
    d.context = s->context;
    d.stream = s->stream;
    d.address = s->address;
    d.width = s->width;
    d.height = s->height;
    d.pitch = s->pitch;
    d.elementSize = s->element_size;
    d.value = s->value;
    d.isAsync = s->is_async;
    cc_agent_on_memset(SANITIZER_CBID_MEMSET_STARTING, &d);
}

static void cc_capi_mem_event(const cc_capi_mem *m, int alloc)
{
    if (m->address == 0) {
        return;
    }
    if (m->kind == CC_CAPI_MEM_VIRTUAL) {
        Sanitizer_ResourceVirtualRange r = {m->address, m->size};
        cc_agent_on_resource(alloc ? SANITIZER_CBID_RESOURCE_VIRTUAL_RESERVE
                                   : SANITIZER_CBID_RESOURCE_VIRTUAL_RELEASE, &r);
        return;
    }
    Sanitizer_ResourceMemoryData d;
    memset(&d, 0, sizeof d);
    d.address = m->address;
    d.size = m->size;
    d.context = m->context;
    d.device = m->device;
    d.stream = m->stream;
    Sanitizer_CallbackId cbid;
    switch (m->kind) {
    case CC_CAPI_MEM_MANAGED:
        d.flags = SANITIZER_MEMORY_FLAG_MANAGED;
        cbid = alloc ? SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC
                     : SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE;
        break;
    case CC_CAPI_MEM_HOST_PINNED:
    case CC_CAPI_MEM_HOST_MAPPED:
        d.flags = m->kind == CC_CAPI_MEM_HOST_MAPPED ? SANITIZER_MEMORY_FLAG_HOST_MAPPED : 0;
        cbid = alloc ? SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC
                     : SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE;
        break;
    case CC_CAPI_MEM_ASYNC:
        cbid = alloc ? SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC
                     : SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC;
        break;
    default:
        cbid = alloc ? SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC
                     : SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE;
        break;
    }
    cc_agent_on_resource(cbid, &d);
}

void cc_capi_on_alloc(const cc_capi_mem *m)
{
    cc_capi_mem_event(m, 1);
}

void cc_capi_on_free(const cc_capi_mem *m)
{
    cc_capi_mem_event(m, 0);
}

void cc_capi_on_context(int created, void *context, int device)
{
    Sanitizer_ResourceContextData d = {context, device};
    cc_agent_on_resource(created ? SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED
                                 : SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &d);
}

void cc_capi_on_stream(int created, void *context, void *stream)
{
    Sanitizer_ResourceStreamData d = {context, stream, NULL};
    cc_agent_on_resource(created ? SANITIZER_CBID_RESOURCE_STREAM_CREATED
                                 : SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING, &d);
}

void cc_capi_on_sync(void *context, void *stream, int whole_context)
{
    Sanitizer_SynchronizeData d = {context, stream, NULL};
    cc_agent_on_synchronize(whole_context ? SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED
                                          : SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED, &d);
}

void cc_capi_on_event(uint32_t what, void *context, void *event, void *stream)
{
    static const Sanitizer_CallbackId cbids[] = {
        [CC_CAPI_EV_CREATE] = SANITIZER_CBID_EVENTS_CREATED,
        [CC_CAPI_EV_DESTROY] = SANITIZER_CBID_EVENTS_DESTROYED,
        [CC_CAPI_EV_RECORD] = SANITIZER_CBID_EVENTS_RECORD,
        [CC_CAPI_EV_WAIT] = SANITIZER_CBID_EVENTS_STREAM_WAIT,
        [CC_CAPI_EV_SYNC] = SANITIZER_CBID_EVENTS_SYNCHRONIZE,
    };
    if (event == NULL || what > CC_CAPI_EV_SYNC) {
        return;
    }
    Sanitizer_EventData d;
    memset(&d, 0, sizeof d);
    d.event = event;
    d.context = context;
    d.stream = stream;
    cc_agent_on_events(cbids[what], &d);
}

void cc_capi_on_capture(int begin, void *context, void *stream, void *graph, uint32_t mode,
                        int result)
{
    cc_event ev;
    cc_agent_event_init(&ev, begin ? CC_EV_CAPTURE_BEGIN : CC_EV_CAPTURE_END);
    ev.u.capture.context = cc_agent_handle_id(context);
    ev.u.capture.stream = cc_agent_stream_id(stream, NULL);
    ev.u.capture.graph = cc_agent_handle_id(graph);
    ev.u.capture.mode = mode;
    ev.u.capture.result = result;
    cc_agent_emit(&ev);
}
