/* cucheck public event model: the normalized events every backend emits and every tool consumes.
 *
 * An event is a small tagged struct. Strings and arrays inside an event are borrowed: they stay
 * valid only while the consumer's on_event callback runs (a consumer that keeps one copies it).
 * Handles (context, stream, event, module, function, graph) are opaque 64-bit ids that are unique
 * for the lifetime of the process; 0 means "none" except for streams, where CC_STREAM_LEGACY (0)
 * and CC_STREAM_PER_THREAD (2) name CUDA's two implicit default streams. */
#ifndef CUCHECK_EVENT_H
#define CUCHECK_EVENT_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CC_STREAM_LEGACY 0u     /* the legacy NULL stream (cudaStreamLegacy) */
#define CC_STREAM_PER_THREAD 2u /* the per-thread default stream (cudaStreamPerThread) */

/* Every event kind. Values are part of the .cuevt format: append, never renumber. */
typedef enum cc_event_kind {
    CC_EV_NONE = 0,
    CC_EV_PROCESS_START = 1,   /* first event of a process */
    CC_EV_PROCESS_EXIT = 2,    /* last event of a process (normal exit, signal or abort) */
    CC_EV_DEVICE = 3,          /* a device became visible (ordinal, name, compute capability) */
    CC_EV_CONTEXT_CREATE = 4,
    CC_EV_CONTEXT_DESTROY = 5,
    CC_EV_MODULE_LOAD = 6,     /* a module (cubin) was loaded into a context */
    CC_EV_MODULE_UNLOAD = 7,
    CC_EV_FUNCTION = 8,        /* a kernel function of a module became known (lazy loading too) */
    CC_EV_ALLOC = 9,           /* memory of any kind was allocated or mapped */
    CC_EV_FREE = 10,           /* ... freed or unmapped */
    CC_EV_STREAM_CREATE = 11,
    CC_EV_STREAM_DESTROY = 12,
    CC_EV_EVENT_CREATE = 13,
    CC_EV_EVENT_DESTROY = 14,
    CC_EV_EVENT_RECORD = 15,   /* cudaEventRecord(event, stream) */
    CC_EV_EVENT_WAIT = 16,     /* cudaStreamWaitEvent(stream, event) */
    CC_EV_EVENT_SYNC = 17,     /* the wait of cudaEventSynchronize(event) ended (see below) */
    CC_EV_EVENT_QUERY = 18,    /* cudaEventQuery(event) returned; result says if complete */
    CC_EV_STREAM_SYNC = 19,    /* the wait of cudaStreamSynchronize(stream) ended (see below) */
    CC_EV_STREAM_QUERY = 20,   /* cudaStreamQuery(stream) returned; result says if idle */
    CC_EV_CONTEXT_SYNC = 21,   /* the wait of cuCtxSynchronize ended (see below) */
    CC_EV_DEVICE_SYNC = 22,    /* the wait of cudaDeviceSynchronize ended (see below) */
    CC_EV_LAUNCH = 23,         /* a kernel launch (any API, graph nodes included) */
    CC_EV_MEMCPY = 24,
    CC_EV_MEMSET = 25,
    CC_EV_GRAPH_LAUNCH = 26,   /* cudaGraphLaunch(exec, stream) */
    CC_EV_GRAPH_NODE = 27,     /* one node of an executable graph, with its dependencies */
    CC_EV_HOST_FUNC = 28,      /* cudaLaunchHostFunc / cuLaunchHostFunc / stream callback */
    CC_EV_API_ERROR = 29,      /* a CUDA API call returned an error */
    CC_EV_HOST_STACK = 30,     /* defines a host call-stack id used by other events' callsite */
    CC_EV_ACCESS = 31,         /* memory a launch (or the host) accessed; arrives after the launch */
    /* 32..39: the profile backend (CUPTI activity). */
    CC_EV_KERNEL_ACTIVITY = 32, /* a kernel ran on the GPU: start/end on the host clock */
    CC_EV_COPY_ACTIVITY = 33,   /* a memcpy or memset ran on the GPU */
    CC_EV_API_CALL = 34,        /* a runtime/driver API call, with its duration and result */
    CC_EV_NVTX_RANGE = 35,      /* an NVTX range (push/pop or start/end) ended */
    CC_EV_SYNC_ACTIVITY = 36,   /* the host waited for a stream, event or context */
    CC_EV_CLOCK_SYNC = 37,      /* wall clock and monotonic clock read at the same moment */
    CC_EV_DEVICE_LIMITS = 38,   /* per-SM limits of a device (occupancy inputs) */
    CC_EV_ACTIVITY_LOST = 39,   /* the backend dropped activity records */
    CC_EV_CAPTURE_BEGIN = 40,  /* cudaStreamBeginCapture(stream): later work on it is captured */
    CC_EV_CAPTURE_END = 41,    /* cudaStreamEndCapture(stream) returned */
    CC_EV_DEVICE_ACCESS_ERROR = 42, /* memcheck: an invalid device access found by the patches */
    CC_EV_DEVICE_FAULT = 43,   /* the GPU core dump of a device exception: grid, block, thread, pc */
    CC_EV_LAUNCH_PROGRESS = 44, /* at a sticky error: a tracked launch the GPU had not finished */
    CC_EV_LAUNCH_CHECKED = 45, /* every device result of an instrumented launch was delivered */
    CC_EV_MODULE_VAR = 46,     /* a global variable of a loaded module, with its device address */
    CC_EV_SUBALLOC = 47,       /* a sub-allocator's heap or region changed (NVTX memory API, PyTorch) */
    CC_EV_DEVICE_RACE = 48,    /* racecheck: a data race inside one launch, found on the device */
    CC_EV_DEVICE_SYNC_ERROR = 49, /* synccheck: a barrier, __syncwarp or shuffle misused, on the device */
    CC_EV_DEVICE_UNINIT_READ = 50, /* initcheck: a device read of bytes nothing wrote */
    CC_EV_INIT_WRITE = 51,     /* initcheck: bytes a checked launch wrote (uninitialised before) */
    CC_EV_COLLECTIVE = 52,     /* an NCCL collective or send/recv enqueued on a stream */
    CC_EV_KIND_COUNT
} cc_event_kind;
/* The *_SYNC events are reported when the driver's wait ends, also when it ends with an error
 * (a kernel faulted): the call failed if an API_ERROR of the same thread follows before the
 * thread's next CUDA call. The same holds for synchronous copies and memsets. */

