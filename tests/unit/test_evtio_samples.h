/* Shared by the evtio/scenario unit tests: one sample event of every kind with non-trivial
 * values in every field (strings with quotes and escapes, stack frames, graph deps, values
 * above 32 bits, negative numbers, out-of-range enums), and a field-by-field comparison written
 * out by hand from cucheck/event.h (independent of the codec's field tables). */
#ifndef CUCHECK_TEST_EVTIO_SAMPLES_H
#define CUCHECK_TEST_EVTIO_SAMPLES_H

#include <stdio.h>
#include <string.h>
#include "cucheck/event.h"

static const uint64_t sample_deps[] = { 3, 4, 0xfedcba9876543ull, 1 };
static const cc_stack_frame sample_frames[] = {
    { 0x401a2c, "main+0x1c (a.cu:10)" },
    { 0, "train.py:42 in step" },
    { 0x7f0000123456ull, "weird \"quoted\" \\ back\nslash\ttab|bar #hash \x01 \xc3\xa9" },
    { 0, "0x12@looks like a pc" },
    { 5, "" },
};

/* Fill out[] with one event per kind (CC_EV_KIND_COUNT - 1 events); returns the count. */
static size_t sample_events(cc_event *out)
{
    size_t n = 0;
    for (uint32_t k = 1; k < CC_EV_KIND_COUNT; k++) {
        cc_event *e = &out[n++];
        memset(e, 0, sizeof *e);
        e->h.kind = k;
        e->h.tid = 1000 + k;
        e->h.timestamp = 0x100000000ull * k + 17;
        uint64_t big = 0xabcdef0000000000ull + k;
        switch ((cc_event_kind)k) {
        case CC_EV_PROCESS_START:
            e->u.process_start = (cc_ev_process_start){ 4242, 1, "/usr/bin/python3", "memcheck",
                                                        "0.1.0" };
            break;
        case CC_EV_PROCESS_EXIT:
            e->u.process_exit = (cc_ev_process_exit){ CC_EXIT_SIGNAL, -11 };
            break;
        case CC_EV_DEVICE:
            e->u.device = (cc_ev_device){ 3, 9, 0, 132, 150ull << 30, "NVIDIA H200 \"x\"" };
            break;
        case CC_EV_CONTEXT_CREATE: case CC_EV_CONTEXT_DESTROY:
            e->u.context = (cc_ev_context){ big, -1 };
            break;
        case CC_EV_MODULE_LOAD: case CC_EV_MODULE_UNLOAD:
            e->u.module = (cc_ev_module){ big, big + 1, 123456, "/tmp/cubins/m 1.cubin" };
            break;
        case CC_EV_FUNCTION:
            e->u.function = (cc_ev_function){ big, big + 2, 0x7f12340000ull, 4096,
                                              "_Z3addPfS_i" };
            break;
        case CC_EV_ALLOC:
            e->u.alloc = (cc_ev_alloc){ big, 1, CC_MEM_DEVICE_ASYNC, 0x7f0000200000ull,
                                        1ull << 33, 7, 99, 5, CC_NVLIB_CUDNN };
            break;
        case CC_EV_FREE:
            e->u.free = (cc_ev_free){ big, 2, CC_MEM_MANAGED, 0x7f0000200000ull, 1024,
                                      CC_STREAM_PER_THREAD, 6 };
            break;
        case CC_EV_STREAM_CREATE: case CC_EV_STREAM_DESTROY:
            e->u.stream = (cc_ev_stream){ big, 0x55550000ull + k, CC_STREAM_FLAG_NON_BLOCKING,
                                          -2, CC_NVLIB_NCCL };
            break;
        case CC_EV_EVENT_CREATE: case CC_EV_EVENT_DESTROY: case CC_EV_EVENT_RECORD:
        case CC_EV_EVENT_WAIT: case CC_EV_EVENT_SYNC: case CC_EV_EVENT_QUERY:
            e->u.event = (cc_ev_event){ big, 0x66660000ull + k, 0x55551111ull,
                                        CC_EVENT_FLAG_DISABLE_TIMING | 0x80000000u, 1 };
            break;
        case CC_EV_STREAM_SYNC: case CC_EV_STREAM_QUERY: case CC_EV_CONTEXT_SYNC:
        case CC_EV_DEVICE_SYNC:
            e->u.sync = (cc_ev_sync){ big, 1, -1, 0x77770000ull + k };
            break;
        case CC_EV_LAUNCH:
            e->u.launch = (cc_ev_launch){
                .context = big, .device = 1, .flags = CC_LAUNCH_FLAG_GRAPH_NODE,
                .module = big + 1, .function = big + 2,
                .name = "void add<float>(float*, int)", .grid = { 4, 2, 1 },
                .block = { 256, 1, 1 }, .cluster = { 2, 1, 1 }, .dynamic_smem = 49152,
                .stream = 0x88880000ull, .launch_id = 1ull << 40, .callsite = 12,
                .graph_exec = 13, .graph_node = 14, .grid_id = 0xfedc000000000017ull };
            break;
        case CC_EV_MEMCPY:
            /* every flag bit travels, the synchronous peer copy's (0x4) too */
            e->u.memcpy = (cc_ev_memcpy){ big, CC_COPY_D2H,
                                          CC_COPY_FLAG_ASYNC | CC_COPY_FLAG_PEER_SYNC,
                                          CC_MEM_DEVICE, CC_MEM_HOST_PINNED, 0x7f0000300000ull,
                                          0x5555deadbeefull, 4096, 64, 32, 2, 128, 256,
                                          CC_STREAM_PER_THREAD, 15, 16, 17 };
            break;
        case CC_EV_MEMSET:
            e->u.memset = (cc_ev_memset){ big, CC_COPY_FLAG_GRAPH_NODE, 4, 0xdeadbeef,
                                          CC_MEM_KIND_COUNT + 7 /* unknown: kept as number */,
                                          0x7f0000400000ull, 8192, 64, 128, 512, 9, 18, 19,
                                          20 };
            break;
        case CC_EV_GRAPH_LAUNCH:
            e->u.graph_launch = (cc_ev_graph_launch){ big, 21, 22, 23, 24 };
            break;
        case CC_EV_GRAPH_NODE:
            e->u.graph_node = (cc_ev_graph_node){ 21, 25, CC_GNODE_CHILD_GRAPH,
                                                  (uint32_t)(sizeof sample_deps / 8),
                                                  sample_deps };
            break;
        case CC_EV_HOST_FUNC:
            e->u.host_func = (cc_ev_host_func){ big, 26, 0x401000, 0x7ffc12345678ull, 27 };
            break;
        case CC_EV_API_ERROR:
            e->u.api_error = (cc_ev_api_error){ CC_API_RUNTIME, 700, "cudaMemcpy",
                                                "cudaErrorIllegalAddress",
                                                "an illegal memory access was encountered",
                                                28 };
            break;
        case CC_EV_HOST_STACK:
            e->u.host_stack = (cc_ev_host_stack){
                29, (uint32_t)(sizeof sample_frames / sizeof sample_frames[0]), sample_frames };
            break;
        case CC_EV_KERNEL_ACTIVITY:
            e->u.kernel_activity = (cc_ev_kernel_activity){
                .start = big, .end = big + 123456, .device = 3, .registers = 255,
                .context = big + 1, .stream = 0x99990000ull, .correlation = 1ull << 35,
                .name = "_Z6kernelPf \"odd\"", .grid = { 65535, 7, 2 }, .block = { 1024, 1, 1 },
                .cluster = { 2, 2, 1 }, .static_smem = 49152, .dynamic_smem = 0x80000001u,
                .local_mem = 16, .smem_config = 233472, .graph = 31, .graph_node = big + 2 };
            break;
        case CC_EV_COPY_ACTIVITY:
            e->u.copy_activity = (cc_ev_copy_activity){
                .start = big, .end = big + 99, .device = -1, .op = CC_COPY_OP_MEMSET,
                .direction = CC_COPY_PEER, .src_kind = CC_MEM_HOST_PAGEABLE,
                .dst_kind = CC_MEM_KIND_COUNT + 3, .value = 0xa5a5a5a5u, .bytes = 1ull << 34,
                .context = big + 3, .stream = CC_STREAM_PER_THREAD, .correlation = 32,
                .graph = 33, .graph_node = 34 };
            break;
        case CC_EV_API_CALL:
            e->u.api_call = (cc_ev_api_call){ big, big + 5, CC_API_DRIVER, 307, "cuLaunchKernel",
                                              0xffffffffull + 1, -700 };
            break;
        case CC_EV_NVTX_RANGE:
            e->u.nvtx_range = (cc_ev_nvtx_range){ big, big + 7, 1ull << 40, 4321,
                                                  "my domain", "forward \"step\"\t#1" };
            break;
        case CC_EV_SYNC_ACTIVITY:
            e->u.sync_activity = (cc_ev_sync_activity){ big, big + 11, CC_SYNC_STREAM_WAIT_EVENT,
                                                        -2, big + 1, 35, 36, 37 };
            break;
        case CC_EV_CLOCK_SYNC:
            e->u.clock_sync = (cc_ev_clock_sync){ 1700000000123456789ull, big, -1, "node-07" };
            break;
        case CC_EV_DEVICE_LIMITS:
            e->u.device_limits = (cc_ev_device_limits){ 2, 9, 0, 132, 32, 1024, 64, 32, 65536,
                                                        65536, 49152, 233472, "NVIDIA H200" };
            break;
        case CC_EV_ACTIVITY_LOST:
            e->u.activity_lost = (cc_ev_activity_lost){ big, 1ull << 33, "buffer full" };
            break;
        case CC_EV_ACCESS:
            e->u.access = (cc_ev_access){ 1ull << 41, 0x7f0000500010ull, 1ull << 32,
                                          CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_ATOMIC,
                                          CC_ACCESS_SRC_INFERRED };
            break;
        case CC_EV_CAPTURE_BEGIN: case CC_EV_CAPTURE_END:
            e->u.capture = (cc_ev_capture){ big, 0x12340000ull + k, big + 9, 2, -900 };
            break;
        case CC_EV_DEVICE_ACCESS_ERROR:
            e->u.device_access_error = (cc_ev_device_access_error){
                1ull << 40, "_Z6vecaddPKfS0_Pfi", 0x1f0, "vec \"add\".cu", 13, { 3, 1, 70000 },
                { 232, 0, 1 }, 0x7f0000500fa0ull, 16, CC_ACCESS_FLAG_WRITE, 1, 2, 1ull << 35 };
            break;
        case CC_EV_DEVICE_FAULT:
            e->u.device_fault = (cc_ev_device_fault){
                1ull << 50, 3, 14, "Warp - \"Illegal\" address", "_Z3oobPi", 0x7fff00001150ull,
                0x150, "o o.cu", 21, { 6, 1, 70000 }, { 77, 0, 2 }, { 8, 1, 1 }, { 256, 1, 1 },
                131, 63, 31, 4321, 0xffffffffu, "/tmp/d %p.nvcudmp" };
            break;
        case CC_EV_LAUNCH_PROGRESS:
            e->u.launch_progress = (cc_ev_launch_progress){ big + k, 0xfffffff0u,
                                                            big - 5, 1 };
            break;
        case CC_EV_LAUNCH_CHECKED:
            e->u.launch_checked = (cc_ev_launch_checked){ big + k, 0xfffffff1u,
                                                          CC_CHECKED_LOST, big + k + 47 };
            break;
        case CC_EV_MODULE_VAR:
            e->u.module_var = (cc_ev_module_var){ big, big + 3, 0x7f0000600048ull, 1ull << 33,
                                                  CC_MODVAR_FLAG_CONSTANT | 0x80000000u,
                                                  "__nv_static_26__x \"q\" #1" };
            break;
        case CC_EV_SUBALLOC:
            e->u.suballoc = (cc_ev_suballoc){ CC_SUBALLOC_OP_REGION_RESIZE, CC_SUBALLOC_SRC_TORCH,
                                              big + 5, 0x7f0000200010ull, (1ull << 35) + 63,
                                              big + 6 };
            break;
        case CC_EV_DEVICE_RACE:
            e->u.device_race = (cc_ev_device_race){
                1ull << 42, "_Z6reducePf", 2, CC_RACE_WAW,
                CC_RACE_FLAG_SAME_VALUE | CC_RACE_FLAG_CLUSTER | 0x80000000u, 0x7f0000500040ull,
                { 0x1a0, "red \"uce\".cu", 21, { 1, 2, 70000 }, { 5, 0, 1 }, 4,
                  CC_ACCESS_FLAG_WRITE },
                { 0x1f0, "", 0, { 0, 0, 0 }, { 1023, 1, 63 }, 1ull << 31,
                  CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_ATOMIC },
                big + 7 };
            break;
        case CC_EV_DEVICE_SYNC_ERROR:
            e->u.device_sync_error = (cc_ev_device_sync_error){
                1ull << 43, "_Z4stepPi", CC_SYNC_BLOCK_DIVERGENT,
                CC_SYNC_FLAG_EXITED | CC_SYNC_FLAG_AT_EXIT | 0x80000000u, 0x1f0, "st\"ep\".cu", 77,
                { 3, 0, 70000 }, { 31, 1, 63 }, 0xffff0000u, 0x0000ffffu, (1ull << 40) + 0x30,
                "", 0, { 1023, 0, 0 }, 4096, big + 8 };
            break;
        case CC_EV_DEVICE_UNINIT_READ:
            e->u.device_uninit_read = (cc_ev_device_uninit_read){
                (1ull << 44) + 3, "_Z4readPKfPf", 1, 16, 0x2f0, "re\"ad.cu", 12, { 7, 0, 70000 },
                { 255, 3, 1 }, (1ull << 47) + 0x100, (1ull << 47) + 0x104, big + 9 };
            break;
        case CC_EV_INIT_WRITE:
            e->u.init_write = (cc_ev_init_write){ (1ull << 44) + 3, (1ull << 47) + 0x40,
                                                  big + 10, CC_INIT_WRITE_ASSUMED | 0x80000000u };
            break;
        case CC_EV_COLLECTIVE:
            e->u.collective = (cc_ev_collective){
                .context = big, .stream = 0x5eed0000ull, .op = CC_COLL_REDUCESCATTER,
                .flags = CC_COLL_FLAG_GROUPED | 0x80000000u, .datatype = 9, .elem_size = 2,
                .count = (1ull << 33) + 5, .peer = -1, .rank = 3, .nranks = 0x7fffffff,
                .comm = big + 11, .sendbuff = (1ull << 47) + 0x200, .send_bytes = 1ull << 36,
                .recvbuff = (1ull << 47) + 0x800, .recv_bytes = big + 12, .callsite = 41 };
            break;
        default:
            break;
        }
    }
    return n;
}

