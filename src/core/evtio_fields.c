/* The field tables of every event kind: name, type and place of each field of its struct, in
 * the order the binary .cuevt payload stores them. The binary codec, the scenario parser and
 * the scenario writer all walk these tables, so the two forms cannot drift apart. Append new
 * fields at the end of a table only (readers ignore trailing payload bytes they do not know). */
#include <stddef.h>
#include "core/evtio_internal.h"
#include "core/event_names.h"

#define OFF(m) offsetof(cc_event, u.m)
#define F(k, t, m) { k, t, OFF(m), 0, NULL, NULL, 0 }
#define E(k, m, nm, fn) { k, CC_FT_ENUM, OFF(m), 0, nm, fn, 0 }
/* A numeric (or enum) field appended to an existing kind (older payloads end before it: read
 * as 0). */
#define FA(k, t, m) { k, t, OFF(m), 0, NULL, NULL, 1 }
#define EA(k, m, nm, fn) { k, CC_FT_ENUM, OFF(m), 0, nm, fn, 1 }
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const cc_evt_field process_start[] = {
    F("pid", CC_FT_U32, process_start.pid),
    F("ppid", CC_FT_U32, process_start.ppid),
    F("argv0", CC_FT_STR, process_start.argv0),
    F("tool", CC_FT_STR, process_start.tool),
    F("version", CC_FT_STR, process_start.version),
};

static const cc_evt_field process_exit[] = {
    E("reason", process_exit.reason, cc_exit_reason_name, cc_exit_reason_from_name),
    F("code", CC_FT_I32, process_exit.code),
};

static const cc_evt_field device[] = {
    F("ordinal", CC_FT_I32, device.ordinal),
    F("cc_major", CC_FT_U32, device.cc_major),
    F("cc_minor", CC_FT_U32, device.cc_minor),
    F("sm_count", CC_FT_U32, device.sm_count),
    F("total_mem", CC_FT_U64, device.total_mem),
    F("name", CC_FT_STR, device.name),
};

static const cc_evt_field context[] = {
    F("context", CC_FT_HANDLE, context.context),
    F("device", CC_FT_I32, context.device),
};

static const cc_evt_field module[] = {
    F("context", CC_FT_HANDLE, module.context),
    F("module", CC_FT_HANDLE, module.module),
    F("cubin_size", CC_FT_U64, module.cubin_size),
    F("cubin_ref", CC_FT_STR, module.cubin_ref),
};

static const cc_evt_field function[] = {
    F("module", CC_FT_HANDLE, function.module),
    F("function", CC_FT_HANDLE, function.function),
    F("pc", CC_FT_ADDR, function.pc),
    F("size", CC_FT_U64, function.size),
    F("name", CC_FT_STR, function.name),
};

static const cc_evt_field alloc[] = {
    F("context", CC_FT_HANDLE, alloc.context),
    F("device", CC_FT_I32, alloc.device),
    E("mem_kind", alloc.mem_kind, cc_mem_kind_name, cc_mem_kind_from_name),
    F("address", CC_FT_ADDR, alloc.address),
    F("size", CC_FT_U64, alloc.size),
    F("stream", CC_FT_STREAM, alloc.stream),
    F("pool", CC_FT_HANDLE, alloc.pool),
    F("callsite", CC_FT_HANDLE, alloc.callsite),
    EA("library", alloc.library, cc_nvlib_name, cc_nvlib_from_name),
};

static const cc_evt_field free_[] = {
    F("context", CC_FT_HANDLE, free.context),
    F("device", CC_FT_I32, free.device),
    E("mem_kind", free.mem_kind, cc_mem_kind_name, cc_mem_kind_from_name),
    F("address", CC_FT_ADDR, free.address),
    F("size", CC_FT_U64, free.size),
    F("stream", CC_FT_STREAM, free.stream),
    F("callsite", CC_FT_HANDLE, free.callsite),
};

static const cc_evt_field stream[] = {
    F("context", CC_FT_HANDLE, stream.context),
    F("stream", CC_FT_STREAM, stream.stream),
    F("flags", CC_FT_HEX32, stream.flags),
    F("priority", CC_FT_I32, stream.priority),
    EA("library", stream.library, cc_nvlib_name, cc_nvlib_from_name),
};

