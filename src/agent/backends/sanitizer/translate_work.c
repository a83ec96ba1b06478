/* Work submitted to streams, to events: kernel launches (LAUNCH domain), copies (MEMCPY), memsets
 * (MEMSET) and the nodes of executable graphs (GRAPHS), which become the same launch/memcpy/
 * memset events with their graph fields set. Every kernel launch gets the next launch id. */
#include "agent/core/agent.h"
#include "agent/instr/instr.h"
#include "agent/core/self_time.h"

static uint32_t cc_copy_dir_of(Sanitizer_MemcpyDirection dir)
{
    switch (dir) {
    case SANITIZER_MEMCPY_DIRECTION_HOST_TO_HOST: return CC_COPY_H2H;
    case SANITIZER_MEMCPY_DIRECTION_HOST_TO_DEVICE: return CC_COPY_H2D;
    case SANITIZER_MEMCPY_DIRECTION_DEVICE_TO_HOST: return CC_COPY_D2H;
    case SANITIZER_MEMCPY_DIRECTION_DEVICE_TO_DEVICE: return CC_COPY_D2D;
    default: return CC_COPY_UNKNOWN;
    }
}

void cc_agent_fill_launch(cc_event *ev, const Sanitizer_LaunchData *d)
{
    cc_ev_launch *l = &ev->u.launch;
    l->context = cc_agent_handle_id(d->context);
    l->device = (int32_t)d->device;
    l->module = cc_agent_handle_id(d->module);
    l->function = cc_agent_handle_id(d->function);
    l->name = cc_agent_kernel_name(d->function, d->functionName);
    l->grid[0] = d->gridDim_x;
    l->grid[1] = d->gridDim_y;
    l->grid[2] = d->gridDim_z;
    l->block[0] = d->blockDim_x;
    l->block[1] = d->blockDim_y;
    l->block[2] = d->blockDim_z;
    l->cluster[0] = d->clusterDim_x;
    l->cluster[1] = d->clusterDim_y;
    l->cluster[2] = d->clusterDim_z;
    l->stream = cc_agent_stream_id(d->stream, d->hStream);
    l->launch_id = atomic_fetch_add(&cc_agent_g.next_launch_id, 1);
    l->grid_id = d->gridId; /* names the grid in a GPU core dump */
    /* Dynamic shared memory size and the cooperative flag are not in the launch data. */
}

void cc_agent_fill_memcpy(cc_event *ev, const Sanitizer_MemcpyData *d)
{
    cc_ev_memcpy *m = &ev->u.memcpy;
    m->direction = cc_copy_dir_of(d->direction);
    m->flags = d->isAsync ? CC_COPY_FLAG_ASYNC : 0;
    m->src = d->srcAddress;
    m->dst = d->dstAddress;
    m->size = d->size;
    m->width = d->width;
    m->height = d->height;
    m->depth = d->depth;
    m->src_pitch = d->srcPitch;
    m->dst_pitch = d->dstPitch;
    /* Both ends run on one stream except for copies between two contexts (peer copies); the
     * source side's is taken, with the context it belongs to (the engine keys streams by
     * context and handle); with neither (the legacy stream) the context of the API call. */
    CUcontext ctx = d->dstContext != NULL ? d->dstContext : d->srcContext;
    if (d->srcStream != NULL || d->hSrcStream != NULL) {
        m->stream = cc_agent_stream_id(d->srcStream, d->hSrcStream);
        ctx = d->srcContext != NULL ? d->srcContext : ctx;
    } else if (d->dstStream != NULL || d->hDstStream != NULL) {
        m->stream = cc_agent_stream_id(d->dstStream, d->hDstStream);
    } else {
        m->stream = CC_STREAM_LEGACY;
        ctx = d->apiContext != NULL ? d->apiContext : ctx;
    }
    m->context = cc_agent_handle_id(ctx);
    /* Memory kinds are left to the allocation map of the tools (CC_MEM_UNKNOWN here). */
}

