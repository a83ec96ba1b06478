/* Words for streamcheck reports: how an operation, a stream, an access and an allocation are
 * named ("kernel add(float*) (launch #3) on stream 0x10001", "ncclAllReduce on stream 0x10002",
 * "the legacy default stream"; in a
 * program that used several devices "stream 0x5 (device 1)", "the legacy default stream of
 * device 1"); kernels demangled through the tool's cache. */
#include "tools/streamcheck/sc_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void sc_stream_name(char *buf, size_t len, uint64_t stream, uint32_t tid, int32_t device)
{
    char dev[32] = "";
    if (device >= 0) snprintf(dev, sizeof dev, "%" PRId32, device);
    if (stream == CC_STREAM_LEGACY)
        snprintf(buf, len, "the legacy default stream%s%s", *dev ? " of device " : "", dev);
    else if (stream == CC_STREAM_PER_THREAD)
        snprintf(buf, len, "the per-thread default stream of thread %" PRIu32 "%s%s", tid,
                 *dev ? " on device " : "", dev);
    else if (*dev) snprintf(buf, len, "stream 0x%" PRIx64 " (device %s)", stream, dev);
    else snprintf(buf, len, "stream 0x%" PRIx64, stream);
}

const char *sc_access_verb(uint32_t flags)
{
    if (flags & CC_ACCESS_FLAG_ATOMIC) return "atomically updates";
    if ((flags & CC_ACCESS_FLAG_WRITE) && (flags & CC_ACCESS_FLAG_READ)) return "reads and writes";
    if (flags & CC_ACCESS_FLAG_WRITE) return "writes";
    return "reads";
}

uint32_t sc_access_kind(uint32_t flags)
{
    if (flags & CC_ACCESS_FLAG_ATOMIC) return CC_ACCESS_ATOMIC;
    if (flags & CC_ACCESS_FLAG_WRITE) return CC_ACCESS_WRITE;
    if (flags & CC_ACCESS_FLAG_READ) return CC_ACCESS_READ;
    return CC_ACCESS_NONE;
}

static const char *dir_name(uint32_t dir)
{
    const char *n = cc_copy_dir_name(dir);
    return n ? n : "unknown";
}

/* The short name of an operation: a kernel's demangled name, an NCCL operation's API name
 * ("ncclAllReduce"), or what the operation is (used as
 * the finding's "kernel", the dedup key, for operations that are no kernel). */
void sc_op_short(char *buf, size_t len, const cc_hb_op *op, cc_demangle_cache *names)
{
    switch (op->kind) {
    case CC_HB_OP_KERNEL: snprintf(buf, len, "%s", cc_demangle_cached(names, op->name)); break;
    case CC_HB_OP_MEMCPY: snprintf(buf, len, "memcpy (%s)", dir_name(op->copy_dir)); break;
    case CC_HB_OP_MEMSET: snprintf(buf, len, "memset"); break;
    case CC_HB_OP_HOST: snprintf(buf, len, "host access"); break;
    case CC_HB_OP_HOST_FUNC: snprintf(buf, len, "host function"); break;
    case CC_HB_OP_ALLOC_ASYNC: snprintf(buf, len, "cudaMallocAsync"); break;
    case CC_HB_OP_FREE_ASYNC: snprintf(buf, len, "cudaFreeAsync"); break;
    case CC_HB_OP_FREE: snprintf(buf, len, "free"); break;
    case CC_HB_OP_COPY_HOST:
        snprintf(buf, len, "memcpy (%s, host side)", dir_name(op->copy_dir));
        break;
    case CC_HB_OP_COLLECTIVE: snprintf(buf, len, "%s", op->name ? op->name : "nccl"); break;
    default: snprintf(buf, len, "operation"); break;
    }
}

/* Where it ran: "on stream 0x10001", "as node 0x3 of graph 0x10004 launched on ...",
 * "on host thread 7"; with show_device the stream's device too ("on stream 0x5 (device 1)"). */
void sc_op_where(char *buf, size_t len, const cc_hb_op *op, int show_device)
{
    char sn[96];
    if (op->on_host) {
        snprintf(buf, len, "on host thread %" PRIu32, op->tid);
        return;
    }
    sc_stream_name(sn, sizeof sn, op->stream, op->tid, show_device ? op->device : -1);
    if (op->library != CC_NVLIB_NONE && op->library < CC_NVLIB_COUNT) {
        size_t used = strlen(sn);
        snprintf(sn + used, sizeof sn - used, " (%s's own)", cc_nvlib_title(op->library));
    }
    if (op->graph_exec && op->graph_node)
        snprintf(buf, len, "as node 0x%" PRIx64 " of graph 0x%" PRIx64 " launched on %s",
                 op->graph_node, op->graph_exec, sn);
    else snprintf(buf, len, "on %s", sn);
}

void sc_op_describe(char *buf, size_t len, const cc_hb_op *op, cc_demangle_cache *names,
                    int show_device)
{
    char name[512], where[256];
    sc_op_short(name, sizeof name, op, names);
    sc_op_where(where, sizeof where, op, show_device);
    if (op->kind == CC_HB_OP_KERNEL)
        snprintf(buf, len, "kernel %s (launch #%" PRIu64 ") %s", name, op->id, where);
    else snprintf(buf, len, "%s %s", name, where);
}

void sc_alloc_describe(char *buf, size_t len, const cc_hb_alloc_info *a)
{
    if (!a) {
        snprintf(buf, len, "memory outside every allocation cucheck saw");
        return;
    }
    const char *k = cc_mem_kind_name(a->mem_kind);
    char owner[48] = "";
    if (a->library != CC_NVLIB_NONE && a->library < CC_NVLIB_COUNT)
        snprintf(owner, sizeof owner, ", %s's own", cc_nvlib_title(a->library));
    snprintf(buf, len, "%s allocation 0x%" PRIx64 " (%" PRIu64 " bytes, device %" PRId32 "%s)",
             k ? k : "unknown", a->base, a->size, a->device, owner);
}