/* How a process ended (CC_EV_PROCESS_EXIT). */
typedef enum cc_exit_reason {
    CC_EXIT_NORMAL = 0, /* exit() or return from main */
    CC_EXIT_FAST = 1,   /* _exit(): no atexit handlers ran */
    CC_EXIT_SIGNAL = 2, /* a fatal signal */
    CC_EXIT_ABORT = 3,  /* abort() */
} cc_exit_reason;

/* NVIDIA libraries whose own streams and memory the agent recognises (by the shared object
 * that made the call): a race on memory a library allocated for itself, with one side on a
 * stream that library created, is the library's own business (streamcheck counts, not reports,
 * such races). */
typedef enum cc_nvlib {
    CC_NVLIB_NONE = 0,    /* the program, or a library not listed here */
    CC_NVLIB_CUDNN = 1,   /* libcudnn*.so */
    CC_NVLIB_CUBLAS = 2,  /* libcublas.so, libcublasLt.so */
    CC_NVLIB_CUFFT = 3,   /* libcufft*.so */
    CC_NVLIB_CUSPARSE = 4, /* libcusparse*.so */
    CC_NVLIB_CUSOLVER = 5, /* libcusolver*.so */
    CC_NVLIB_CURAND = 6,  /* libcurand*.so */
    CC_NVLIB_NCCL = 7,    /* libnccl*.so */
    CC_NVLIB_COUNT
} cc_nvlib;

/* Kinds of memory, for allocations and for the two ends of a copy. */
typedef enum cc_mem_kind {
    CC_MEM_UNKNOWN = 0,
    CC_MEM_DEVICE = 1,       /* cudaMalloc / cuMemAlloc */
    CC_MEM_DEVICE_ASYNC = 2, /* cudaMallocAsync / cudaMallocFromPoolAsync (stream-ordered) */
    CC_MEM_MANAGED = 3,      /* cudaMallocManaged */
    CC_MEM_HOST_PINNED = 4,  /* cudaMallocHost / cudaHostAlloc / cudaHostRegister */
    CC_MEM_HOST_MAPPED = 5,  /* pinned and mapped into the device address space */
    CC_MEM_VIRTUAL_RESERVE = 6, /* cuMemAddressReserve: address range only */
    CC_MEM_VIRTUAL_MAP = 7,  /* cuMemMap of physical memory into a reserved range */
    CC_MEM_HOST_PAGEABLE = 8, /* ordinary host memory (only as an end of a copy) */
    CC_MEM_ARRAY = 9,        /* a CUDA array */
    CC_MEM_MODULE_GLOBAL = 10, /* a __device__ variable of a loaded module */
    CC_MEM_KIND_COUNT
} cc_mem_kind;

/* Direction of a copy, as the API stated it. */
typedef enum cc_copy_dir {
    CC_COPY_UNKNOWN = 0,
    CC_COPY_H2H = 1,
    CC_COPY_H2D = 2,
    CC_COPY_D2H = 3,
    CC_COPY_D2D = 4,
    CC_COPY_DEFAULT = 5, /* cudaMemcpyDefault: inferred from unified addressing */
    CC_COPY_PEER = 6,    /* between devices */
} cc_copy_dir;

/* Kinds of graph nodes (CC_EV_GRAPH_NODE). */
typedef enum cc_graph_node_type {
    CC_GNODE_OTHER = 0,
    CC_GNODE_KERNEL = 1,
    CC_GNODE_MEMCPY = 2,
    CC_GNODE_MEMSET = 3,
    CC_GNODE_HOST = 4,
    CC_GNODE_EMPTY = 5,
    CC_GNODE_EVENT_RECORD = 6,
    CC_GNODE_EVENT_WAIT = 7,
    CC_GNODE_MEM_ALLOC = 8,
    CC_GNODE_MEM_FREE = 9,
    CC_GNODE_CHILD_GRAPH = 10,
} cc_graph_node_type;

/* Fields common to every event. */
typedef struct cc_event_header {
    uint32_t kind;      /* cc_event_kind */
    uint32_t tid;       /* host thread id (gettid) of the thread the event happened on */
    uint64_t timestamp; /* monotonic clock, nanoseconds */
} cc_event_header;

typedef struct cc_ev_process_start {
    uint32_t pid;
    uint32_t ppid;
    const char *argv0;  /* program path */
    const char *tool;   /* the tool that ran ("run", "memcheck", ...) */
    const char *version; /* cucheck version that wrote the stream */
} cc_ev_process_start;

typedef struct cc_ev_process_exit {
    uint32_t reason; /* cc_exit_reason */
    int32_t code;    /* exit status, or the signal number for CC_EXIT_SIGNAL */
} cc_ev_process_exit;

typedef struct cc_ev_device {
    int32_t ordinal;
    uint32_t cc_major, cc_minor;
    uint32_t sm_count;
    uint64_t total_mem;
    const char *name;
} cc_ev_device;

typedef struct cc_ev_context {
    uint64_t context;
    int32_t device;
} cc_ev_context;

typedef struct cc_ev_module {
    uint64_t context;
    uint64_t module;
    uint64_t cubin_size;   /* bytes of the cubin image the driver loaded */
    const char *cubin_ref; /* where the cubin is kept (file path, or "" if not saved) */
} cc_ev_module;

typedef struct cc_ev_function {
    uint64_t module;
    uint64_t function;
    uint64_t pc;        /* device address of the function's first instruction, 0 if unknown */
    uint64_t size;      /* size of the function's code in bytes, 0 if unknown */
    const char *name;   /* mangled name */
} cc_ev_function;