static const cc_evt_field event[] = {
    F("context", CC_FT_HANDLE, event.context),
    F("event", CC_FT_HANDLE, event.event),
    F("stream", CC_FT_STREAM, event.stream),
    F("flags", CC_FT_HEX32, event.flags),
    F("result", CC_FT_I32, event.result),
};

static const cc_evt_field sync[] = {
    F("context", CC_FT_HANDLE, sync.context),
    F("device", CC_FT_I32, sync.device),
    F("result", CC_FT_I32, sync.result),
    F("stream", CC_FT_STREAM, sync.stream),
};

static const cc_evt_field launch[] = {
    F("context", CC_FT_HANDLE, launch.context),
    F("device", CC_FT_I32, launch.device),
    F("flags", CC_FT_HEX32, launch.flags),
    F("module", CC_FT_HANDLE, launch.module),
    F("function", CC_FT_HANDLE, launch.function),
    F("name", CC_FT_STR, launch.name),
    F("grid", CC_FT_DIM3, launch.grid),
    F("block", CC_FT_DIM3, launch.block),
    F("cluster", CC_FT_DIM3, launch.cluster),
    F("dynamic_smem", CC_FT_U32, launch.dynamic_smem),
    F("stream", CC_FT_STREAM, launch.stream),
    F("launch_id", CC_FT_U64, launch.launch_id),
    F("callsite", CC_FT_HANDLE, launch.callsite),
    F("graph_exec", CC_FT_HANDLE, launch.graph_exec),
    F("graph_node", CC_FT_HANDLE, launch.graph_node),
    FA("grid_id", CC_FT_U64, launch.grid_id),
};

static const cc_evt_field memcpy_[] = {
    F("context", CC_FT_HANDLE, memcpy.context),
    E("direction", memcpy.direction, cc_copy_dir_name, cc_copy_dir_from_name),
    F("flags", CC_FT_HEX32, memcpy.flags),
    E("src_kind", memcpy.src_kind, cc_mem_kind_name, cc_mem_kind_from_name),
    E("dst_kind", memcpy.dst_kind, cc_mem_kind_name, cc_mem_kind_from_name),
    F("src", CC_FT_ADDR, memcpy.src),
    F("dst", CC_FT_ADDR, memcpy.dst),
    F("size", CC_FT_U64, memcpy.size),
    F("width", CC_FT_U64, memcpy.width),
    F("height", CC_FT_U64, memcpy.height),
    F("depth", CC_FT_U64, memcpy.depth),
    F("src_pitch", CC_FT_U64, memcpy.src_pitch),
    F("dst_pitch", CC_FT_U64, memcpy.dst_pitch),
    F("stream", CC_FT_STREAM, memcpy.stream),
    F("callsite", CC_FT_HANDLE, memcpy.callsite),
    F("graph_exec", CC_FT_HANDLE, memcpy.graph_exec),
    F("graph_node", CC_FT_HANDLE, memcpy.graph_node),
};

static const cc_evt_field memset_[] = {
    F("context", CC_FT_HANDLE, memset.context),
    F("flags", CC_FT_HEX32, memset.flags),
    F("element_size", CC_FT_U32, memset.element_size),
    F("value", CC_FT_HEX32, memset.value),
    E("mem_kind", memset.mem_kind, cc_mem_kind_name, cc_mem_kind_from_name),
    F("dst", CC_FT_ADDR, memset.dst),
    F("size", CC_FT_U64, memset.size),
    F("width", CC_FT_U64, memset.width),
    F("height", CC_FT_U64, memset.height),
    F("pitch", CC_FT_U64, memset.pitch),
    F("stream", CC_FT_STREAM, memset.stream),
    F("callsite", CC_FT_HANDLE, memset.callsite),
    F("graph_exec", CC_FT_HANDLE, memset.graph_exec),
    F("graph_node", CC_FT_HANDLE, memset.graph_node),
};

