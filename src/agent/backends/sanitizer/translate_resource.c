/* RESOURCE domain callbacks to events: contexts, streams, modules (plus per-context patch
 * loading), lazily loaded functions, device/host/async memory (with the host stack of the
 * allocation) and virtual address ranges. */
#include "agent/core/agent.h"
#include "agent/host/host_library.h"
#include "agent/instr/instr.h"

/* The NVIDIA library whose code is making this call, for tools that ask (needs_library_owner). */
static uint32_t cc_library_owner(void)
{
    const cc_agent_plugin *p = cc_agent_plugin_g;
    return p != NULL && p->needs_library_owner ? cc_host_calling_library() : CC_NVLIB_NONE;
}

static uint32_t cc_mem_kind_of_device_alloc(uint32_t flags)
{
    if (flags & SANITIZER_MEMORY_FLAG_MODULE) {
        return CC_MEM_MODULE_GLOBAL;
    }
    if (flags & SANITIZER_MEMORY_FLAG_MANAGED) {
        return CC_MEM_MANAGED;
    }
    if (flags & SANITIZER_MEMORY_FLAG_HOST_MAPPED) {
        return CC_MEM_HOST_MAPPED;
    }
    if (flags & SANITIZER_MEMORY_FLAG_HOST_PINNED) {
        return CC_MEM_HOST_PINNED;
    }
    return CC_MEM_DEVICE;
}

static uint32_t cc_mem_kind_of_host_alloc(uint32_t flags)
{
    return (flags & SANITIZER_MEMORY_FLAG_HOST_MAPPED) ? CC_MEM_HOST_MAPPED : CC_MEM_HOST_PINNED;
}

static void cc_emit_alloc(const Sanitizer_ResourceMemoryData *d, uint32_t kind, int stream_ordered)
{
    cc_event ev;
    uint64_t callsite = cc_agent_callsite();
    cc_agent_event_init(&ev, CC_EV_ALLOC);
    ev.u.alloc.callsite = callsite;
    ev.u.alloc.context = cc_agent_handle_id(d->context);
    ev.u.alloc.device = (int32_t)d->device;
    ev.u.alloc.mem_kind = kind;
    ev.u.alloc.address = d->address;
    ev.u.alloc.size = d->size;
    if (stream_ordered) {
        ev.u.alloc.stream = cc_agent_stream_id(d->stream, d->hStream);
    }
    ev.u.alloc.pool = cc_agent_handle_id(d->memoryPool);
    if (kind == CC_MEM_DEVICE) {
        ev.u.alloc.library = cc_library_owner(); /* cudaMalloc: a library's private memory? */
    }
    cc_agent_emit(&ev);
}

static void cc_emit_free(const Sanitizer_ResourceMemoryData *d, uint32_t kind, int stream_ordered)
{
    cc_event ev;
    uint64_t callsite = cc_agent_callsite(); /* where it was freed: reports name the free */
    cc_agent_event_init(&ev, CC_EV_FREE);
    ev.u.free.callsite = callsite;
    ev.u.free.context = cc_agent_handle_id(d->context);
    ev.u.free.device = (int32_t)d->device;
    ev.u.free.mem_kind = kind;
    ev.u.free.address = d->address;
    ev.u.free.size = d->size;
    if (stream_ordered) {
        ev.u.free.stream = cc_agent_stream_id(d->stream, d->hStream);
    }
    cc_agent_emit(&ev);
}

static void cc_emit_virtual(const Sanitizer_ResourceVirtualRange *d, int reserve)
{
    cc_event ev;
    if (reserve) {
        cc_agent_event_init(&ev, CC_EV_ALLOC);
        ev.u.alloc.mem_kind = CC_MEM_VIRTUAL_RESERVE;
        ev.u.alloc.address = d->address;
        ev.u.alloc.size = d->size;
        ev.u.alloc.device = -1; /* an address range belongs to no device */
    } else {
        cc_agent_event_init(&ev, CC_EV_FREE);
        ev.u.free.mem_kind = CC_MEM_VIRTUAL_RESERVE;
        ev.u.free.address = d->address;
        ev.u.free.size = d->size;
        ev.u.free.device = -1;
    }
    cc_agent_emit(&ev);
}

static void cc_emit_context(const Sanitizer_ResourceContextData *d, cc_event_kind kind)
{
    cc_event ev;
    cc_agent_event_init(&ev, kind);
    ev.u.context.context = cc_agent_handle_id(d->context);
    ev.u.context.device = kind == CC_EV_CONTEXT_CREATE ? (int32_t)d->device : -1;
    cc_agent_emit(&ev);
}