static const char *s_or_empty(const char *s) { return s ? s : ""; }

/* 1 if a and b are equal field by field; else 0 and the first difference in why. */
static int events_equal(const cc_event *a, const cc_event *b, char *why, size_t whylen)
{
#define NE(f) (a->f != b->f)
#define D(f) do { if (NE(f)) { snprintf(why, whylen, "%s differs", #f); return 0; } } while (0)
#define S(f) do { if (strcmp(s_or_empty(a->f), s_or_empty(b->f)) != 0) { \
        snprintf(why, whylen, "%s differs: \"%s\" vs \"%s\"", #f, s_or_empty(a->f), \
                 s_or_empty(b->f)); return 0; } } while (0)
#define D3(f) do { D(f[0]); D(f[1]); D(f[2]); } while (0)
    D(h.kind); D(h.tid); D(h.timestamp);
    switch ((cc_event_kind)a->h.kind) {
    case CC_EV_PROCESS_START:
        D(u.process_start.pid); D(u.process_start.ppid); S(u.process_start.argv0);
        S(u.process_start.tool); S(u.process_start.version);
        break;
    case CC_EV_PROCESS_EXIT:
        D(u.process_exit.reason); D(u.process_exit.code);
        break;
    case CC_EV_DEVICE:
        D(u.device.ordinal); D(u.device.cc_major); D(u.device.cc_minor);
        D(u.device.sm_count); D(u.device.total_mem); S(u.device.name);
        break;
    case CC_EV_CONTEXT_CREATE: case CC_EV_CONTEXT_DESTROY:
        D(u.context.context); D(u.context.device);
        break;
    case CC_EV_MODULE_LOAD: case CC_EV_MODULE_UNLOAD:
        D(u.module.context); D(u.module.module); D(u.module.cubin_size);
        S(u.module.cubin_ref);
        break;
    case CC_EV_FUNCTION:
        D(u.function.module); D(u.function.function); D(u.function.pc); D(u.function.size);
        S(u.function.name);
        break;
    case CC_EV_ALLOC:
        D(u.alloc.context); D(u.alloc.device); D(u.alloc.mem_kind); D(u.alloc.address);
        D(u.alloc.size); D(u.alloc.stream); D(u.alloc.pool); D(u.alloc.callsite);
        break;
    case CC_EV_FREE:
        D(u.free.context); D(u.free.device); D(u.free.mem_kind); D(u.free.address);
        D(u.free.size); D(u.free.stream); D(u.free.callsite);
        break;
    case CC_EV_STREAM_CREATE: case CC_EV_STREAM_DESTROY:
        D(u.stream.context); D(u.stream.stream); D(u.stream.flags); D(u.stream.priority);
        break;
    case CC_EV_EVENT_CREATE: case CC_EV_EVENT_DESTROY: case CC_EV_EVENT_RECORD:
    case CC_EV_EVENT_WAIT: case CC_EV_EVENT_SYNC: case CC_EV_EVENT_QUERY:
        D(u.event.context); D(u.event.event); D(u.event.stream); D(u.event.flags);
        D(u.event.result);
        break;
    case CC_EV_STREAM_SYNC: case CC_EV_STREAM_QUERY: case CC_EV_CONTEXT_SYNC:
    case CC_EV_DEVICE_SYNC:
        D(u.sync.context); D(u.sync.device); D(u.sync.result); D(u.sync.stream);
        break;
    case CC_EV_LAUNCH:
        D(u.launch.context); D(u.launch.device); D(u.launch.flags); D(u.launch.module);
        D(u.launch.function); S(u.launch.name); D3(u.launch.grid); D3(u.launch.block);
        D3(u.launch.cluster); D(u.launch.dynamic_smem); D(u.launch.stream);
        D(u.launch.launch_id); D(u.launch.callsite); D(u.launch.graph_exec);
        D(u.launch.graph_node); D(u.launch.grid_id);
        break;
    case CC_EV_MEMCPY:
        D(u.memcpy.context); D(u.memcpy.direction); D(u.memcpy.flags); D(u.memcpy.src_kind);
        D(u.memcpy.dst_kind); D(u.memcpy.src); D(u.memcpy.dst); D(u.memcpy.size);
        D(u.memcpy.width); D(u.memcpy.height); D(u.memcpy.depth); D(u.memcpy.src_pitch);
        D(u.memcpy.dst_pitch); D(u.memcpy.stream); D(u.memcpy.callsite);
        D(u.memcpy.graph_exec); D(u.memcpy.graph_node);
        break;
    case CC_EV_MEMSET:
        D(u.memset.context); D(u.memset.flags); D(u.memset.element_size); D(u.memset.value);
        D(u.memset.mem_kind); D(u.memset.dst); D(u.memset.size); D(u.memset.width);
        D(u.memset.height); D(u.memset.pitch); D(u.memset.stream); D(u.memset.callsite);
        D(u.memset.graph_exec); D(u.memset.graph_node);
        break;
    case CC_EV_GRAPH_LAUNCH:
        D(u.graph_launch.context); D(u.graph_launch.graph_exec); D(u.graph_launch.stream);
        D(u.graph_launch.launch_id); D(u.graph_launch.callsite);
        break;
    case CC_EV_GRAPH_NODE:
        D(u.graph_node.graph_exec); D(u.graph_node.node); D(u.graph_node.type);
        D(u.graph_node.ndeps);
        for (uint32_t i = 0; i < a->u.graph_node.ndeps; i++) D(u.graph_node.deps[i]);
        break;
    case CC_EV_HOST_FUNC:
        D(u.host_func.context); D(u.host_func.stream); D(u.host_func.fn);
        D(u.host_func.userdata); D(u.host_func.callsite);
        break;
    case CC_EV_API_ERROR:
        D(u.api_error.api); D(u.api_error.code); S(u.api_error.function);
        S(u.api_error.error_name); S(u.api_error.error_string); D(u.api_error.callsite);
        break;
    case CC_EV_HOST_STACK:
        D(u.host_stack.id); D(u.host_stack.nframes);
        for (uint32_t i = 0; i < a->u.host_stack.nframes; i++) {
            D(u.host_stack.frames[i].pc);
            S(u.host_stack.frames[i].text);
        }
        break;
    case CC_EV_KERNEL_ACTIVITY:
        D(u.kernel_activity.start); D(u.kernel_activity.end); D(u.kernel_activity.device);
        D(u.kernel_activity.registers); D(u.kernel_activity.context);
        D(u.kernel_activity.stream); D(u.kernel_activity.correlation);
        S(u.kernel_activity.name); D3(u.kernel_activity.grid); D3(u.kernel_activity.block);
        D3(u.kernel_activity.cluster); D(u.kernel_activity.static_smem);
        D(u.kernel_activity.dynamic_smem); D(u.kernel_activity.local_mem);
        D(u.kernel_activity.smem_config); D(u.kernel_activity.graph);
        D(u.kernel_activity.graph_node);
        break;
    case CC_EV_COPY_ACTIVITY:
        D(u.copy_activity.start); D(u.copy_activity.end); D(u.copy_activity.device);
        D(u.copy_activity.op); D(u.copy_activity.direction); D(u.copy_activity.src_kind);
        D(u.copy_activity.dst_kind); D(u.copy_activity.value); D(u.copy_activity.bytes);
        D(u.copy_activity.context); D(u.copy_activity.stream); D(u.copy_activity.correlation);
        D(u.copy_activity.graph); D(u.copy_activity.graph_node);
        break;
    case CC_EV_API_CALL:
        D(u.api_call.start); D(u.api_call.end); D(u.api_call.api); D(u.api_call.cbid);
        S(u.api_call.function); D(u.api_call.correlation); D(u.api_call.result);
        break;
    case CC_EV_NVTX_RANGE:
        D(u.nvtx_range.start); D(u.nvtx_range.end); D(u.nvtx_range.id);
        D(u.nvtx_range.end_tid); S(u.nvtx_range.domain); S(u.nvtx_range.name);
        break;
    case CC_EV_SYNC_ACTIVITY:
        D(u.sync_activity.start); D(u.sync_activity.end); D(u.sync_activity.type);
        D(u.sync_activity.result); D(u.sync_activity.context); D(u.sync_activity.stream);
        D(u.sync_activity.event); D(u.sync_activity.correlation);
        break;
    case CC_EV_CLOCK_SYNC:
        D(u.clock_sync.wall_ns); D(u.clock_sync.mono_ns); D(u.clock_sync.rank);
        S(u.clock_sync.host);
        break;
    case CC_EV_DEVICE_LIMITS:
        D(u.device_limits.ordinal); D(u.device_limits.cc_major); D(u.device_limits.cc_minor);
        D(u.device_limits.sm_count); D(u.device_limits.warp_size);
        D(u.device_limits.max_threads_per_block); D(u.device_limits.max_warps_per_sm);
        D(u.device_limits.max_blocks_per_sm); D(u.device_limits.regs_per_block);
        D(u.device_limits.regs_per_sm); D(u.device_limits.smem_per_block);
        D(u.device_limits.smem_per_sm); S(u.device_limits.name);
        break;
    case CC_EV_ACTIVITY_LOST:
        D(u.activity_lost.context); D(u.activity_lost.dropped); S(u.activity_lost.reason);
        break;
    case CC_EV_ACCESS:
        D(u.access.launch_id); D(u.access.address); D(u.access.size); D(u.access.flags);
        D(u.access.source);
        break;
    case CC_EV_CAPTURE_BEGIN: case CC_EV_CAPTURE_END:
        D(u.capture.context); D(u.capture.stream); D(u.capture.graph); D(u.capture.mode);
        D(u.capture.result);
        break;
    case CC_EV_DEVICE_ACCESS_ERROR:
        D(u.device_access_error.launch_id); S(u.device_access_error.kernel);
        D(u.device_access_error.pc); S(u.device_access_error.file); D(u.device_access_error.line);
        for (int i = 0; i < 3; i++) {
            D(u.device_access_error.block[i]); D(u.device_access_error.thread[i]);
        }
        D(u.device_access_error.address); D(u.device_access_error.size);
        D(u.device_access_error.flags); D(u.device_access_error.space);
        D(u.device_access_error.violation); D(u.device_access_error.count);
        break;
    case CC_EV_DEVICE_FAULT:
        D(u.device_fault.grid_id); D(u.device_fault.device); D(u.device_fault.exception);
        S(u.device_fault.exception_name); S(u.device_fault.kernel); D(u.device_fault.pc);
        D(u.device_fault.pc_offset); S(u.device_fault.file); D(u.device_fault.line);
        D3(u.device_fault.block); D3(u.device_fault.thread); D3(u.device_fault.grid);
        D3(u.device_fault.block_dim); D(u.device_fault.sm); D(u.device_fault.warp);
        D(u.device_fault.lane); D(u.device_fault.host_tid); D(u.device_fault.faulting_lanes);
        S(u.device_fault.dump);
        break;
    case CC_EV_LAUNCH_PROGRESS:
        D(u.launch_progress.launch_id); D(u.launch_progress.finished);
        D(u.launch_progress.covered_from); D(u.launch_progress.started);
        break;
    case CC_EV_LAUNCH_CHECKED:
        D(u.launch_checked.launch_id); D(u.launch_checked.errors); D(u.launch_checked.result);
        D(u.launch_checked.last_id);
        break;
    case CC_EV_MODULE_VAR:
        D(u.module_var.context); D(u.module_var.module); D(u.module_var.address);
        D(u.module_var.size); D(u.module_var.flags); S(u.module_var.name);
        break;
    case CC_EV_SUBALLOC:
        D(u.suballoc.op); D(u.suballoc.source); D(u.suballoc.heap); D(u.suballoc.address);
        D(u.suballoc.size); D(u.suballoc.callsite);
        break;
    case CC_EV_DEVICE_RACE:
        D(u.device_race.launch_id); S(u.device_race.kernel); D(u.device_race.space);
        D(u.device_race.kind); D(u.device_race.flags); D(u.device_race.address);
        D(u.device_race.first.pc); S(u.device_race.first.file); D(u.device_race.first.line);
        D3(u.device_race.first.block); D3(u.device_race.first.thread);
        D(u.device_race.first.size); D(u.device_race.first.flags);
        D(u.device_race.second.pc); S(u.device_race.second.file); D(u.device_race.second.line);
        D3(u.device_race.second.block); D3(u.device_race.second.thread);
        D(u.device_race.second.size); D(u.device_race.second.flags);
        D(u.device_race.count);
        break;
    case CC_EV_DEVICE_SYNC_ERROR:
        D(u.device_sync_error.launch_id); S(u.device_sync_error.kernel); D(u.device_sync_error.kind);
        D(u.device_sync_error.flags); D(u.device_sync_error.pc); S(u.device_sync_error.file);
        D(u.device_sync_error.line); D3(u.device_sync_error.block); D3(u.device_sync_error.thread);
        D(u.device_sync_error.mask); D(u.device_sync_error.lanes); D(u.device_sync_error.other_pc);
        S(u.device_sync_error.other_file); D(u.device_sync_error.other_line);
        D3(u.device_sync_error.other_thread); D(u.device_sync_error.exited); D(u.device_sync_error.count);
        break;
    case CC_EV_DEVICE_UNINIT_READ:
        D(u.device_uninit_read.launch_id); S(u.device_uninit_read.kernel);
        D(u.device_uninit_read.space); D(u.device_uninit_read.size); D(u.device_uninit_read.pc);
        S(u.device_uninit_read.file); D(u.device_uninit_read.line);
        D3(u.device_uninit_read.block); D3(u.device_uninit_read.thread);
        D(u.device_uninit_read.address); D(u.device_uninit_read.first);
        D(u.device_uninit_read.count);
        break;
    case CC_EV_INIT_WRITE:
        D(u.init_write.launch_id); D(u.init_write.address); D(u.init_write.size);
        D(u.init_write.flags);
        break;
    case CC_EV_COLLECTIVE:
        D(u.collective.context); D(u.collective.stream); D(u.collective.op);
        D(u.collective.flags); D(u.collective.datatype); D(u.collective.elem_size);
        D(u.collective.count); D(u.collective.peer); D(u.collective.rank);
        D(u.collective.nranks); D(u.collective.comm); D(u.collective.sendbuff);
        D(u.collective.send_bytes); D(u.collective.recvbuff); D(u.collective.recv_bytes);
        D(u.collective.callsite);
        break;
    default:
        snprintf(why, whylen, "unexpected kind %u", a->h.kind);
        return 0;
    }
    return 1;
#undef NE
#undef D
#undef S
#undef D3
}

#endif