static const cc_evt_field graph_launch[] = {
    F("context", CC_FT_HANDLE, graph_launch.context),
    F("graph_exec", CC_FT_HANDLE, graph_launch.graph_exec),
    F("stream", CC_FT_STREAM, graph_launch.stream),
    F("launch_id", CC_FT_U64, graph_launch.launch_id),
    F("callsite", CC_FT_HANDLE, graph_launch.callsite),
};

static const cc_evt_field graph_node[] = {
    F("graph_exec", CC_FT_HANDLE, graph_node.graph_exec),
    F("node", CC_FT_HANDLE, graph_node.node),
    E("type", graph_node.type, cc_graph_node_type_name, cc_graph_node_type_from_name),
    { "deps", CC_FT_DEPS, OFF(graph_node.deps), OFF(graph_node.ndeps), NULL, NULL, 0 },
};

static const cc_evt_field host_func[] = {
    F("context", CC_FT_HANDLE, host_func.context),
    F("stream", CC_FT_STREAM, host_func.stream),
    F("fn", CC_FT_ADDR, host_func.fn),
    F("userdata", CC_FT_ADDR, host_func.userdata),
    F("callsite", CC_FT_HANDLE, host_func.callsite),
};

static const cc_evt_field api_error[] = {
    E("api", api_error.api, cc_api_kind_name, cc_api_kind_from_name),
    F("code", CC_FT_I32, api_error.code),
    F("function", CC_FT_STR, api_error.function),
    F("error_name", CC_FT_STR, api_error.error_name),
    F("error_string", CC_FT_STR, api_error.error_string),
    F("callsite", CC_FT_HANDLE, api_error.callsite),
};

static const cc_evt_field host_stack[] = {
    F("id", CC_FT_HANDLE, host_stack.id),
    { "frames", CC_FT_FRAMES, OFF(host_stack.frames), OFF(host_stack.nframes), NULL, NULL, 0 },
};

static const cc_evt_field kernel_activity[] = {
    F("start", CC_FT_U64, kernel_activity.start),
    F("end", CC_FT_U64, kernel_activity.end),
    F("device", CC_FT_I32, kernel_activity.device),
    F("registers", CC_FT_U32, kernel_activity.registers),
    F("context", CC_FT_HANDLE, kernel_activity.context),
    F("stream", CC_FT_STREAM, kernel_activity.stream),
    F("correlation", CC_FT_U64, kernel_activity.correlation),
    F("name", CC_FT_STR, kernel_activity.name),
    F("grid", CC_FT_DIM3, kernel_activity.grid),
    F("block", CC_FT_DIM3, kernel_activity.block),
    F("cluster", CC_FT_DIM3, kernel_activity.cluster),
    F("static_smem", CC_FT_U32, kernel_activity.static_smem),
    F("dynamic_smem", CC_FT_U32, kernel_activity.dynamic_smem),
    F("local_mem", CC_FT_U32, kernel_activity.local_mem),
    F("smem_config", CC_FT_U32, kernel_activity.smem_config),
    F("graph", CC_FT_HANDLE, kernel_activity.graph),
    F("graph_node", CC_FT_HANDLE, kernel_activity.graph_node),
};

static const cc_evt_field copy_activity[] = {
    F("start", CC_FT_U64, copy_activity.start),
    F("end", CC_FT_U64, copy_activity.end),
    F("device", CC_FT_I32, copy_activity.device),
    F("op", CC_FT_U32, copy_activity.op),
    E("direction", copy_activity.direction, cc_copy_dir_name, cc_copy_dir_from_name),
    E("src_kind", copy_activity.src_kind, cc_mem_kind_name, cc_mem_kind_from_name),
    E("dst_kind", copy_activity.dst_kind, cc_mem_kind_name, cc_mem_kind_from_name),
    F("value", CC_FT_HEX32, copy_activity.value),
    F("bytes", CC_FT_U64, copy_activity.bytes),
    F("context", CC_FT_HANDLE, copy_activity.context),
    F("stream", CC_FT_STREAM, copy_activity.stream),
    F("correlation", CC_FT_U64, copy_activity.correlation),
    F("graph", CC_FT_HANDLE, copy_activity.graph),
    F("graph_node", CC_FT_HANDLE, copy_activity.graph_node),
};

