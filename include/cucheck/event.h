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
    CC_EV_EVENT_SYNC = 17,     /* cudaEventSynchronize(event) returned */
    CC_EV_EVENT_QUERY = 18,    /* cudaEventQuery(event) returned; result says if complete */
    CC_EV_STREAM_SYNC = 19,    /* cudaStreamSynchronize(stream) returned */
    CC_EV_STREAM_QUERY = 20,   /* cudaStreamQuery(stream) returned; result says if idle */
    CC_EV_CONTEXT_SYNC = 21,   /* cuCtxSynchronize returned */
    CC_EV_DEVICE_SYNC = 22,    /* cudaDeviceSynchronize returned */
    CC_EV_LAUNCH = 23,         /* a kernel launch (any API, graph nodes included) */
    CC_EV_MEMCPY = 24,
    CC_EV_MEMSET = 25,
    CC_EV_GRAPH_LAUNCH = 26,   /* cudaGraphLaunch(exec, stream) */
    CC_EV_GRAPH_NODE = 27,     /* one node of an executable graph, with its dependencies */
    CC_EV_HOST_FUNC = 28,      /* cudaLaunchHostFunc / cuLaunchHostFunc / stream callback */
    CC_EV_API_ERROR = 29,      /* a CUDA API call returned an error */
    CC_EV_HOST_STACK = 30,     /* defines a host call-stack id used by other events' callsite */
    CC_EV_KIND_COUNT
} cc_event_kind;

/* How a process ended (CC_EV_PROCESS_EXIT). */
typedef enum cc_exit_reason {
    CC_EXIT_NORMAL = 0, /* exit() or return from main */
    CC_EXIT_FAST = 1,   /* _exit(): no atexit handlers ran */
    CC_EXIT_SIGNAL = 2, /* a fatal signal */
    CC_EXIT_ABORT = 3,  /* abort() */
} cc_exit_reason;

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
} cc_ev_launch;

#define CC_COPY_FLAG_ASYNC 0x1u
#define CC_COPY_FLAG_GRAPH_NODE 0x2u

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
const char *cc_graph_node_type_name(uint32_t type);
int cc_graph_node_type_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
