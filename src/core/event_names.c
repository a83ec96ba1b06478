/* Printable names of event kinds and of the enums inside events (memory kinds, copy directions,
 * graph node types, exit reasons, API kinds, sub-allocator operations and sources, race kinds,
 * synchronization misuse kinds, NCCL operations).
 * They are the keywords of the text scenario form, so they are part of a documented format
 * (docs/formats.md): append, never rename. */
#include <string.h>
#include "cucheck/event.h"
#include "core/event_names.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const kind_names[] = {
    [CC_EV_NONE] = NULL,
    [CC_EV_PROCESS_START] = "process_start",
    [CC_EV_PROCESS_EXIT] = "process_exit",
    [CC_EV_DEVICE] = "device",
    [CC_EV_CONTEXT_CREATE] = "context_create",
    [CC_EV_CONTEXT_DESTROY] = "context_destroy",
    [CC_EV_MODULE_LOAD] = "module_load",
    [CC_EV_MODULE_UNLOAD] = "module_unload",
    [CC_EV_FUNCTION] = "function",
    [CC_EV_ALLOC] = "alloc",
    [CC_EV_FREE] = "free",
    [CC_EV_STREAM_CREATE] = "stream_create",
    [CC_EV_STREAM_DESTROY] = "stream_destroy",
    [CC_EV_EVENT_CREATE] = "event_create",
    [CC_EV_EVENT_DESTROY] = "event_destroy",
    [CC_EV_EVENT_RECORD] = "event_record",
    [CC_EV_EVENT_WAIT] = "event_wait",
    [CC_EV_EVENT_SYNC] = "event_sync",
    [CC_EV_EVENT_QUERY] = "event_query",
    [CC_EV_STREAM_SYNC] = "stream_sync",
    [CC_EV_STREAM_QUERY] = "stream_query",
    [CC_EV_CONTEXT_SYNC] = "context_sync",
    [CC_EV_DEVICE_SYNC] = "device_sync",
    [CC_EV_LAUNCH] = "launch",
    [CC_EV_MEMCPY] = "memcpy",
    [CC_EV_MEMSET] = "memset",
    [CC_EV_GRAPH_LAUNCH] = "graph_launch",
    [CC_EV_GRAPH_NODE] = "graph_node",
    [CC_EV_HOST_FUNC] = "host_func",
    [CC_EV_API_ERROR] = "api_error",
    [CC_EV_HOST_STACK] = "host_stack",
    [CC_EV_ACCESS] = "access",
    [CC_EV_KERNEL_ACTIVITY] = "kernel_activity",
    [CC_EV_COPY_ACTIVITY] = "copy_activity",
    [CC_EV_API_CALL] = "api_call",
    [CC_EV_NVTX_RANGE] = "nvtx_range",
    [CC_EV_SYNC_ACTIVITY] = "sync_activity",
    [CC_EV_CLOCK_SYNC] = "clock_sync",
    [CC_EV_DEVICE_LIMITS] = "device_limits",
    [CC_EV_ACTIVITY_LOST] = "activity_lost",
    [CC_EV_CAPTURE_BEGIN] = "capture_begin",
    [CC_EV_CAPTURE_END] = "capture_end",
    [CC_EV_DEVICE_ACCESS_ERROR] = "device_access_error",
    [CC_EV_DEVICE_FAULT] = "device_fault",
    [CC_EV_LAUNCH_PROGRESS] = "launch_progress",
    [CC_EV_LAUNCH_CHECKED] = "launch_checked",
    [CC_EV_MODULE_VAR] = "module_var",
    [CC_EV_SUBALLOC] = "suballoc",
    [CC_EV_DEVICE_RACE] = "device_race",
    [CC_EV_DEVICE_SYNC_ERROR] = "device_sync_error",
    [CC_EV_DEVICE_UNINIT_READ] = "device_uninit_read",
    [CC_EV_INIT_WRITE] = "init_write",
    [CC_EV_COLLECTIVE] = "collective",
};
_Static_assert(COUNT_OF(kind_names) == CC_EV_KIND_COUNT, "name every event kind");