static const cc_evt_field api_call[] = {
    F("start", CC_FT_U64, api_call.start),
    F("end", CC_FT_U64, api_call.end),
    E("api", api_call.api, cc_api_kind_name, cc_api_kind_from_name),
    F("cbid", CC_FT_U32, api_call.cbid),
    F("function", CC_FT_STR, api_call.function),
    F("correlation", CC_FT_U64, api_call.correlation),
    F("result", CC_FT_I32, api_call.result),
};

static const cc_evt_field nvtx_range[] = {
    F("start", CC_FT_U64, nvtx_range.start),
    F("end", CC_FT_U64, nvtx_range.end),
    F("id", CC_FT_U64, nvtx_range.id),
    F("end_tid", CC_FT_U32, nvtx_range.end_tid),
    F("domain", CC_FT_STR, nvtx_range.domain),
    F("name", CC_FT_STR, nvtx_range.name),
};

static const cc_evt_field sync_activity[] = {
    F("start", CC_FT_U64, sync_activity.start),
    F("end", CC_FT_U64, sync_activity.end),
    F("type", CC_FT_U32, sync_activity.type),
    F("result", CC_FT_I32, sync_activity.result),
    F("context", CC_FT_HANDLE, sync_activity.context),
    F("stream", CC_FT_STREAM, sync_activity.stream),
    F("event", CC_FT_HANDLE, sync_activity.event),
    F("correlation", CC_FT_U64, sync_activity.correlation),
};

static const cc_evt_field clock_sync[] = {
    F("wall_ns", CC_FT_U64, clock_sync.wall_ns),
    F("mono_ns", CC_FT_U64, clock_sync.mono_ns),
    F("rank", CC_FT_I32, clock_sync.rank),
    F("host", CC_FT_STR, clock_sync.host),
};

static const cc_evt_field device_limits[] = {
    F("ordinal", CC_FT_I32, device_limits.ordinal),
    F("cc_major", CC_FT_U32, device_limits.cc_major),
    F("cc_minor", CC_FT_U32, device_limits.cc_minor),
    F("sm_count", CC_FT_U32, device_limits.sm_count),
    F("warp_size", CC_FT_U32, device_limits.warp_size),
    F("max_threads_per_block", CC_FT_U32, device_limits.max_threads_per_block),
    F("max_warps_per_sm", CC_FT_U32, device_limits.max_warps_per_sm),
    F("max_blocks_per_sm", CC_FT_U32, device_limits.max_blocks_per_sm),
    F("regs_per_block", CC_FT_U32, device_limits.regs_per_block),
    F("regs_per_sm", CC_FT_U32, device_limits.regs_per_sm),
    F("smem_per_block", CC_FT_U32, device_limits.smem_per_block),
    F("smem_per_sm", CC_FT_U32, device_limits.smem_per_sm),
    F("name", CC_FT_STR, device_limits.name),
};

static const cc_evt_field activity_lost[] = {
    F("context", CC_FT_HANDLE, activity_lost.context),
    F("dropped", CC_FT_U64, activity_lost.dropped),
    F("reason", CC_FT_STR, activity_lost.reason),
};

static const cc_evt_field access[] = {
    F("launch_id", CC_FT_U64, access.launch_id),
    F("address", CC_FT_ADDR, access.address),
    F("size", CC_FT_U64, access.size),
    F("flags", CC_FT_HEX32, access.flags),
    E("source", access.source, cc_access_source_name, cc_access_source_from_name),
};

static const cc_evt_field capture[] = {
    F("context", CC_FT_HANDLE, capture.context),
    F("stream", CC_FT_STREAM, capture.stream),
    F("graph", CC_FT_HANDLE, capture.graph),
    F("mode", CC_FT_U32, capture.mode),
    F("result", CC_FT_I32, capture.result),
};