typedef struct cc_ev_alloc {
    uint64_t context;
    int32_t device;
    uint32_t mem_kind;  /* cc_mem_kind */
    uint64_t address;
    uint64_t size;
    uint64_t stream;    /* stream-ordered allocations; 0 otherwise */
    uint64_t pool;      /* memory pool handle for pool allocations; 0 otherwise */
    uint64_t callsite;  /* host stack id (CC_EV_HOST_STACK), 0 if none */
    uint32_t library;   /* cc_nvlib: the NVIDIA library whose code allocated it, for itself
                           (appended) */
} cc_ev_alloc;

typedef struct cc_ev_free {
    uint64_t context;
    int32_t device;
    uint32_t mem_kind;
    uint64_t address;
    uint64_t size;      /* size of the freed allocation if known, else 0 */
    uint64_t stream;    /* cudaFreeAsync stream; 0 otherwise */
    uint64_t callsite;
} cc_ev_free;

#define CC_STREAM_FLAG_NON_BLOCKING 0x1u

typedef struct cc_ev_stream {
    uint64_t context;
    uint64_t stream;
    uint32_t flags;     /* CC_STREAM_FLAG_* */
    int32_t priority;
    uint32_t library;   /* cc_nvlib: the NVIDIA library whose code created it (appended) */
} cc_ev_stream;

#define CC_EVENT_FLAG_BLOCKING_SYNC 0x1u
#define CC_EVENT_FLAG_DISABLE_TIMING 0x2u
#define CC_EVENT_FLAG_INTERPROCESS 0x4u

/* Used by EVENT_CREATE/DESTROY/RECORD/WAIT/SYNC/QUERY. */
typedef struct cc_ev_event {
    uint64_t context;
    uint64_t event;
    uint64_t stream;    /* RECORD: recording stream; WAIT: waiting stream; else 0 */
    uint32_t flags;     /* CREATE: CC_EVENT_FLAG_*; else 0 */
    int32_t result;     /* QUERY: 0 = complete, 1 = not ready; else 0 */
} cc_ev_event;

/* Used by STREAM_SYNC/STREAM_QUERY/CONTEXT_SYNC/DEVICE_SYNC. */
typedef struct cc_ev_sync {
    uint64_t context;
    int32_t device;
    int32_t result;     /* STREAM_QUERY: 0 = idle, 1 = not ready */
    uint64_t stream;    /* STREAM_*: the stream; else 0 */
} cc_ev_sync;

#define CC_LAUNCH_FLAG_COOPERATIVE 0x1u
#define CC_LAUNCH_FLAG_GRAPH_NODE 0x2u  /* launched as a node of graph_exec */
#define CC_LAUNCH_FLAG_INSTRUMENTED 0x4u /* the launch ran with device-side checks; its results
                                          * (DEVICE_ACCESS_ERROR, ACCESS) come later, closed by a
                                          * CC_EV_LAUNCH_CHECKED */
#define CC_LAUNCH_FLAG_PROGRESS 0x8u /* the device reports when all its threads exited (see
                                      * CC_EV_LAUNCH_PROGRESS) */
#define CC_LAUNCH_FLAG_REPEAT 0x10u /* ran unchecked as a repeat of a checked launch: the same
                                     * kernel, shape, argument values and allocations behind
                                     * them (memcheck adaptive mode) */

typedef struct cc_ev_launch {
    uint64_t context;
    int32_t device;
    uint32_t flags;        /* CC_LAUNCH_FLAG_* */
    uint64_t module;
    uint64_t function;
    const char *name;      /* mangled kernel name */
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t cluster[3];   /* 0,0,0 when no cluster was requested */
    uint32_t dynamic_smem; /* bytes */
    uint64_t stream;
    uint64_t launch_id;    /* process-wide launch counter, starting at 1 */
    uint64_t callsite;     /* host stack id */
    uint64_t graph_exec;   /* for graph nodes: the executable graph; else 0 */
    uint64_t graph_node;   /* for graph nodes: the node id; else 0 */
    uint64_t grid_id;      /* the driver's grid id (Sanitizer gridId; GPU core dumps name the
                            * faulting grid by it); 0 if unknown. Graph nodes: unique only
                            * within one launch of the graph */
} cc_ev_launch;

#define CC_COPY_FLAG_ASYNC 0x1u
#define CC_COPY_FLAG_GRAPH_NODE 0x2u
#define CC_COPY_FLAG_PEER_SYNC 0x4u /* memcpy: made by the synchronous cudaMemcpyPeer,
                                     * cudaMemcpy3DPeer, cuMemcpyPeer or cuMemcpy3DPeer, which
                                     * CUDA serializes with all work of the current, source and
                                     * destination devices; the event's context is the current
                                     * device's (the legacy stream's) */

typedef struct cc_ev_memcpy {
    uint64_t context;
    uint32_t direction;   /* cc_copy_dir */
    uint32_t flags;       /* CC_COPY_FLAG_* */
    uint32_t src_kind;    /* cc_mem_kind */
    uint32_t dst_kind;
    uint64_t src;
    uint64_t dst;
    uint64_t size;        /* bytes in total */
    uint64_t width, height, depth;  /* 2D/3D copies (bytes per row, rows, slices); 0 for 1D */
    uint64_t src_pitch, dst_pitch;
    uint64_t stream;
    uint64_t callsite;
    uint64_t graph_exec, graph_node;
} cc_ev_memcpy;

typedef struct cc_ev_memset {
    uint64_t context;
    uint32_t flags;       /* CC_COPY_FLAG_* */
    uint32_t element_size; /* 1, 2 or 4 */
    uint32_t value;
    uint32_t mem_kind;
    uint64_t dst;
    uint64_t size;        /* bytes in total */
    uint64_t width, height, pitch; /* 2D memsets; 0 for 1D */
    uint64_t stream;
    uint64_t callsite;
    uint64_t graph_exec, graph_node;
} cc_ev_memset;

typedef struct cc_ev_graph_launch {
    uint64_t context;
    uint64_t graph_exec;
    uint64_t stream;
    uint64_t launch_id;
    uint64_t callsite;
} cc_ev_graph_launch;