static const char *const mem_kind_names[] = {
    [CC_MEM_UNKNOWN] = "unknown",
    [CC_MEM_DEVICE] = "device",
    [CC_MEM_DEVICE_ASYNC] = "async",
    [CC_MEM_MANAGED] = "managed",
    [CC_MEM_HOST_PINNED] = "pinned",
    [CC_MEM_HOST_MAPPED] = "mapped",
    [CC_MEM_VIRTUAL_RESERVE] = "va_reserve",
    [CC_MEM_VIRTUAL_MAP] = "va_map",
    [CC_MEM_HOST_PAGEABLE] = "pageable",
    [CC_MEM_ARRAY] = "array",
    [CC_MEM_MODULE_GLOBAL] = "module_global",
};
_Static_assert(COUNT_OF(mem_kind_names) == CC_MEM_KIND_COUNT, "name every memory kind");

static const char *const library_names[] = {
    [CC_NVLIB_NONE] = "none",         [CC_NVLIB_CUDNN] = "cudnn",       [CC_NVLIB_CUBLAS] = "cublas",
    [CC_NVLIB_CUFFT] = "cufft",       [CC_NVLIB_CUSPARSE] = "cusparse", [CC_NVLIB_CUSOLVER] = "cusolver",
    [CC_NVLIB_CURAND] = "curand",     [CC_NVLIB_NCCL] = "nccl",
};
_Static_assert(COUNT_OF(library_names) == CC_NVLIB_COUNT, "name every library");

static const char *const library_titles[] = {
    [CC_NVLIB_NONE] = "the program",  [CC_NVLIB_CUDNN] = "cuDNN",       [CC_NVLIB_CUBLAS] = "cuBLAS",
    [CC_NVLIB_CUFFT] = "cuFFT",       [CC_NVLIB_CUSPARSE] = "cuSPARSE", [CC_NVLIB_CUSOLVER] = "cuSOLVER",
    [CC_NVLIB_CURAND] = "cuRAND",     [CC_NVLIB_NCCL] = "NCCL",
};
_Static_assert(COUNT_OF(library_titles) == CC_NVLIB_COUNT, "title every library");

static const char *const copy_dir_names[] = {
    [CC_COPY_UNKNOWN] = "unknown", [CC_COPY_H2H] = "h2h", [CC_COPY_H2D] = "h2d",
    [CC_COPY_D2H] = "d2h",         [CC_COPY_D2D] = "d2d", [CC_COPY_DEFAULT] = "default",
    [CC_COPY_PEER] = "peer",
};

static const char *const gnode_names[] = {
    [CC_GNODE_OTHER] = "other",
    [CC_GNODE_KERNEL] = "kernel",
    [CC_GNODE_MEMCPY] = "memcpy",
    [CC_GNODE_MEMSET] = "memset",
    [CC_GNODE_HOST] = "host",
    [CC_GNODE_EMPTY] = "empty",
    [CC_GNODE_EVENT_RECORD] = "event_record",
    [CC_GNODE_EVENT_WAIT] = "event_wait",
    [CC_GNODE_MEM_ALLOC] = "mem_alloc",
    [CC_GNODE_MEM_FREE] = "mem_free",
    [CC_GNODE_CHILD_GRAPH] = "child_graph",
};

static const char *const exit_names[] = {
    [CC_EXIT_NORMAL] = "normal", [CC_EXIT_FAST] = "fast",
    [CC_EXIT_SIGNAL] = "signal", [CC_EXIT_ABORT] = "abort",
};

static const char *const api_names[] = {
    [0] = "unknown", [CC_API_RUNTIME] = "runtime", [CC_API_DRIVER] = "driver",
};

static const char *const access_source_names[] = {
    [CC_ACCESS_SRC_UNKNOWN] = "unknown", [CC_ACCESS_SRC_INSTRUMENTED] = "instrumented",
    [CC_ACCESS_SRC_LEARNED] = "learned", [CC_ACCESS_SRC_INFERRED] = "inferred",
};

