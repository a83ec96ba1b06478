/* The CUPTI callback source of streamcheck --mode api (cupti_api_source.c) and its bridge to the
 * agent's translators (cupti_api_bridge.c). The Compute Sanitizer's subscription by itself costs
 * the PyTorch training step ~20% of its launching thread's CPU time, with no callback enabled;
 * CUPTI's costs nothing until a callback is enabled. So --mode api, which patches nothing, takes
 * its events from CUPTI's driver-API, resource and synchronize callbacks: the driver calls'
 * parameters are turned into the Sanitizer's callback records and handed to the same
 * translators (the two APIs number driver calls alike). The source file includes cupti.h and
 * the bridge the Sanitizer headers (they cannot share a file), so the records cross here in
 * plain C types: handles as void pointers. */
#ifndef CUCHECK_AGENT_CUPTI_API_H
#define CUCHECK_AGENT_CUPTI_API_H

#include <stdint.h>

/* Load CUPTI, subscribe and enable the callbacks (after the agent's outputs are open). 0 on
 * success; -1 after a note (the caller then falls back to the Sanitizer). */
int cc_capi_start(void);

typedef struct cc_capi_launch {
    void *context, *stream, *function;
    const char *name;
    uint32_t grid[3], block[3], cluster[3];
    int device;
    void **params, **extra;
} cc_capi_launch;

enum { CC_CAPI_DIR_UNKNOWN, CC_CAPI_H2H, CC_CAPI_H2D, CC_CAPI_D2H, CC_CAPI_D2D };

typedef struct cc_capi_copy {
    void *src_context, *dst_context, *stream;
    void *api_context;   /* the calling thread's context when it differs (peer copies), or NULL */
    uint64_t src, dst, size, width, height, depth, src_pitch, dst_pitch;
    uint32_t direction, is_async;
} cc_capi_copy;

typedef struct cc_capi_set {
    void *context, *stream;
    uint64_t address, width, height, pitch;
    uint32_t element_size, value, is_async;
} cc_capi_set;

enum {
    CC_CAPI_MEM_DEVICE,
    CC_CAPI_MEM_MANAGED,
    CC_CAPI_MEM_HOST_PINNED,
    CC_CAPI_MEM_HOST_MAPPED,
    CC_CAPI_MEM_ASYNC,   /* stream-ordered */
    CC_CAPI_MEM_VIRTUAL, /* an address range reserved */
};

typedef struct cc_capi_mem {
    void *context, *stream;
    uint64_t address, size;
    int device;
    uint32_t kind; /* CC_CAPI_MEM_* */
} cc_capi_mem;

/* Every enabled driver call, at its enter and exit (API errors, queries, capture state, stream
 * creation flags, a launch call's arguments). */
void cc_capi_on_api(int enter, uint32_t cbid, const char *name, const void *params,
                    const void *result, void *context);
void cc_capi_on_launch(const cc_capi_launch *l);
void cc_capi_on_graph_launch(void *context, void *stream, void *exec);
void cc_capi_on_graph_kernel(void *exec, void *node, const cc_capi_launch *l);
void cc_capi_on_copy(const cc_capi_copy *c);
void cc_capi_on_set(const cc_capi_set *s);
void cc_capi_on_alloc(const cc_capi_mem *m);
void cc_capi_on_free(const cc_capi_mem *m);
void cc_capi_on_context(int created, void *context, int device);
void cc_capi_on_stream(int created, void *context, void *stream);
void cc_capi_on_sync(void *context, void *stream, int whole_context);

/* Stream capture begun (after the call) or ended (the call returned result, graph made). */
void cc_capi_on_capture(int begin, void *context, void *stream, void *graph, uint32_t mode,
                        int result);

enum { CC_CAPI_EV_CREATE, CC_CAPI_EV_DESTROY, CC_CAPI_EV_RECORD, CC_CAPI_EV_WAIT, CC_CAPI_EV_SYNC };
void cc_capi_on_event(uint32_t what, void *context, void *event, void *stream);

/* Bridge services for the source. */
int cc_capi_open_outputs(void);     /* the agent's outputs, exit handlers, event thread */
void cc_capi_after_start(void);     /* inferred access sets (access_infer.c) */
void cc_capi_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cc_capi_is_idle(void);          /* CUCHECK_TRACK's "callbacks": return at once */
int cc_capi_self_time_on(void);
uint64_t cc_capi_self_time_now(void);
void cc_capi_self_time_add(unsigned domain, uint64_t t0);

#endif