/* A copy of the synchronous cudaMemcpyPeer (cuMemcpyPeer, 3D forms): CUDA serializes it with
 * all work of the current, source and destination devices. On the legacy stream it runs in the
 * current device's: the event names the calling context (the engine finds the source and
 * destination devices by address). */
static void cc_agent_mark_peer_copy(cc_event *ev, const Sanitizer_MemcpyData *d)
{
    ev->u.memcpy.flags |= CC_COPY_FLAG_PEER_SYNC;
    if (ev->u.memcpy.stream == CC_STREAM_LEGACY && d->apiContext != NULL) {
        ev->u.memcpy.context = cc_agent_handle_id(d->apiContext);
    }
}

void cc_agent_fill_memset(cc_event *ev, const Sanitizer_MemsetData *d)
{
    cc_ev_memset *m = &ev->u.memset;
    uint64_t element = d->elementSize != 0 ? d->elementSize : 1;
    uint64_t rows = d->height != 0 ? d->height : 1;
    m->context = cc_agent_handle_id(d->context);
    m->flags = d->isAsync ? CC_COPY_FLAG_ASYNC : 0;
    m->element_size = (uint32_t)element;
    m->value = d->value;
    m->dst = d->address;
    /* The driver's memset width counts elements (cuMemsetD8/16/32, cuMemsetD2D*). */
    m->size = d->width * element * rows;
    if (d->height > 1) {
        m->width = d->width * element;
        m->height = d->height;
        m->pitch = d->pitch;
    }
    m->stream = cc_agent_stream_id(d->stream, d->hStream);
}

void cc_agent_on_launch(Sanitizer_CallbackId cbid, const void *data)
{
    cc_instr_on_launch_end(cbid, data); /* memcheck: drain a checked launch at LAUNCH_END */
    if (cbid != SANITIZER_CBID_LAUNCH_BEGIN) {
        return;
    }
    cc_event ev;
    uint64_t callsite = cc_agent_callsite(); /* may emit the stack's definition first */
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    cc_agent_event_init(&ev, CC_EV_LAUNCH);
    cc_agent_fill_launch(&ev, data);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_LAUNCH_FILL, t0);
    }
    ev.u.launch.callsite = callsite;
    cc_instr_on_launch_begin(data, &ev); /* instrumented? (the tool's client decides) */
    CC_PLUGIN_CALL(on_launch, data, &ev, 0);
    cc_agent_emit(&ev);
    CC_PLUGIN_CALL(after_launch, data, &ev);
}

void cc_agent_on_memcpy(Sanitizer_CallbackId cbid, const void *data)
{
    if (cbid != SANITIZER_CBID_MEMCPY_STARTING) {
        return;
    }
    cc_event ev;
    uint64_t callsite = cc_agent_callsite();
    cc_agent_event_init(&ev, CC_EV_MEMCPY);
    cc_agent_fill_memcpy(&ev, data);
    ev.u.memcpy.callsite = callsite;
    if (cc_agent_in_peer_copy()) {
        cc_agent_mark_peer_copy(&ev, data);
    }
    cc_agent_emit(&ev);
}

void cc_agent_on_memset(Sanitizer_CallbackId cbid, const void *data)
{
    if (cbid != SANITIZER_CBID_MEMSET_STARTING) {
        return;
    }
    cc_event ev;
    uint64_t callsite = cc_agent_callsite();
    cc_agent_event_init(&ev, CC_EV_MEMSET);
    cc_agent_fill_memset(&ev, data);
    ev.u.memset.callsite = callsite;
    cc_agent_emit(&ev);
}

/* The host stack of this thread's latest graph launch: its nodes' callbacks come from the same
 * cudaGraphLaunch call, so they share its stack instead of unwinding once per node. */
static _Thread_local CUgraphExec cc_graph_exec_last;
static _Thread_local uint64_t cc_graph_callsite_last;

/* One node of a graph launch. Nodes run on streams of the driver's choosing; the events carry the
 * stream the graph was launched on (the one the program ordered it against). A kernel node's
 * launch event is followed by what the tool's plug-in adds (after_graph_node). */