static const cc_evt_field device_access_error[] = {
    F("launch_id", CC_FT_U64, device_access_error.launch_id),
    F("kernel", CC_FT_STR, device_access_error.kernel),
    F("pc", CC_FT_ADDR, device_access_error.pc),
    F("file", CC_FT_STR, device_access_error.file),
    F("line", CC_FT_U32, device_access_error.line),
    F("block", CC_FT_DIM3, device_access_error.block),
    F("thread", CC_FT_DIM3, device_access_error.thread),
    F("address", CC_FT_ADDR, device_access_error.address),
    F("size", CC_FT_U32, device_access_error.size),
    F("flags", CC_FT_HEX32, device_access_error.flags),
    F("space", CC_FT_U32, device_access_error.space),
    F("violation", CC_FT_U32, device_access_error.violation),
    F("count", CC_FT_U64, device_access_error.count),
};

static const cc_evt_field device_fault[] = {
    F("grid_id", CC_FT_U64, device_fault.grid_id),
    F("device", CC_FT_I32, device_fault.device),
    F("exception", CC_FT_U32, device_fault.exception),
    F("exception_name", CC_FT_STR, device_fault.exception_name),
    F("kernel", CC_FT_STR, device_fault.kernel),
    F("pc", CC_FT_ADDR, device_fault.pc),
    F("pc_offset", CC_FT_ADDR, device_fault.pc_offset),
    F("file", CC_FT_STR, device_fault.file),
    F("line", CC_FT_U32, device_fault.line),
    F("block", CC_FT_DIM3, device_fault.block),
    F("thread", CC_FT_DIM3, device_fault.thread),
    F("grid", CC_FT_DIM3, device_fault.grid),
    F("block_dim", CC_FT_DIM3, device_fault.block_dim),
    F("sm", CC_FT_U32, device_fault.sm),
    F("warp", CC_FT_U32, device_fault.warp),
    F("lane", CC_FT_U32, device_fault.lane),
    F("host_tid", CC_FT_U32, device_fault.host_tid),
    F("faulting_lanes", CC_FT_U32, device_fault.faulting_lanes),
    F("dump", CC_FT_STR, device_fault.dump),
};

static const cc_evt_field launch_progress[] = {
    F("launch_id", CC_FT_U64, launch_progress.launch_id),
    F("finished", CC_FT_U32, launch_progress.finished),
    F("covered_from", CC_FT_U64, launch_progress.covered_from),
    F("started", CC_FT_U32, launch_progress.started),
};

static const cc_evt_field launch_checked[] = {
    F("launch_id", CC_FT_U64, launch_checked.launch_id),
    F("errors", CC_FT_U32, launch_checked.errors),
    F("result", CC_FT_U32, launch_checked.result),
    F("last_id", CC_FT_U64, launch_checked.last_id),
};

static const cc_evt_field module_var[] = {
    F("context", CC_FT_HANDLE, module_var.context),
    F("module", CC_FT_HANDLE, module_var.module),
    F("address", CC_FT_ADDR, module_var.address),
    F("size", CC_FT_U64, module_var.size),
    F("flags", CC_FT_HEX32, module_var.flags),
    F("name", CC_FT_STR, module_var.name),
};

static const cc_evt_field suballoc[] = {
    E("op", suballoc.op, cc_suballoc_op_name, cc_suballoc_op_from_name),
    E("source", suballoc.source, cc_suballoc_source_name, cc_suballoc_source_from_name),
    F("heap", CC_FT_HANDLE, suballoc.heap),
    F("address", CC_FT_ADDR, suballoc.address),
    F("size", CC_FT_U64, suballoc.size),
    F("callsite", CC_FT_HANDLE, suballoc.callsite),
};

/* The two sides of a race are nested structs: keys first_* and second_*. */
#define RACE_SIDE(pre, m) \
    F(pre "_pc", CC_FT_ADDR, device_race.m.pc), \
    F(pre "_file", CC_FT_STR, device_race.m.file), \
    F(pre "_line", CC_FT_U32, device_race.m.line), \
    F(pre "_block", CC_FT_DIM3, device_race.m.block), \
    F(pre "_thread", CC_FT_DIM3, device_race.m.thread), \
    F(pre "_size", CC_FT_U32, device_race.m.size), \
    F(pre "_flags", CC_FT_HEX32, device_race.m.flags)