static void cc_emit_stream(const Sanitizer_ResourceStreamData *d, cc_event_kind kind)
{
    cc_event ev;
    cc_agent_event_init(&ev, kind);
    ev.u.stream.context = cc_agent_handle_id(d->context);
    ev.u.stream.stream = cc_agent_stream_id(d->stream, d->hStream);
    /* Creation flags come from the API call that creates the stream (priority is not kept). */
    if (kind == CC_EV_STREAM_CREATE && (cc_agent_creating_stream_flags() & 0x1u)) {
        ev.u.stream.flags = CC_STREAM_FLAG_NON_BLOCKING;
    }
    if (kind == CC_EV_STREAM_CREATE) {
        ev.u.stream.library = cc_library_owner();
    }
    cc_agent_emit(&ev);
}

static void cc_emit_module(const Sanitizer_ResourceModuleData *d, cc_event_kind kind)
{
    cc_event ev;
    cc_agent_event_init(&ev, kind);
    ev.u.module.context = cc_agent_handle_id(d->context);
    ev.u.module.module = cc_agent_handle_id(d->module);
    ev.u.module.cubin_size = (uint64_t)d->cubinSize;
    ev.u.module.cubin_ref = ""; /* cubins are not saved yet */
    cc_agent_emit(&ev);
}

/* Lazy loading: the functions of a module are loaded on their first use. Names are not in the
 * callback data (launch events carry them). */
static void cc_emit_lazy_functions(const Sanitizer_ResourceFunctionsLazyLoadedData *d)
{
    for (uint32_t i = 0; d->functions != NULL && i < d->numFunctions; i++) {
        cc_event ev;
        cc_agent_event_init(&ev, CC_EV_FUNCTION);
        ev.u.function.module = cc_agent_handle_id(d->module);
        ev.u.function.function = cc_agent_handle_id(d->functions[i]);
        ev.u.function.name = "";
        cc_agent_emit(&ev);
    }
}

void cc_agent_on_resource(Sanitizer_CallbackId cbid, const void *data)
{
    cc_instr_on_resource(cbid, data); /* allocation table, module patching */
    CC_PLUGIN_CALL(on_resource, cbid, data);
    switch (cbid) {
    case SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED:
        cc_emit_context(data, CC_EV_CONTEXT_CREATE);
        break;
    case SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING: {
        const Sanitizer_ResourceContextData *d = data;
        cc_emit_context(d, CC_EV_CONTEXT_DESTROY);
        cc_agent_patches_on_context_destroy(d->context);
        break;
    }
    case SANITIZER_CBID_RESOURCE_STREAM_CREATED:
    case SANITIZER_CBID_RESOURCE_STREAM_DESTROY_STARTING: { /* the stream is still named here */
        const Sanitizer_ResourceStreamData *d = data;
        /* The driver's internal streams (created with the context) come without a CUstream;
         * they are not the program's and would read as the legacy default stream. */
        if (d->stream != NULL) {
            cc_emit_stream(d, cbid == SANITIZER_CBID_RESOURCE_STREAM_CREATED ? CC_EV_STREAM_CREATE
                                                                             : CC_EV_STREAM_DESTROY);
        }
        break;
    }
    case SANITIZER_CBID_RESOURCE_MODULE_LOADED: {
        const Sanitizer_ResourceModuleData *d = data;
        cc_emit_module(d, CC_EV_MODULE_LOAD);
        break;
    }
    case SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
        cc_emit_module(data, CC_EV_MODULE_UNLOAD);
        break;
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_ALLOC: {
        const Sanitizer_ResourceMemoryData *d = data;
        cc_emit_alloc(d, cc_mem_kind_of_device_alloc(d->flags), 0);
        break;
    }
    case SANITIZER_CBID_RESOURCE_DEVICE_MEMORY_FREE: {
        const Sanitizer_ResourceMemoryData *d = data;
        cc_emit_free(d, cc_mem_kind_of_device_alloc(d->flags), 0);
        break;
    }
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC: {
        const Sanitizer_ResourceMemoryData *d = data;
        cc_emit_alloc(d, cc_mem_kind_of_host_alloc(d->flags), 0);
        break;
    }
    case SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE: {
        const Sanitizer_ResourceMemoryData *d = data;
        cc_emit_free(d, cc_mem_kind_of_host_alloc(d->flags), 0);
        break;
    }
    case SANITIZER_CBID_RESOURCE_MEMORY_ALLOC_ASYNC:
        cc_emit_alloc(data, CC_MEM_DEVICE_ASYNC, 1);
        break;
    case SANITIZER_CBID_RESOURCE_MEMORY_FREE_ASYNC:
        /* FREE_ASYNC_DONE (a cudaMalloc block released after cudaFreeAsync) is not a second
         * free: only FREE_ASYNC, which carries the stream, becomes an event. */
        cc_emit_free(data, CC_MEM_DEVICE_ASYNC, 1);
        break;
    case SANITIZER_CBID_RESOURCE_FUNCTIONS_LAZY_LOADED:
        cc_emit_lazy_functions(data);
        break;
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RESERVE:
        cc_emit_virtual(data, 1);
        break;
    case SANITIZER_CBID_RESOURCE_VIRTUAL_RELEASE:
        cc_emit_virtual(data, 0);
        break;
    default:
        break;
    }
}