static void cc_on_graph_node(const Sanitizer_GraphNodeLaunchData *d)
{
    if (d->isGraphUpload) {
        return; /* cudaGraphUpload prepares the graph; nothing runs */
    }
    cc_event ev;
    uint64_t callsite = d->graphExec == cc_graph_exec_last && cc_graph_callsite_last != 0
                            ? cc_graph_callsite_last
                            : cc_agent_callsite(); /* the cudaGraphLaunch call */
    uint64_t exec = cc_agent_handle_id(d->graphExec);
    uint64_t node = cc_agent_handle_id(d->node);
    switch (d->nodeType) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        const Sanitizer_LaunchData *l = &d->launchData;
        cc_instr_on_graph_kernel_node(l);
        cc_agent_event_init(&ev, CC_EV_LAUNCH);
        cc_agent_fill_launch(&ev, l);
        ev.u.launch.flags |= CC_LAUNCH_FLAG_GRAPH_NODE;
        ev.u.launch.graph_exec = exec;
        ev.u.launch.graph_node = node;
        ev.u.launch.callsite = callsite;
        if (l->apiStream != NULL || l->hApiStream != NULL) {
            ev.u.launch.stream = cc_agent_stream_id(l->apiStream, l->hApiStream);
        }
        CC_PLUGIN_CALL(on_launch, l, &ev, 1);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: {
        const Sanitizer_MemcpyData *m = &d->memcpyData;
        cc_agent_event_init(&ev, CC_EV_MEMCPY);
        cc_agent_fill_memcpy(&ev, m);
        ev.u.memcpy.flags |= CC_COPY_FLAG_GRAPH_NODE | CC_COPY_FLAG_ASYNC;
        ev.u.memcpy.graph_exec = exec;
        ev.u.memcpy.graph_node = node;
        if (m->apiStream != NULL || m->hApiStream != NULL) {
            ev.u.memcpy.stream = cc_agent_stream_id(m->apiStream, m->hApiStream);
        }
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEMSET:
        cc_agent_event_init(&ev, CC_EV_MEMSET);
        cc_agent_fill_memset(&ev, &d->memsetData);
        ev.u.memset.flags |= CC_COPY_FLAG_GRAPH_NODE | CC_COPY_FLAG_ASYNC;
        ev.u.memset.graph_exec = exec;
        ev.u.memset.graph_node = node;
        break;
    default:
        return; /* other node types: not translated yet */
    }
    cc_agent_emit(&ev);
    if (d->nodeType == CU_GRAPH_NODE_TYPE_KERNEL) {
        CC_PLUGIN_CALL(after_graph_node, d, &ev);
    }
}

static void cc_on_graph_launch(const Sanitizer_GraphLaunchData *d)
{
    if (d->isGraphUpload) {
        return;
    }
    cc_event ev;
    uint64_t callsite = cc_agent_callsite();
    cc_graph_exec_last = d->graphExec;
    cc_graph_callsite_last = callsite;
    cc_agent_event_init(&ev, CC_EV_GRAPH_LAUNCH);
    ev.u.graph_launch.callsite = callsite;
    ev.u.graph_launch.context = cc_agent_handle_id(d->context);
    ev.u.graph_launch.graph_exec = cc_agent_handle_id(d->graphExec);
    ev.u.graph_launch.stream = cc_agent_stream_id(d->stream, d->hStream);
    ev.u.graph_launch.launch_id = atomic_fetch_add(&cc_agent_g.next_launch_id, 1);
    cc_agent_emit(&ev);
}

void cc_agent_on_graphs(Sanitizer_CallbackId cbid, const void *data)
{
    switch (cbid) {
    case SANITIZER_CBID_GRAPHS_LAUNCH_BEGIN:
        cc_on_graph_launch(data);
        break;
    case SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN:
        cc_on_graph_node(data);
        break;
    default:
        break;
    }
}