static const cc_evt_field device_race[] = {
    F("launch_id", CC_FT_U64, device_race.launch_id),
    F("kernel", CC_FT_STR, device_race.kernel),
    F("space", CC_FT_U32, device_race.space),
    E("kind", device_race.kind, cc_race_kind_name, cc_race_kind_from_name),
    F("flags", CC_FT_HEX32, device_race.flags),
    F("address", CC_FT_ADDR, device_race.address),
    RACE_SIDE("first", first),
    RACE_SIDE("second", second),
    F("count", CC_FT_U64, device_race.count),
};

static const cc_evt_field device_sync_error[] = {
    F("launch_id", CC_FT_U64, device_sync_error.launch_id),
    F("kernel", CC_FT_STR, device_sync_error.kernel),
    E("kind", device_sync_error.kind, cc_sync_kind_name, cc_sync_kind_from_name),
    F("flags", CC_FT_HEX32, device_sync_error.flags),
    F("pc", CC_FT_ADDR, device_sync_error.pc),
    F("file", CC_FT_STR, device_sync_error.file),
    F("line", CC_FT_U32, device_sync_error.line),
    F("block", CC_FT_DIM3, device_sync_error.block),
    F("thread", CC_FT_DIM3, device_sync_error.thread),
    F("mask", CC_FT_HEX32, device_sync_error.mask),
    F("lanes", CC_FT_HEX32, device_sync_error.lanes),
    F("other_pc", CC_FT_ADDR, device_sync_error.other_pc),
    F("other_file", CC_FT_STR, device_sync_error.other_file),
    F("other_line", CC_FT_U32, device_sync_error.other_line),
    F("other_thread", CC_FT_DIM3, device_sync_error.other_thread),
    F("exited", CC_FT_U32, device_sync_error.exited),
    F("count", CC_FT_U64, device_sync_error.count),
};

static const cc_evt_field device_uninit_read[] = {
    F("launch_id", CC_FT_U64, device_uninit_read.launch_id),
    F("kernel", CC_FT_STR, device_uninit_read.kernel),
    F("space", CC_FT_U32, device_uninit_read.space),
    F("size", CC_FT_U32, device_uninit_read.size),
    F("pc", CC_FT_ADDR, device_uninit_read.pc),
    F("file", CC_FT_STR, device_uninit_read.file),
    F("line", CC_FT_U32, device_uninit_read.line),
    F("block", CC_FT_DIM3, device_uninit_read.block),
    F("thread", CC_FT_DIM3, device_uninit_read.thread),
    F("address", CC_FT_ADDR, device_uninit_read.address),
    F("first", CC_FT_ADDR, device_uninit_read.first),
    F("count", CC_FT_U64, device_uninit_read.count),
};

static const cc_evt_field init_write[] = {
    F("launch_id", CC_FT_U64, init_write.launch_id),
    F("address", CC_FT_ADDR, init_write.address),
    F("size", CC_FT_U64, init_write.size),
    F("flags", CC_FT_HEX32, init_write.flags),
};

static const cc_evt_field collective[] = {
    F("context", CC_FT_HANDLE, collective.context),
    F("stream", CC_FT_STREAM, collective.stream),
    E("op", collective.op, cc_coll_op_name, cc_coll_op_from_name),
    F("flags", CC_FT_HEX32, collective.flags),
    F("datatype", CC_FT_U32, collective.datatype),
    F("elem_size", CC_FT_U32, collective.elem_size),
    F("count", CC_FT_U64, collective.count),
    F("peer", CC_FT_I32, collective.peer),
    F("rank", CC_FT_I32, collective.rank),
    F("nranks", CC_FT_I32, collective.nranks),
    F("comm", CC_FT_HANDLE, collective.comm),
    F("sendbuff", CC_FT_ADDR, collective.sendbuff),
    F("send_bytes", CC_FT_U64, collective.send_bytes),
    F("recvbuff", CC_FT_ADDR, collective.recvbuff),
    F("recv_bytes", CC_FT_U64, collective.recv_bytes),
    F("callsite", CC_FT_HANDLE, collective.callsite),
};