typedef struct cc_ev_graph_node {
    uint64_t graph_exec;
    uint64_t node;
    uint32_t type;         /* cc_graph_node_type */
    uint32_t ndeps;
    const uint64_t *deps;  /* ids of nodes this one depends on */
} cc_ev_graph_node;

typedef struct cc_ev_host_func {
    uint64_t context;
    uint64_t stream;
    uint64_t fn;           /* host function address */
    uint64_t userdata;
    uint64_t callsite;
} cc_ev_host_func;

#define CC_API_RUNTIME 1u
#define CC_API_DRIVER 2u

typedef struct cc_ev_api_error {
    uint32_t api;          /* CC_API_* */
    int32_t code;          /* cudaError_t / CUresult */
    const char *function;  /* API function name, e.g. "cudaMemcpy" */
    const char *error_name;   /* e.g. "cudaErrorIllegalAddress" */
    const char *error_string; /* human text */
    uint64_t callsite;
} cc_ev_api_error;

typedef struct cc_stack_frame {
    uint64_t pc;
    const char *text;      /* symbolized frame ("train.py:42 in step", "main+0x1c (a.cu:10)") */
} cc_stack_frame;

typedef struct cc_ev_host_stack {
    uint64_t id;           /* referenced by callsite fields; never 0 */
    uint32_t nframes;
    const cc_stack_frame *frames; /* innermost first */
} cc_ev_host_stack;

/* ---- profile backend (CUPTI activity) events. GPU start/end times are on the clock of event
 * timestamps (host CLOCK_MONOTONIC, ns); the header's timestamp is when the backend delivered
 * the record, its tid the host thread (API_CALL, NVTX_RANGE, SYNC_ACTIVITY) or 0. Streams here
 * are the backend's stream ids (unique per context), correlations the ids CUPTI gives an API
 * call and the GPU work it started (a graph launch and all its nodes share one). ---- */
typedef struct cc_ev_kernel_activity {
    uint64_t start, end;
    int32_t device;
    uint32_t registers;     /* per thread */
    uint64_t context;
    uint64_t stream;
    uint64_t correlation;   /* of the API_CALL that launched it */
    const char *name;       /* mangled kernel name */
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t cluster[3];    /* 0,0,0 without clusters */
    uint32_t static_smem;   /* bytes per block */
    uint32_t dynamic_smem;  /* bytes per block */
    uint32_t local_mem;     /* bytes per thread */
    uint32_t smem_config;   /* shared memory per SM the driver configured, bytes; 0 if unknown */
    uint64_t graph;         /* graph id for kernels of a graph launch; else 0 */
    uint64_t graph_node;
} cc_ev_kernel_activity;

#define CC_COPY_OP_MEMCPY 1u
#define CC_COPY_OP_MEMSET 2u

typedef struct cc_ev_copy_activity {
    uint64_t start, end;
    int32_t device;
    uint32_t op;            /* CC_COPY_OP_* */
    uint32_t direction;     /* cc_copy_dir (memcpy) */
    uint32_t src_kind;      /* cc_mem_kind (memcpy) */
    uint32_t dst_kind;      /* cc_mem_kind (memcpy destination, memset target) */
    uint32_t value;         /* memset value */
    uint64_t bytes;
    uint64_t context;
    uint64_t stream;
    uint64_t correlation;
    uint64_t graph, graph_node;
} cc_ev_copy_activity;

typedef struct cc_ev_api_call {
    uint64_t start, end;
    uint32_t api;           /* CC_API_* */
    uint32_t cbid;          /* CUPTI callback id of the function */
    const char *function;   /* "cudaLaunchKernel", "cuLaunchKernel", ... */
    uint64_t correlation;
    int32_t result;         /* cudaError_t / CUresult */
} cc_ev_api_call;

typedef struct cc_ev_nvtx_range {
    uint64_t start, end;
    uint64_t id;            /* the range id (push/pop ranges too) */
    uint32_t end_tid;       /* thread that ended it (the header tid started it) */
    const char *domain;     /* "" for the default domain */
    const char *name;
} cc_ev_nvtx_range;

/* Values of cc_ev_sync_activity.type (those of CUPTI). */
#define CC_SYNC_EVENT 1u             /* cudaEventSynchronize */
#define CC_SYNC_STREAM_WAIT_EVENT 2u /* cudaStreamWaitEvent */
#define CC_SYNC_STREAM 3u            /* cudaStreamSynchronize */
#define CC_SYNC_CONTEXT 4u           /* cudaDeviceSynchronize / cuCtxSynchronize */

typedef struct cc_ev_sync_activity {
    uint64_t start, end;
    uint32_t type;          /* CC_SYNC_* */
    int32_t result;
    uint64_t context;
    uint64_t stream;
    uint64_t event;         /* CUDA event id for EVENT / STREAM_WAIT_EVENT */
    uint64_t correlation;
} cc_ev_sync_activity;

typedef struct cc_ev_clock_sync {
    uint64_t wall_ns;       /* CLOCK_REALTIME, ns since the Unix epoch */
    uint64_t mono_ns;       /* CLOCK_MONOTONIC at the same moment */
    int32_t rank;           /* RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID or PMI_RANK; -1 if none */
    const char *host;       /* host name */
} cc_ev_clock_sync;

typedef struct cc_ev_device_limits {
    int32_t ordinal;
    uint32_t cc_major, cc_minor;
    uint32_t sm_count;
    uint32_t warp_size;
    uint32_t max_threads_per_block;
    uint32_t max_warps_per_sm;
    uint32_t max_blocks_per_sm;
    uint32_t regs_per_block;
    uint32_t regs_per_sm;
    uint32_t smem_per_block; /* bytes */
    uint32_t smem_per_sm;    /* bytes */
    const char *name;
} cc_ev_device_limits;

typedef struct cc_ev_activity_lost {
    uint64_t context;
    uint64_t dropped;       /* records lost */
    const char *reason;
} cc_ev_activity_lost;

/* ---- stream-ordering checks (streamcheck) ---- */
#define CC_ACCESS_FLAG_READ 0x1u
#define CC_ACCESS_FLAG_WRITE 0x2u
#define CC_ACCESS_FLAG_ATOMIC 0x4u
#define CC_ACCESS_FLAG_HOST_FUNC 0x8u /* made by a host function; launch_id holds its userdata */
/* An inferred range of an instrumented launch: an allocation its pointer arguments point into
 * that none of its patched accesses touched (TMA loads and stores have no patch). */
