/* Internal state of the happens-before engine, shared by its files (not an interface):
 *  hb_streams.c what names a stream (context and handle), contexts and their devices, and
 *               streams destroyed while their work may still run;
 *  hb_actors.c  host threads, events, graph executions and the ordering rules;
 *  hb_ops.c     operations (reference-counted snapshots) and the recent-launch index;
 *  hb_shadow.c  allocations and the access records kept per byte range, conflict checks;
 *  hb_copy.c    what copies and memsets touch and how they order the host;
 *  hb_collective.c NCCL operations: what they read and write on their stream;
 *  hb_engine.c  the event dispatcher. */
#ifndef CUCHECK_CORE_HB_INTERNAL_H
#define CUCHECK_CORE_HB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "core/hb_engine.h"
#include "core/strtab.h"

#define HB_LAUNCH_RING 16384u  /* access events may name one of the last this many launches */
#define HB_HOSTFN_RING 256u
#define HB_PAIR_MEMORY 64u     /* recent (op, op, allocation) reports: each reported once */
#define HB_MAX_ROWS 1024u      /* 2D/3D copies with more rows are tracked by their bounding range */

typedef enum hb_actor_type { HB_ACTOR_STREAM, HB_ACTOR_THREAD, HB_ACTOR_GNODE } hb_actor_type;

typedef struct hb_stream {
    uint64_t context, handle;
    uint32_t tid;           /* per-thread default streams: the owning thread */
    int32_t device;
    int non_blocking, legacy, per_thread;
    int created;            /* a STREAM_CREATE named it (found by handle from any context) */
    uint32_t library;       /* cc_nvlib whose code created it */
    uint64_t capture;       /* id of the capture it records into; 0 = executes */
    uint32_t actor;
    cc_hb_vc vc;
} hb_stream;

typedef struct hb_thread {
    uint32_t tid;
    uint32_t actor;
    cc_hb_vc vc;
} hb_thread;

typedef struct hb_event {
    uint64_t id;
    int recorded;
    uint64_t capture;       /* recorded into this capture (not executed) */
    cc_hb_vc vc;
} hb_event;

typedef struct hb_gnode {   /* one node of an executable graph */
    uint64_t node;
    uint32_t actor;
    uint64_t run;           /* the graph run it last executed in */
    uint32_t ndeps;
    uint64_t *deps;
    int defined;            /* a graph_node event gave its dependencies */
    cc_hb_vc vc;
} hb_gnode;

typedef struct hb_graph {
    uint64_t exec;
    uint64_t run;           /* runs so far */
    uint64_t stream;        /* stream of the current run */
    uint64_t context;
    uint32_t tid;
    int has_dag;
    cc_hb_vc base;          /* clock at the current run's launch */
    cc_hb_vc seq;           /* last node of the run (when the DAG is unknown) */
    cc_hb_vc end;           /* all nodes of the runs so far */
    hb_gnode *nodes;
    size_t nnodes, cap;
} hb_graph;

typedef struct hb_record {  /* one access kept for a byte range */
    uint64_t lo, hi;
    uint32_t flags;
    cc_hb_op *op;
} hb_record;

typedef struct hb_alloc {
    cc_hb_alloc_info info;
    int known;              /* 0: the bucket of addresses outside every allocation */
    cc_hb_op *alloc_op;     /* cudaMallocAsync */
    cc_hb_op *freed_op;     /* cudaFreeAsync (the range is freed) */
    hb_record *recs;
    size_t nrecs, cap;
} hb_alloc;

typedef struct hb_ctxdev {  /* a context (0: events that name none) and its device */
    uint64_t context;
    int32_t device;
    int known;              /* a CONTEXT_CREATE gave its device */
    cc_hb_vc retired_all;   /* work of its destroyed streams (device synchronizations) */
    cc_hb_vc retired_blocking; /* ... of its destroyed blocking streams (legacy stream) */
} hb_ctxdev;

typedef struct hb_devbar {  /* the barrier a copy between devices in the NULL stream left */
    int32_t device;
    cc_hb_vc vc;            /* later work of every stream of the device is ordered after it */
} hb_devbar;

struct cc_hb {
    cc_hb_config cfg;
    cc_hb_stats stats;
    uint32_t nactors;
    uint64_t next_seq, next_capture;
    hb_stream *streams; size_t nstreams, cap_streams;
    hb_thread *threads; size_t nthreads, cap_threads;
    hb_event *events; size_t nevents, cap_events;
    hb_graph *graphs; size_t ngraphs, cap_graphs;
    hb_ctxdev *ctxdev; size_t nctxdev, cap_ctxdev;
    hb_devbar *devbars; size_t ndevbars, cap_devbars;
    hb_alloc *allocs; size_t nallocs, cap_allocs; /* sorted by base, no overlaps */
    hb_alloc wild;
    cc_hb_op *launch_ring[HB_LAUNCH_RING];
    cc_hb_op *hostfn_ring[HB_HOSTFN_RING];
    uint32_t hostfn_next;
    uint64_t pairs[HB_PAIR_MEMORY][3]; /* op seq, op seq, allocation base */
    uint32_t pair_next;
    int python;
    cc_strtab *names; /* kernel names of ops, one copy each (a launch no longer copies one) */
};