typedef struct {
    const cc_evt_field *f;
    size_t n;
} table;

#define T(a) { a, COUNT_OF(a) }
static const table tables[CC_EV_KIND_COUNT] = {
    [CC_EV_PROCESS_START] = T(process_start),
    [CC_EV_PROCESS_EXIT] = T(process_exit),
    [CC_EV_DEVICE] = T(device),
    [CC_EV_CONTEXT_CREATE] = T(context),
    [CC_EV_CONTEXT_DESTROY] = T(context),
    [CC_EV_MODULE_LOAD] = T(module),
    [CC_EV_MODULE_UNLOAD] = T(module),
    [CC_EV_FUNCTION] = T(function),
    [CC_EV_ALLOC] = T(alloc),
    [CC_EV_FREE] = T(free_),
    [CC_EV_STREAM_CREATE] = T(stream),
    [CC_EV_STREAM_DESTROY] = T(stream),
    [CC_EV_EVENT_CREATE] = T(event),
    [CC_EV_EVENT_DESTROY] = T(event),
    [CC_EV_EVENT_RECORD] = T(event),
    [CC_EV_EVENT_WAIT] = T(event),
    [CC_EV_EVENT_SYNC] = T(event),
    [CC_EV_EVENT_QUERY] = T(event),
    [CC_EV_STREAM_SYNC] = T(sync),
    [CC_EV_STREAM_QUERY] = T(sync),
    [CC_EV_CONTEXT_SYNC] = T(sync),
    [CC_EV_DEVICE_SYNC] = T(sync),
    [CC_EV_LAUNCH] = T(launch),
    [CC_EV_MEMCPY] = T(memcpy_),
    [CC_EV_MEMSET] = T(memset_),
    [CC_EV_GRAPH_LAUNCH] = T(graph_launch),
    [CC_EV_GRAPH_NODE] = T(graph_node),
    [CC_EV_HOST_FUNC] = T(host_func),
    [CC_EV_API_ERROR] = T(api_error),
    [CC_EV_HOST_STACK] = T(host_stack),
    [CC_EV_KERNEL_ACTIVITY] = T(kernel_activity),
    [CC_EV_COPY_ACTIVITY] = T(copy_activity),
    [CC_EV_API_CALL] = T(api_call),
    [CC_EV_NVTX_RANGE] = T(nvtx_range),
    [CC_EV_SYNC_ACTIVITY] = T(sync_activity),
    [CC_EV_CLOCK_SYNC] = T(clock_sync),
    [CC_EV_DEVICE_LIMITS] = T(device_limits),
    [CC_EV_ACTIVITY_LOST] = T(activity_lost),
    [CC_EV_ACCESS] = T(access),
    [CC_EV_CAPTURE_BEGIN] = T(capture),
    [CC_EV_CAPTURE_END] = T(capture),
    [CC_EV_DEVICE_ACCESS_ERROR] = T(device_access_error),
    [CC_EV_DEVICE_FAULT] = T(device_fault),
    [CC_EV_LAUNCH_PROGRESS] = T(launch_progress),
    [CC_EV_LAUNCH_CHECKED] = T(launch_checked),
    [CC_EV_MODULE_VAR] = T(module_var),
    [CC_EV_SUBALLOC] = T(suballoc),
    [CC_EV_DEVICE_RACE] = T(device_race),
    [CC_EV_DEVICE_SYNC_ERROR] = T(device_sync_error),
    [CC_EV_DEVICE_UNINIT_READ] = T(device_uninit_read),
    [CC_EV_INIT_WRITE] = T(init_write),
    [CC_EV_COLLECTIVE] = T(collective),
};

const cc_evt_field *cc_evt_fields(uint32_t kind, size_t *n)
{
    if (kind >= CC_EV_KIND_COUNT || !tables[kind].f) {
        *n = 0;
        return NULL;
    }
    *n = tables[kind].n;
    return tables[kind].f;
}