#define CC_ACCESS_FLAG_UNTOUCHED 0x10u

/* Where an access set came from (cc_ev_access.source). */
typedef enum cc_access_source {
    CC_ACCESS_SRC_UNKNOWN = 0,
    CC_ACCESS_SRC_INSTRUMENTED = 1, /* gathered on the device during this launch */
    CC_ACCESS_SRC_LEARNED = 2,      /* applied from what earlier launches of the kernel did */
    CC_ACCESS_SRC_INFERRED = 3,     /* a pointer argument of the launch (may over-approximate) */
} cc_access_source;

/* One byte range a kernel launch read and/or wrote (CC_EV_ACCESS). It arrives after its launch
 * event (device buffers are drained later) and is applied with the launch's ordering at launch
 * time. launch_id 0 means an access by the host thread h.tid itself at this point of the stream
 * (host loads/stores seen by host-side instrumentation, MPI on a device buffer). Copies and
 * memsets get their access sets from their own arguments and need no access events. */
typedef struct cc_ev_access {
    uint64_t launch_id;    /* CC_EV_LAUNCH launch_id; 0: the host thread */
    uint64_t address;
    uint64_t size;         /* bytes */
    uint32_t flags;        /* CC_ACCESS_FLAG_* */
    uint32_t source;       /* cc_access_source */
} cc_ev_access;

/* CAPTURE_BEGIN / CAPTURE_END: work on a capturing stream (and on streams that joined its capture
 * by waiting on an event recorded in it) is recorded into a graph, not executed. */
typedef struct cc_ev_capture {
    uint64_t context;
    uint64_t stream;
    uint64_t graph;        /* END: the graph made (0 if none); BEGIN: 0 */
    uint32_t mode;         /* BEGIN: cudaStreamCaptureMode (0 global, 1 thread-local, 2 relaxed) */
    int32_t result;        /* END: 0 = success, else the CUDA error */
} cc_ev_capture;

/* ---- memcheck: device-side violations (CC_EV_DEVICE_ACCESS_ERROR) ---- */
/* What was wrong with an access (cc_ev_device_access_error.violation). */
#define CC_VIOLATION_OUT_OF_BOUNDS 1u /* global address in no live allocation */
#define CC_VIOLATION_MISALIGNED 2u    /* address not a multiple of the access size */
#define CC_VIOLATION_WINDOW 3u        /* shared/local offset past the window's size */
#define CC_VIOLATION_DEVICE_FREE_INVALID 4u /* device free() of a pointer malloc() never returned */
#define CC_VIOLATION_DEVICE_FREE_DOUBLE 5u  /* device free() of a device-heap block freed before */
#define CC_VIOLATION_HEAP_OVERRUN 6u  /* global address in the device heap, in no live block */
#define CC_VIOLATION_HEAP_FREED 7u    /* global address inside a freed device-heap block */

/* One deduplicated invalid access of one launch: `count` threads made it at the same pc with
 * the same violation; the block/thread/address/size are those of one of them (the first seen).
 * Emitted by the agent after the launch completed; file/line resolved from the cubin when it
 * carries line information (file "" and line 0 otherwise). */
typedef struct cc_ev_device_access_error {
    uint64_t launch_id;    /* CC_EV_LAUNCH launch_id */
    const char *kernel;    /* mangled kernel name */
    uint64_t pc;           /* offset from the kernel's first instruction */
    const char *file;
    uint32_t line;
    uint32_t block[3];
    uint32_t thread[3];
    uint64_t address;      /* global: device address; shared/local: offset in the window */
    uint32_t size;         /* bytes accessed */
    uint32_t flags;        /* CC_ACCESS_FLAG_* */
    uint32_t space;        /* cc_mem_space (cucheck/finding.h) */
    uint32_t violation;    /* CC_VIOLATION_* */
    uint64_t count;        /* threads that made this access (>= 1) */
} cc_ev_device_access_error;

/* ---- asynchronous errors: the device's own record of a fault (CC_EV_DEVICE_FAULT) ---- */
/* What the GPU core dump the driver wrote at a device exception says about the faulting thread
 * (the first lane with an exception; the warp's error PC). Emitted by the agent just before the
 * API_ERROR through which the sticky error surfaced. grid_id matches cc_ev_launch.grid_id. */
typedef struct cc_ev_device_fault {
    uint64_t grid_id;
    int32_t device;
    uint32_t exception;     /* CUDBGException_t code (14 warp illegal address, 12 assert, ...) */
    const char *exception_name; /* "Warp - Illegal address" */
    const char *kernel;     /* mangled name from the dump's module image ("" if not found) */
    uint64_t pc;            /* device address of the faulting instruction (0 if unknown) */
    uint64_t pc_offset;     /* from the kernel's first instruction */
    const char *file;       /* "" and line 0 without line information (-lineinfo) */
    uint32_t line;
    uint32_t block[3];
    uint32_t thread[3];     /* the faulting lane's thread index (0,0,0 if only the warp is known) */
    uint32_t grid[3];       /* the grid's shape as the dump gives it */
    uint32_t block_dim[3];
    uint32_t sm, warp, lane; /* lane 0xffffffff if only the warp is known */
    uint32_t host_tid;      /* host thread that launched the grid (0 if unknown) */
    uint32_t faulting_lanes; /* lanes with an exception in the dump */
    const char *dump;       /* path of the core dump file */
} cc_ev_device_fault;

/* ---- asynchronous errors: which launches the GPU had finished (CC_EV_LAUNCH_PROGRESS) ---- */
/* Launches flagged CC_LAUNCH_FLAG_PROGRESS run with block-entry and block-exit patches that mark
 * in host memory that the launch started and that all its threads exited. When the first sticky
 * error surfaces the agent reads those marks, before the API_ERROR:
 *  - one event per flagged launch that had not finished (launch_id, finished 0, started 0/1),
 *  - then one summary with launch_id 0: flagged launches with launch_id >= covered_from that
 *    were not listed had finished; finished counts them (above 0: the marks reach the host);
 *    older flagged launches are unknown. */