/* ---- hb_streams.c ---- */
void cc_hb_note_context(cc_hb *hb, uint64_t context, int32_t device);
/* The context's entry (made on first use; NULL when out of memory), or NULL if unknown. */
hb_ctxdev *cc_hb_ctxdev(cc_hb *hb, uint64_t context);
const hb_ctxdev *cc_hb_ctxdev_find(const cc_hb *hb, uint64_t context);
/* The stream an event names, made on first use. Explicit streams are keyed by (context,
 * handle); an event whose context has no stream of that handle finds one that a STREAM_CREATE
 * made in another context, or one whose context is unknown (0), or any when the event names no
 * context. The legacy stream is one per context, the per-thread stream one per context and
 * thread. */
hb_stream *cc_hb_stream(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid);
/* STREAM_CREATE: the stream of (context, handle) in that context only (a new one if none). */
hb_stream *cc_hb_stream_create(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid);
/* STREAM_DESTROY: the handle no longer names the stream (it may come back for a new one); its
 * work still counts for its context's synchronizations and legacy-stream barriers. */
void cc_hb_stream_destroy(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid);
/* 1 if the program used more than one device (reports then name each stream's device). */
int cc_hb_multi_device(const cc_hb *hb, const cc_hb_op *a, const cc_hb_op *b);
void cc_hb_free_streams(cc_hb *hb);

/* ---- hb_actors.c ---- */
hb_thread *cc_hb_thread(cc_hb *hb, uint32_t tid);
hb_event *cc_hb_find_event(cc_hb *hb, uint64_t id, int create);
void cc_hb_forget_event(cc_hb *hb, uint64_t id);
/* The implicit orderings a new operation on s gets (legacy and device barriers, issuing
 * thread). */
void cc_hb_prepare(cc_hb *hb, hb_stream *s, hb_thread *t);
/* A copy between devices in the NULL stream (cudaMemcpyPeer), in two steps around making its
 * operation on s: s takes all earlier work of every stream of the devices, then the devices'
 * later work is held behind op (a barrier like the legacy stream's, over every stream). */
void cc_hb_devices_before(cc_hb *hb, hb_stream *s, const int32_t *devices, size_t n);
void cc_hb_devices_after(cc_hb *hb, const cc_hb_op *op, const int32_t *devices, size_t n);
/* Host thread t learns that everything ordered before s's latest work is done (stream
 * synchronize, successful query); for the legacy stream also the blocking streams' work. */
void cc_hb_host_waits_stream(cc_hb *hb, hb_thread *t, hb_stream *s);
/* Host thread t waits for every stream of a context (or of a device when context is 0). */
void cc_hb_host_waits_device(cc_hb *hb, hb_thread *t, uint64_t context, int32_t device);
void cc_hb_capture_begin(cc_hb *hb, hb_stream *s);
void cc_hb_capture_end(cc_hb *hb, hb_stream *s);
hb_graph *cc_hb_graph(cc_hb *hb, uint64_t exec, int create);
hb_gnode *cc_hb_gnode(cc_hb *hb, hb_graph *g, uint64_t node);
uint32_t cc_hb_new_actor(cc_hb *hb);
void cc_hb_free_actors(cc_hb *hb);

/* ---- hb_ops.c ---- */
/* A new operation on stream s (tick s, snapshot), on thread t (host ops), or on graph node n. */
cc_hb_op *cc_hb_op_on_stream(cc_hb *hb, hb_stream *s, uint32_t kind, uint32_t tid);
cc_hb_op *cc_hb_op_on_thread(cc_hb *hb, hb_thread *t, uint32_t kind);
cc_hb_op *cc_hb_op_on_actor(cc_hb *hb, uint32_t actor, cc_hb_vc *vc, uint32_t kind);
void cc_hb_op_ref(cc_hb_op *op);
void cc_hb_op_unref(cc_hb_op *op);
void cc_hb_remember_launch(cc_hb *hb, cc_hb_op *op);
cc_hb_op *cc_hb_find_launch(cc_hb *hb, uint64_t launch_id);
void cc_hb_remember_hostfn(cc_hb *hb, cc_hb_op *op);
cc_hb_op *cc_hb_find_hostfn(cc_hb *hb, uint64_t userdata);
void cc_hb_free_ops(cc_hb *hb);

/* ---- hb_shadow.c ---- */
/* Apply an access of op to [lo, lo+size): check it against what is recorded, then record it. */
void cc_hb_access(cc_hb *hb, cc_hb_op *op, uint64_t lo, uint64_t size, uint32_t flags);
void cc_hb_alloc_add(cc_hb *hb, const cc_ev_alloc *a, cc_hb_op *alloc_op);
/* A free: check unordered accesses against op (if op), then drop or mark the range. */
void cc_hb_alloc_free(cc_hb *hb, uint64_t address, cc_hb_op *op, int async);
const hb_alloc *cc_hb_alloc_find(const cc_hb *hb, uint64_t address);
void cc_hb_free_shadow(cc_hb *hb);

/* ---- hb_engine.c ---- */
/* If exec has a run in progress, make the operation of one of its nodes on the node's actor
 * (ordered after the run's launch and the node's dependencies) and return 1; else 0. */
int cc_hb_graph_node_op(cc_hb *hb, uint64_t exec, uint64_t node, uint32_t kind, cc_hb_op **op);

/* ---- hb_copy.c ---- */
void cc_hb_memcpy(cc_hb *hb, const cc_event *ev);
void cc_hb_memset(cc_hb *hb, const cc_event *ev);

/* ---- hb_collective.c ---- */
void cc_hb_collective(cc_hb *hb, const cc_event *ev);

#endif