static const char *const suballoc_op_names[] = {
    [0] = "unknown",
    [CC_SUBALLOC_OP_HEAP_REGISTER] = "heap_register",
    [CC_SUBALLOC_OP_HEAP_UNREGISTER] = "heap_unregister",
    [CC_SUBALLOC_OP_HEAP_RESET] = "heap_reset",
    [CC_SUBALLOC_OP_REGION_REGISTER] = "region_register",
    [CC_SUBALLOC_OP_REGION_RESIZE] = "region_resize",
    [CC_SUBALLOC_OP_REGION_UNREGISTER] = "region_unregister",
};

static const char *const suballoc_source_names[] = {
    [0] = "unknown", [CC_SUBALLOC_SRC_NVTX] = "nvtx", [CC_SUBALLOC_SRC_TORCH] = "torch",
};

static const char *const race_kind_names[] = {
    [0] = "unknown", [CC_RACE_RAW] = "raw", [CC_RACE_WAR] = "war", [CC_RACE_WAW] = "waw",
};

static const char *const sync_kind_names[] = {
    [0] = "unknown", [CC_SYNC_WARP_DIVERGENT] = "warp_divergent",
    [CC_SYNC_BLOCK_DIVERGENT] = "block_divergent", [CC_SYNC_AFTER_EXIT] = "after_exit",
    [CC_SYNC_SYNCWARP_MASK] = "syncwarp_mask", [CC_SYNC_SHFL_MASK] = "shfl_mask",
};

static const char *const coll_op_names[] = {
    [0] = "unknown", [CC_COLL_ALLREDUCE] = "allreduce", [CC_COLL_BROADCAST] = "broadcast",
    [CC_COLL_BCAST] = "bcast", [CC_COLL_REDUCE] = "reduce", [CC_COLL_ALLGATHER] = "allgather",
    [CC_COLL_REDUCESCATTER] = "reducescatter", [CC_COLL_SEND] = "send", [CC_COLL_RECV] = "recv",
};
_Static_assert(COUNT_OF(coll_op_names) == CC_COLL_OP_COUNT, "name every NCCL operation");

static const char *name_of(const char *const *names, size_t n, uint32_t v)
{
    return v < n ? names[v] : NULL;
}

static int value_of(const char *const *names, size_t n, const char *name)
{
    if (!name) return -1;
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) return (int)i;
    return -1;
}

#define NAME_FUNCS(fname, fromname, table)                                                   \
    const char *fname(uint32_t v) { return name_of(table, COUNT_OF(table), v); }            \
    int fromname(const char *name) { return value_of(table, COUNT_OF(table), name); }

NAME_FUNCS(cc_event_kind_name, cc_event_kind_from_name, kind_names)
NAME_FUNCS(cc_mem_kind_name, cc_mem_kind_from_name, mem_kind_names)
NAME_FUNCS(cc_nvlib_name, cc_nvlib_from_name, library_names)

const char *cc_nvlib_title(uint32_t v)
{
    return name_of(library_titles, COUNT_OF(library_titles), v);
}

NAME_FUNCS(cc_copy_dir_name, cc_copy_dir_from_name, copy_dir_names)
NAME_FUNCS(cc_graph_node_type_name, cc_graph_node_type_from_name, gnode_names)
NAME_FUNCS(cc_exit_reason_name, cc_exit_reason_from_name, exit_names)
NAME_FUNCS(cc_api_kind_name, cc_api_kind_from_name, api_names)
NAME_FUNCS(cc_access_source_name, cc_access_source_from_name, access_source_names)
NAME_FUNCS(cc_suballoc_op_name, cc_suballoc_op_from_name, suballoc_op_names)
NAME_FUNCS(cc_suballoc_source_name, cc_suballoc_source_from_name, suballoc_source_names)
NAME_FUNCS(cc_race_kind_name, cc_race_kind_from_name, race_kind_names)
NAME_FUNCS(cc_sync_kind_name, cc_sync_kind_from_name, sync_kind_names)
NAME_FUNCS(cc_coll_op_name, cc_coll_op_from_name, coll_op_names)