typedef struct cc_ev_launch_progress {
    uint64_t launch_id;     /* 0: the summary */
    uint32_t finished;      /* per launch: 0 (not finished); summary: flagged launches finished */
    uint64_t covered_from;  /* summary: lowest launch id the report covers */
    uint32_t started;       /* per launch: 1 if any of its blocks started */
} cc_ev_launch_progress;

/* ---- instrumented launches: their device results were read (CC_EV_LAUNCH_CHECKED) ---- */
/* The agent reads an instrumented launch's device records back late (at the program's
 * synchronizations, when its slots run short, at a sticky error, at exit), so thousands of
 * launches may come between a launch and its results. Once it has emitted every result of a
 * launch flagged CC_LAUNCH_FLAG_INSTRUMENTED (its DEVICE_ACCESS_ERROR events for memcheck, its
 * instrumented ACCESS events for streamcheck) it emits one LAUNCH_CHECKED: no result of that
 * launch follows, and a tool may forget what it kept for them. One event may say so for a run
 * of launches read together (last_id): the agent emits a run only where no instrumented launch
 * with an id inside it is still unread. */
#define CC_CHECKED_READ 0u /* the records were read */
#define CC_CHECKED_LOST 1u /* the records could not be read (context gone): none came */

typedef struct cc_ev_launch_checked {
    uint64_t launch_id;    /* CC_EV_LAUNCH launch_id (the run's first) */
    uint32_t errors;       /* DEVICE_ACCESS_ERROR events emitted for the launch (the run) */
    uint32_t result;       /* CC_CHECKED_* */
    uint64_t last_id;      /* 0 (or launch_id): this launch only; else every instrumented
                            * launch with an id in [launch_id, last_id] */
} cc_ev_launch_checked;

/* ---- module variables (CC_EV_MODULE_VAR) ---- */
/* One `__device__`, `__constant__` or `__managed__` variable of a loaded module: the agent is to
 * list them from the module's cubin (symbols/modvars.h) and ask the driver for each one's
 * address (cuModuleGetGlobal) at an API exit after the module loaded (not wired yet:
 * src/agent/tools/memcheck/mc_modvars.h). The variable lives until its module unloads
 * (CC_EV_MODULE_UNLOAD) or its context is destroyed. */
#define CC_MODVAR_FLAG_CONSTANT 0x1u /* `__constant__` (a constant bank) */
#define CC_MODVAR_FLAG_MANAGED 0x2u  /* `__managed__` */

typedef struct cc_ev_module_var {
    uint64_t context;
    uint64_t module;
    uint64_t address;      /* device address */
    uint64_t size;         /* bytes */
    uint32_t flags;        /* CC_MODVAR_FLAG_* */
    const char *name;      /* the symbol name in the cubin (mangled; what cuModuleGetGlobal
                            * takes) */
} cc_ev_module_var;

/* ---- sub-allocators (CC_EV_SUBALLOC) ---- */
/* Memory a program hands out in pieces from larger allocations: a heap covers a span of device
 * memory (one or more allocations, or part of one); while it is registered only its live regions
 * are valid, so an access inside the heap but outside every region is an error. Described by the
 * NVTX memory API (nvtxMemHeapRegister, nvtxMemRegionsRegister, ...) or by PyTorch's caching
 * allocator (segments and tensor blocks). A heap goes with its unregistration, or when the
 * allocation holding it is freed; its regions go with it. */
#define CC_SUBALLOC_OP_HEAP_REGISTER 1u     /* address, size: the heap's span */
#define CC_SUBALLOC_OP_HEAP_UNREGISTER 2u   /* the heap and its regions go */
#define CC_SUBALLOC_OP_HEAP_RESET 3u        /* every region of the heap goes; the heap stays */
#define CC_SUBALLOC_OP_REGION_REGISTER 4u   /* address, size: a region of the heap is valid */
#define CC_SUBALLOC_OP_REGION_RESIZE 5u     /* the region at address now has size bytes */
#define CC_SUBALLOC_OP_REGION_UNREGISTER 6u /* the region at address goes */
#define CC_SUBALLOC_SRC_NVTX 1u             /* the NVTX memory API */
#define CC_SUBALLOC_SRC_TORCH 2u            /* PyTorch's CUDA caching allocator */

typedef struct cc_ev_suballoc {
    uint32_t op;           /* CC_SUBALLOC_OP_* */
    uint32_t source;       /* CC_SUBALLOC_SRC_* */
    uint64_t heap;         /* the heap's id (never 0; unique in the process) */
    uint64_t address;      /* the heap's or the region's start */
    uint64_t size;         /* register/resize: bytes; 0 for the others */
    uint64_t callsite;     /* host stack id of the call (CC_EV_HOST_STACK), 0 if none */
} cc_ev_suballoc;

/* ---- racecheck: data races inside one launch (CC_EV_DEVICE_RACE) ---- */
/* Two accesses of one launch to the same bytes, at least one a plain write, from threads that
 * nothing orders: shared memory between warps with no barrier between them (or inside a warp
 * with no __syncwarp under independent thread scheduling), global memory between warps or blocks
 * with no atomic on both sides, no fence/acquire-release pairing and no grid-wide barrier.
 * Found by the device patches; the agent emits one event per hazard pair of a launch after the
 * launch completed (folding repeats into count), file/line resolved from the cubin ("" and 0
 * without line information). */
#define CC_RACE_RAW 1u /* read after write: the second access reads what the first wrote */
#define CC_RACE_WAR 2u /* write after read */
#define CC_RACE_WAW 3u /* write after write */
#define CC_RACE_FLAG_SAME_VALUE 0x1u  /* WAW whose writes stored the same value: a warning */
#define CC_RACE_FLAG_INTRA_WARP 0x2u  /* both sides in one warp, no __syncwarp between */
#define CC_RACE_FLAG_CLUSTER 0x4u     /* distributed shared memory of a thread-block cluster */

