/* The happens-before engine: decides, from a stream of cucheck events, which GPU and host
 * operations are ordered by what CUDA guarantees (stream order, events, synchronizations, the
 * legacy default stream's implicit barriers, synchronous copies and memsets, copies between
 * devices in the NULL stream, cudaFree, host functions, graphs, stream capture, stream-ordered
 * allocation, NCCL operations as stream operations), tracks which byte ranges every operation read and wrote, and reports pairs of
 * conflicting accesses that are not ordered.
 * CPU-only; the orderings it models are listed with their sources in docs/streamcheck.md.
 *
 *   cc_hb *hb = cc_hb_new(&cfg); for each event: cc_hb_event(hb, &ev); cc_hb_free(hb);
 * Issues are delivered through cfg.on_issue while cc_hb_event runs. */
#ifndef CUCHECK_CORE_HB_ENGINE_H
#define CUCHECK_CORE_HB_ENGINE_H

#include <stdint.h>
#include "cucheck/event.h"
#include "core/hb_vc.h"

/* What an operation is. */
typedef enum cc_hb_op_kind {
    CC_HB_OP_KERNEL = 0,
    CC_HB_OP_MEMCPY = 1,
    CC_HB_OP_MEMSET = 2,
    CC_HB_OP_HOST = 3,        /* an access by a host thread (access event with launch_id 0) */
    CC_HB_OP_HOST_FUNC = 4,   /* a host function enqueued on a stream */
    CC_HB_OP_ALLOC_ASYNC = 5, /* cudaMallocAsync */
    CC_HB_OP_FREE_ASYNC = 6,  /* cudaFreeAsync */
    CC_HB_OP_FREE = 7,        /* a free by the host (cudaFree, cudaFreeHost, ...) */
    CC_HB_OP_COPY_HOST = 8,   /* the host side of a synchronous copy from pageable memory */
    CC_HB_OP_COLLECTIVE = 9,  /* an NCCL collective or send/recv (name: its API name) */
} cc_hb_op_kind;

/* One operation, with the clock it had when it was made (kept while referenced). */
typedef struct cc_hb_op {
    uint64_t seq;          /* issue order, from 1 */
    uint32_t kind;         /* cc_hb_op_kind */
    uint32_t actor;        /* the stream, thread or graph node it ran on */
    uint64_t clock;        /* its own entry in vc */
    cc_hb_vc vc;           /* what was ordered before it */
    uint64_t id;           /* launch_id (kernels, graph nodes), userdata (host functions) */
    uint64_t stream;       /* the stream the program used (0 legacy, 2 per-thread); host ops: 0 */
    uint64_t context;
    int32_t device;
    uint32_t tid;          /* host thread that issued it */
    int on_host;           /* ran on a host thread (HOST, FREE, COPY_HOST) */
    uint64_t callsite;     /* host stack id */
    uint64_t graph_exec, graph_node; /* graph nodes */
    uint32_t copy_dir;     /* memcpy: cc_copy_dir as resolved */
    uint32_t library;      /* cc_nvlib that created its stream */
    const char *name;      /* kernel name (interned: lives as long as the engine), NCCL API
                            * name (static), or NULL */
    uint32_t refs;
} cc_hb_op;

/* 1 if a is ordered before b (or is b). */
int cc_hb_op_before(const cc_hb_op *a, const cc_hb_op *b);

typedef enum cc_hb_issue_kind {
    CC_HB_ISSUE_RACE = 0,             /* two unordered accesses, at least one a write */
    CC_HB_ISSUE_USE_AFTER_FREE = 1,   /* access after (or not ordered before) cudaFreeAsync */
    CC_HB_ISSUE_USE_BEFORE_ALLOC = 2, /* access not ordered after cudaMallocAsync */
    CC_HB_ISSUE_FREE_IN_USE = 3,      /* a host free while an unordered access may still run */
} cc_hb_issue_kind;

typedef struct cc_hb_alloc_info {
    uint64_t base, size;
    uint32_t mem_kind;     /* cc_mem_kind */
    int32_t device;
    uint64_t stream;       /* stream-ordered allocations */
    uint64_t callsite;
    uint32_t library;      /* cc_nvlib that allocated it for itself */
} cc_hb_alloc_info;

typedef struct cc_hb_side {
    const cc_hb_op *op;
    uint32_t flags;        /* CC_ACCESS_FLAG_* of this side's access (0 for alloc/free ops) */
    uint64_t lo, hi;       /* this side's access range [lo, hi) */
} cc_hb_side;

typedef struct cc_hb_issue {
    uint32_t kind;         /* cc_hb_issue_kind */
    cc_hb_side cur;        /* the access being applied now */
    cc_hb_side prev;       /* the earlier access, or the free/alloc op */
    uint64_t lo, hi;       /* the bytes both touch */
    const cc_hb_alloc_info *alloc; /* NULL outside known allocations */
    int python;            /* the program is a Python program (PyTorch advice applies) */
    int multi_device;      /* the program used several devices: name each stream's device */
} cc_hb_issue;

/* --mode: which access sets are used. */
typedef enum cc_hb_mode {
    CC_HB_MODE_DEFAULT = 0, /* instrumented and learned sets; inferred ones where none */
    CC_HB_MODE_FULL = 1,    /* instrumented sets only (inferred ones for graph kernel nodes) */
    CC_HB_MODE_API = 2,     /* sets inferred from pointer arguments only */
} cc_hb_mode;

typedef struct cc_hb_config {
    uint32_t mode;                /* cc_hb_mode */
    int merge_host_threads;       /* treat all host threads as one (orders them by event order) */
    int sync_copies_full;         /* every synchronous copy waits for its completion (CuSan's
                                     assumption; not guaranteed for pageable H2D) */
    void (*on_issue)(void *ctx, const cc_hb_issue *issue);
    void *ctx;
    int library_issues;           /* also report issues inside a library (see library_internal) */
} cc_hb_config;

typedef struct cc_hb_stats {
    uint64_t launches, copies, memsets, host_accesses, access_events, accesses_ignored;
    uint64_t graph_launches, graph_nodes, captured_ops, syncs, issues;
    uint64_t collectives;  /* NCCL operations */
    uint64_t by_source[4]; /* access events applied, by cc_access_source */
    /* Issues inside an NVIDIA library, by cc_nvlib, not reported: on memory the library
     * allocated for itself, with one side on a stream it created (library_issues reports them). */
    uint64_t library_internal[CC_NVLIB_COUNT];
    int out_of_memory;
} cc_hb_stats;

typedef struct cc_hb cc_hb;

cc_hb *cc_hb_new(const cc_hb_config *cfg); /* NULL when out of memory */
void cc_hb_event(cc_hb *hb, const cc_event *ev);
const cc_hb_stats *cc_hb_get_stats(const cc_hb *hb);
void cc_hb_free(cc_hb *hb);

#endif