typedef struct cc_ev_race_side {
    uint64_t pc;           /* offset from the kernel's first instruction */
    const char *file;
    uint32_t line;
    uint32_t block[3];
    uint32_t thread[3];
    uint32_t size;         /* bytes accessed */
    uint32_t flags;        /* CC_ACCESS_FLAG_* (read, write, atomic) */
} cc_ev_race_side;

typedef struct cc_ev_device_race {
    uint64_t launch_id;    /* CC_EV_LAUNCH launch_id */
    const char *kernel;    /* mangled kernel name */
    uint32_t space;        /* cc_mem_space (cucheck/finding.h): shared or global */
    uint32_t kind;         /* CC_RACE_* */
    uint32_t flags;        /* CC_RACE_FLAG_* */
    uint64_t address;      /* global: device address; shared: offset in the block's window */
    cc_ev_race_side first;  /* the earlier access (from the shadow state) */
    cc_ev_race_side second; /* the access that found the hazard */
    uint64_t count;        /* hazards folded into this event (>= 1) */
} cc_ev_device_race;

/* ---- synccheck: synchronization misuse inside one launch (CC_EV_DEVICE_SYNC_ERROR) ---- */
/* A block barrier (__syncthreads), a __syncwarp or a warp shuffle that not every thread it
 * names takes part in, found by the device patches of one checked launch; the agent emits one
 * event per (pc, kind) of a launch after the launch completed (repeats folded into count),
 * file/line resolved from the cubin ("" and 0 without line information). */
#define CC_SYNC_WARP_DIVERGENT 1u  /* __syncthreads reached by part of a warp (the rest elsewhere) */
#define CC_SYNC_BLOCK_DIVERGENT 2u /* warps of one block at different __syncthreads in one round */
#define CC_SYNC_AFTER_EXIT 3u      /* __syncthreads of a block some of whose threads exited */
#define CC_SYNC_SYNCWARP_MASK 4u   /* __syncwarp(mask) naming threads that do not take part */
#define CC_SYNC_SHFL_MASK 5u       /* a shuffle naming (or run by) threads that do not take part */
#define CC_SYNC_FLAG_NOT_IN_MASK 0x1u  /* the calling thread is not in the mask */
#define CC_SYNC_FLAG_NO_THREAD 0x2u    /* the mask names lanes past the block's last thread */
#define CC_SYNC_FLAG_EXITED 0x4u       /* the mask names lanes that had exited */
#define CC_SYNC_FLAG_EXIT_WAITED 0x8u  /* named lanes exited while the others waited for them */
#define CC_SYNC_FLAG_MASK_UNKNOWN 0x10u /* shuffle: no mask seen; run by part of its warp (warning) */
#define CC_SYNC_FLAG_AT_EXIT 0x20u     /* after_exit: found when the thread exited (it named) while
                                        * others waited at the barrier (recordings of earlier
                                        * agents; today's patches find it at the barrier) */

typedef struct cc_ev_device_sync_error {
    uint64_t launch_id;    /* CC_EV_LAUNCH launch_id */
    const char *kernel;    /* mangled kernel name */
    uint32_t kind;         /* CC_SYNC_* */
    uint32_t flags;        /* CC_SYNC_FLAG_* */
    uint64_t pc;           /* the barrier, __syncwarp or shuffle: offset from the kernel's start */
    const char *file;
    uint32_t line;
    uint32_t block[3];
    uint32_t thread[3];    /* a thread that took part (at_exit: the thread that exited) */
    uint32_t mask;         /* __syncwarp/shuffle: the mask; barriers: the lanes of the warp there */
    uint32_t lanes;        /* the warp's lanes at fault (missing, exited, not named) */
    uint64_t other_pc;     /* block_divergent: the other warp's barrier (0: none) */
    const char *other_file;
    uint32_t other_line;
    uint32_t other_thread[3]; /* block_divergent: a thread at the other barrier */
    uint32_t exited;       /* after_exit: threads of the block that had exited */
    uint64_t count;        /* occurrences folded into this event (>= 1) */
} cc_ev_device_sync_error;

/* ---- initcheck: uninitialised device memory (CC_EV_DEVICE_UNINIT_READ, CC_EV_INIT_WRITE) ---- */
/* A checked launch gets the uninitialised byte ranges of its context's allocations and a write
 * bitmap over them. A read of such a byte whose bit is still clear is one DEVICE_UNINIT_READ
 * (folded per pc by the agent: count); after the launch the bitmap comes back as INIT_WRITE
 * ranges, which the tool marks initialised. Both are emitted after the launch completed, before
 * its LAUNCH_CHECKED, and before the program's next call is seen. */
#define CC_INIT_WRITE_ASSUMED 0x1u /* not observed: a range past the launch's bitmap, taken as
                                    * written (no false report later) */

typedef struct cc_ev_device_uninit_read {
    uint64_t launch_id;    /* CC_EV_LAUNCH launch_id */
    const char *kernel;    /* mangled kernel name */
    uint32_t space;        /* cc_mem_space (cucheck/finding.h): global */
    uint32_t size;         /* bytes the access read */
    uint64_t pc;           /* offset from the kernel's first instruction */
    const char *file;      /* "" and 0 without line information */
    uint32_t line;
    uint32_t block[3];
    uint32_t thread[3];
    uint64_t address;      /* the access's address (global) */
    uint64_t first;        /* its first uninitialised byte (address) */
    uint64_t count;        /* reads folded into this event (>= 1) */
} cc_ev_device_uninit_read;

typedef struct cc_ev_init_write {
    uint64_t launch_id;    /* CC_EV_LAUNCH launch_id */
    uint64_t address;
    uint64_t size;         /* bytes */
    uint32_t flags;        /* CC_INIT_WRITE_* */
} cc_ev_init_write;

/* ---- NCCL collectives and point-to-point operations (CC_EV_COLLECTIVE) ---- */
/* One NCCL operation the program enqueued on a stream: a stream operation that reads
 * [sendbuff, sendbuff + send_bytes) and writes [recvbuff, recvbuff + recv_bytes) of this rank's
 * memory (0 bytes: that side is not touched on this rank, e.g. reduce's receive buffer off the
 * root). Emitted by the agent after the NCCL call returned (inside ncclGroupStart/End: after the
 * outermost ncclGroupEnd returned, in call order). Ordering between ranks is not described. */
#define CC_COLL_ALLREDUCE 1u     /* ncclAllReduce */
#define CC_COLL_BROADCAST 2u     /* ncclBroadcast */
#define CC_COLL_BCAST 3u         /* ncclBcast (in place) */
#define CC_COLL_REDUCE 4u        /* ncclReduce */
#define CC_COLL_ALLGATHER 5u     /* ncclAllGather */
#define CC_COLL_REDUCESCATTER 6u /* ncclReduceScatter */
#define CC_COLL_SEND 7u          /* ncclSend */
#define CC_COLL_RECV 8u          /* ncclRecv */
#define CC_COLL_OP_COUNT 9u
#define CC_COLL_FLAG_GROUPED 0x1u /* issued inside ncclGroupStart/ncclGroupEnd */

typedef struct cc_ev_collective {
    uint64_t context;
    uint64_t stream;       /* the stream given to NCCL (0: the legacy default stream) */
    uint32_t op;           /* CC_COLL_* */
    uint32_t flags;        /* CC_COLL_FLAG_* */
    uint32_t datatype;     /* ncclDataType_t as the program passed it */
    uint32_t elem_size;    /* bytes per element (0: a datatype cucheck does not know) */
    uint64_t count;        /* elements as passed (allgather: sendcount; reducescatter:
                            * recvcount) */
    int32_t peer;          /* root (broadcast, bcast, reduce) or peer (send, recv); else -1 */
    int32_t rank;          /* this process's rank in the communicator; -1 unknown */
    int32_t nranks;        /* ranks in the communicator; 0 unknown */
    uint64_t comm;         /* the communicator (ncclComm_t) */
    uint64_t sendbuff;     /* read range */
    uint64_t send_bytes;
    uint64_t recvbuff;     /* write range (the same range as the read one: read and written) */
    uint64_t recv_bytes;
    uint64_t callsite;     /* host stack id of the NCCL call */
} cc_ev_collective;

typedef struct cc_event {
    cc_event_header h;
    union {
        cc_ev_process_start process_start;
        cc_ev_process_exit process_exit;
        cc_ev_device device;
        cc_ev_context context;        /* CONTEXT_CREATE/DESTROY */
        cc_ev_module module;          /* MODULE_LOAD/UNLOAD */
        cc_ev_function function;
        cc_ev_alloc alloc;
        cc_ev_free free;
        cc_ev_stream stream;          /* STREAM_CREATE/DESTROY */
        cc_ev_event event;            /* EVENT_* */
        cc_ev_sync sync;              /* STREAM_SYNC/QUERY, CONTEXT_SYNC, DEVICE_SYNC */
        cc_ev_launch launch;
        cc_ev_memcpy memcpy;
        cc_ev_memset memset;
        cc_ev_graph_launch graph_launch;
        cc_ev_graph_node graph_node;
        cc_ev_host_func host_func;
        cc_ev_api_error api_error;
        cc_ev_host_stack host_stack;
        cc_ev_kernel_activity kernel_activity;
        cc_ev_copy_activity copy_activity;
        cc_ev_api_call api_call;
        cc_ev_nvtx_range nvtx_range;
        cc_ev_sync_activity sync_activity;
        cc_ev_clock_sync clock_sync;
        cc_ev_device_limits device_limits;
        cc_ev_activity_lost activity_lost;
        cc_ev_access access;
        cc_ev_capture capture;            /* CAPTURE_BEGIN/END */
        cc_ev_device_access_error device_access_error; /* DEVICE_ACCESS_ERROR */
        cc_ev_device_fault device_fault;  /* DEVICE_FAULT */
        cc_ev_launch_progress launch_progress; /* LAUNCH_PROGRESS */
        cc_ev_launch_checked launch_checked; /* LAUNCH_CHECKED */
        cc_ev_module_var module_var;      /* MODULE_VAR */
        cc_ev_suballoc suballoc;          /* SUBALLOC */
        cc_ev_device_race device_race;    /* DEVICE_RACE */
        cc_ev_device_sync_error device_sync_error; /* DEVICE_SYNC_ERROR */
        cc_ev_device_uninit_read device_uninit_read; /* DEVICE_UNINIT_READ */
        cc_ev_init_write init_write;      /* INIT_WRITE */
        cc_ev_collective collective;      /* COLLECTIVE */
    } u;
} cc_event;

/* Names for printing ("launch", "memcpy", ...); NULL for values out of range. The same names are
 * the keywords of the text scenario form. */
const char *cc_event_kind_name(uint32_t kind);
int cc_event_kind_from_name(const char *name); /* -1 if unknown */
const char *cc_mem_kind_name(uint32_t kind);
int cc_mem_kind_from_name(const char *name);
const char *cc_copy_dir_name(uint32_t dir);
int cc_copy_dir_from_name(const char *name);
const char *cc_nvlib_name(uint32_t library);  /* "cudnn", ... ("none" for CC_NVLIB_NONE) */
int cc_nvlib_from_name(const char *name);
const char *cc_nvlib_title(uint32_t library); /* "cuDNN", ... for reports */
const char *cc_graph_node_type_name(uint32_t type);
int cc_graph_node_type_from_name(const char *name);
const char *cc_suballoc_op_name(uint32_t op);         /* "heap_register", ... */
int cc_suballoc_op_from_name(const char *name);
const char *cc_suballoc_source_name(uint32_t source); /* "nvtx", "torch" */
int cc_suballoc_source_from_name(const char *name);
const char *cc_race_kind_name(uint32_t kind);         /* "raw", "war", "waw" */
int cc_race_kind_from_name(const char *name);
const char *cc_sync_kind_name(uint32_t kind);         /* "warp_divergent", ... */
int cc_sync_kind_from_name(const char *name);
const char *cc_coll_op_name(uint32_t op);             /* "allreduce", ... */
int cc_coll_op_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
