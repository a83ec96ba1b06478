/* Internals shared by the instrumentation manager's files (see instr.h): its state, the client
 * description a tool gives it (tools/memcheck/mc_client.c, tools/streamcheck/sc_client.c), and the
 * functions of instr_state.c / instr_modules.c / instr_launch.c. */
#ifndef CUCHECK_AGENT_INSTR_INTERNAL_H
#define CUCHECK_AGENT_INSTR_INTERNAL_H

#include "core/range_table.h"
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sanitizer.h>
#include "core/decided_cache.h" /* the steady-state decision without the lock */
#include "cucheck/event.h"
#include "patch_records.h"
#include "symbols/lines.h"

#define CC_INSTR_SLOTS 64          /* checked launches in flight at once, per context */
#define CC_INSTR_DRAIN_AT 48       /* deferred drains: a LAUNCH_END that finds this many slots
                                    * bound reads its stream's launches back */
/* Adaptive: a module is unpatched after (1 << repatches) launches in a row that needed no
 * check (so at once the first time), and re-patched when a new kernel or shape of it needs one,
 * at most CC_INSTR_MAX_REPATCH times (the back-off keeps busy modules patched longer). */
#define CC_INSTR_WANTED_QUIET 1024 /* see cc_instr_module.wanted */
#define CC_INSTR_MAX_REPATCH 16

#define CC_INSTR_HDR_MAX 8192     /* bytes of a client's per-launch device header at most */
/* Ranges each slot's table holds before it must grow. Everything a slot needs is allocated
 * with the context, so that launch callbacks make no allocation under the manager's lock (a
 * driver call under that lock risks a deadlock with threads whose callbacks wait for it inside
 * the driver, see fetch below). Only a table past this size grows in a callback. */
#define CC_INSTR_TABLE_FIRST 1024
#define CC_INSTR_MAX_CLASSES 8     /* instruction classes a client patches */

typedef struct cc_instr_slot {
    int busy;                      /* bound to a launch that was not drained yet */
    int pending;                   /* its launch call returned; read at the next drain point */
    int draining;                  /* a drain took it (and may be waiting for its stream) */
    int stream_gone;               /* its stream was destroyed: never waited for (the driver
                                    * finishes the work of a destroyed stream on its own) */
    void *dev;                     /* the client's header in device memory (its patches' userdata) */
    void *host;                    /* the client's pinned host records (NULL if it has none) */
    void *extra;                   /* the client's own per-slot state (it allocates and frees it) */
    /* Uploads go from pinned staging (a copy from pageable memory may wait for the stream):
     * the header, then the allocation table. The slot owns it until its launch is drained. */
    unsigned char *stage;
    size_t stage_cap;              /* bytes */
    cc_mc_range *table_dev;        /* this slot's device copy of the table (larger tables) */
    size_t table_cap;              /* ranges */
    int stage_own, table_own;      /* grown past the context's blocks: allocated on their own */
    uint64_t table_version;        /* cc_instr_g.version it holds (UINT64_MAX: none) */
    /* The launch it is bound to (for a drain after LAUNCH_END) */
    uint64_t launch_id;
    uint64_t order;                /* binding order: drains emit in launch order */
    CUstream stream;
    Sanitizer_StreamHandle hstream;
    CUmodule module;
    uintptr_t thread;              /* the host thread that launched it (pthread_self) */
    const char *function_name;     /* the launch event's name (lives as long as the process) */
    uint64_t function_pc;          /* where the kernel's code starts, and its size (pcs the */
    uint64_t function_size;        /* patches report -> offsets), 0 if unknown */
} cc_instr_slot;

/* A drained launch, as the client's drain sees it. */
typedef struct cc_instr_done {
    uint64_t launch_id;
    Sanitizer_StreamHandle hstream; /* for reading device memory back (device_ok only) */
    const char *function_name;
    uint32_t errors;                /* set by the client's drain: error events it emitted */
} cc_instr_done;

struct cc_instr_ctx;
struct cc_instr_module;

/* What a tool plugs into the manager (one tool per process). Every callback runs with
 * cc_instr_g.lock held. */
typedef struct cc_instr_client {
    const char *name;              /* the tool's name, for notes */
    struct {
        Sanitizer_InstructionId id;
        const char *fn;            /* patch function (patch_records.h) */
    } classes[CC_INSTR_MAX_CLASSES];
    size_t nclasses;
    size_t dev_bytes;              /* per-slot device header (<= CC_INSTR_HDR_MAX) */
    size_t host_bytes;             /* per-slot pinned host records (0: none) */
    size_t header_ranges;          /* tables this small travel in the header (fill copies
                                    * them): the context's device table is not uploaded */
    /* Launch policy: 1 if this launch runs instrumented (m NULL: a module never seen). It
     * patches/unpatches the module as needed (cc_instr_module_want). */
    int (*decide)(const Sanitizer_LaunchData *d, struct cc_instr_module *m, const cc_event *launch);
    /* 1 if m may be unpatched when a launch of it needs no instrumentation (the adaptive modes;
     * the value decide passes to cc_instr_module_want). Asked at each kernel node of a graph
     * launch in a patched module: such a node never runs checked (cc_instr_on_graph_kernel_node).
     * May be NULL: graph nodes never unpatch. */
    int (*may_unpatch)(const struct cc_instr_module *m);
    /* Fill the header for slot `slot` into hdr (dev_bytes, zeroed) from the manager's state,
     * host-side only (no driver or Sanitizer call: device work goes in prepare). 0 ok. */
    int (*fill)(struct cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *hdr);
    /* Without cc_instr_g.lock, after fill and before the header is uploaded, the slot being
     * this launch's: device-side preparation (allocations, clearing the client's device buffers
     * on d->hStream) and the header fields that depend on it. 0 ok. May be NULL. */
    int (*prepare)(struct cc_instr_ctx *c, int slot, const Sanitizer_LaunchData *d, void *hdr);
    /* decide said yes, but the launch could not be bound (no slot, fill or upload failed): it
     * runs uninstrumented. May be NULL. */
    void (*unbound)(const Sanitizer_LaunchData *d);
    /* 1: an unbound launch loses nothing (it gets another access set, and decide asks again
     * next time), so LAUNCH_END may be turned off while nothing is instrumented (streamcheck).
     * 0: an unbound launch is an unchecked one, and its shape may not be asked for again
     * (memcheck; tests/gpu/memcheck/mc_late_kernel.cu): LAUNCH_END goes off only for a
     * deferred-drain client whose launches can be bound without it (cc_instr_state.end_on). */
    int end_dynamic;
    /* 1: the launch's results may be read later than its LAUNCH_END (memcheck, whose records
     * are pinned host memory): at the program's own synchronizations, when slots run out, at a
     * sticky error, module unload, stream or context destroy and exit, so that the program's
     * host thread never waits for a checked launch. 0: read at LAUNCH_END (streamcheck: the
     * launch's access set is needed before the program's next operation is analysed). */
    int deferred_drain;
    /* After the launch finished and the device is readable, WITHOUT cc_instr_g.lock: copy
     * what drain needs from the slot's device buffers into host memory (its records, its extra
     * state). dev, host, extra: the slot's. May be NULL. (memcheck's copy of its per-site counts
     * under the lock hung tests/gpu/memcheck/mc_threads.cu, 8 launching threads, on the H200:
     * other threads' launch callbacks waited for the lock inside the driver.) */
    void (*fetch)(void *dev, void *host, void *extra, Sanitizer_StreamHandle hstream);
    /* After the launch finished (device_ok: fetch ran; 0 after a sticky error or when the wait
     * failed): read the slot back, emit events for l->launch_id, reset it. No device calls.
     * Returns 1 to stop the program. */
    int (*drain)(struct cc_instr_ctx *c, int slot, cc_instr_done *l,
                 struct cc_instr_module *m, int device_ok);
    /* A context's buffers were just made: set up per-context client state (c->client_state,
     * e.g. a device heap table). 0 ok, else the context runs uninstrumented. May be NULL. */
    int (*ctx_init)(struct cc_instr_ctx *c);
    /* The context is being destroyed: free the slots' extra and the client state (device memory
     * goes with the context). May be NULL. */
    void (*ctx_destroy)(struct cc_instr_ctx *c);
    /* A module is being unloaded (forget what was cached about it). May be NULL. */
    void (*module_unloading)(CUmodule module);
    /* 1: its patch functions need stack past the kernel's own (racecheck's hazard path: 288
     * bytes of frames, and an illegal address in cub's kernels under the 1 KiB default), so the
     * manager raises each context's stack limit (instr_stack.c). 0: the limit is left alone. */
    int patch_stack;
} cc_instr_client;

typedef struct cc_instr_ctx {
    CUcontext ctx;
    cc_instr_slot slots[CC_INSTR_SLOTS];
    void *dev_slots;               /* one device allocation for all slots' headers */
    void *host_slots;              /* one pinned allocation for all slots' host records */
    void *stage_block;             /* one pinned allocation for all slots' first staging */
    void *table_block;             /* one device allocation for all slots' first tables */
    void *client_state;            /* the client's per-context state (ctx_init/ctx_destroy) */
    int nbusy;                     /* slots bound */
    int broken;                    /* allocation failed: no checks in this context */
} cc_instr_ctx;

typedef struct cc_instr_module {
    CUmodule module;
    CUcontext ctx;
    unsigned char *cubin;          /* copy of the cubin (line tables) */
    size_t cubin_size;
    cc_line_table *lines;          /* opened at the first violation; NULL if none */
    int lines_tried;
    int patched;
    int repatches;
    uint64_t quiet;                /* consecutive launches that needed no check */
    int unpatch_pending;           /* to be unpatched at the next API exit (cc_instr_module_want) */
    int repatch_pending;           /* to be re-patched there */
    int load_pending;              /* not patched at load (the patch lock was busy): patch at the
                                    * next API exit, not counted as a re-patch */
    int changing;                  /* a patching call for it runs now, outside the lock */
    uint32_t wanted;               /* a launch wanted it instrumented while it was unpatched: it
                                    * is not unpatched again before a launch of it is bound or
                                    * this many more of its launches went by unchecked (its
                                    * other kernels' quiet launches unpatched it at once, and a
                                    * new kernel launched twice was never checked; a kernel
                                    * that never asks again must not keep it patched for good) */
    int bound;                     /* launches of it bound to slots and not drained yet: it is
                                    * not unpatched before they are (a kernel submitted patched
                                    * but run after its module was unpatched checked nothing) */
    int heap_user;                 /* memcheck: calls device malloc/free (-1: not read yet) */
} cc_instr_module;

typedef struct cc_instr_state {
    int active;                    /* a client is set and patches exist */
    const cc_instr_client *client;
    pthread_mutex_t lock;          /* guards everything below; never held across a Sanitizer
                                    * patching call (see patch_lock) */
    /* Serializes the Sanitizer's patching calls (which are not thread-safe). Taken before `lock`
     * and never while holding it: sanitizerPatchModule/UnpatchModule wait for the driver's
     * module lock, which other threads hold inside their launch and resource callbacks while
     * they wait for `lock` (8 launching threads hung in adaptive mode that way). Only API-exit
     * callbacks block on it; a module-load callback only tries it (cc_instr_patch_at_load). */
    pthread_mutex_t patch_lock;
    /* The launch gate: every launch call (cuLaunchKernel and its kin, cuGraphLaunch) holds it
     * for reading from its API enter to its API exit; a module change holds it for writing.
     * Unpatching a module while another thread's launch was being submitted ended in "an
     * illegal instruction was encountered" (8 launching threads, H200, driver 580). A thread waiting
     * at a launch's API enter holds no driver lock, so the writer never waits for it. */
    pthread_rwlock_t gate;
    int gate_ready;                /* initialized (writer-preferring) */
    /* live allocations, host copy, sorted by base, with tombstones (core/range_table.h):
     * compacted before a launch is bound, where the clients copy it */
    cc_range_table table;
    /* contexts and modules */
    cc_instr_ctx **ctxs;           /* each allocated on its own: its address is stable while
                                    * it lives (a launch binds its slot outside the lock) */
    size_t nctx, ctxcap;
    cc_instr_module *mods;
    size_t nmods, modcap;
    /* counters */
    uint64_t selected_launches;    /* launches of selected kernels (for skip/count) */
    uint64_t checked_launches;
    uint64_t no_slot;              /* launches that found no free slot */
    uint64_t patched_unchecked;    /* launches run unchecked in a patched module (each patched
                                    * instruction they ran paid a call that returned at once) */
    int stop_pending;              /* --on-error stop: stop after this launch */
    int inflight;                  /* slots bound and not drained yet */
    uint64_t bind_order;           /* cc_instr_slot.order of the next binding */
    int deferred_drain;            /* the client's deferred_drain, unless --on-error stop or
                                    * CUCHECK_DRAIN=launch */
    uint64_t drain_waits;          /* LAUNCH_END waits because slots ran short */
    uint64_t unpatch_reads;        /* API-exit reads so that a checked module can be unpatched */
    int deferred_due;              /* some module has a pending (un)patch (read without the lock) */
    int can_defer;                 /* API exit callbacks are enabled: modules may be unpatched */
    /* LAUNCH_END callbacks are needed only while a launch is instrumented: for a client with
     * end_dynamic, after CC_INSTR_END_QUIET launches in a row that were not, with none in
     * flight, they are turned off; the next launch that wants instrumentation turns them back
     * on and runs unbound (the one after it is instrumented). Each costs ~0.6 us per launch
     * (measured on the H200). CUCHECK_LAUNCH_END=always keeps them on. A deferred-drain client
     * whose driver launch calls are tracked (ends_at_exit) loses nothing either: a launch bound
     * while they are off is marked submitted at its launch call's exit (memcheck, racecheck,
     * synccheck). */
    int end_on, end_always;
    int ends_at_exit;
    int end_may_go_off;            /* (end_dynamic or ends_at_exit) and not end_always */
    int end_off_noted;             /* the first turn-off was said (verbose) */
    uint64_t quiet_launches;
} cc_instr_state;

#define CC_INSTR_END_QUIET 4096u

extern cc_instr_state cc_instr_g;

/* instr_state.c (callers hold cc_instr_g.lock) */
/* weak: an address-range reservation, added only where it overlaps no allocation (cudaMalloc
 * blocks carved out of it later replace it). */
void cc_instr_table_add(uint64_t base, uint64_t size, int weak);
/* The live allocation (or sub-allocator region) holding addr, or NULL. */
const cc_range *cc_instr_table_find(uint64_t addr);
void cc_instr_table_remove(uint64_t base);
/* The same without asking the sub-allocators (instr_suballoc.c keeps their ranges with these):
 * insert [base, end) (weak as above), erase the range starting at base, and take every range
 * that overlaps [lo, hi) out of the table, each(arg, base, end) called for each first. */
void cc_instr_table_insert(uint64_t base, uint64_t end, int weak);
void cc_instr_table_erase(uint64_t base);
void cc_instr_table_take(uint64_t lo, uint64_t hi,
                         void (*each)(void *arg, uint64_t base, uint64_t end), void *arg);
/* instr_suballoc.c (lock held): an allocation [base, end) is being added / the one at base
 * removed; 1 when a sub-allocator's heap took care of it (the table is not to change). */
int cc_instr_suballoc_adding(uint64_t base, uint64_t end, int weak);
int cc_instr_suballoc_removing(uint64_t base);
/* instr_suballoc.c (lock held): queued region changes reach the book and the table (every
 * reader of the table calls it first; nothing to do costs one atomic load). */
void cc_instr_suballoc_sync(void);
void cc_instr_suballoc_after_fork_child(void); /* the queue's lock, fresh */
/* instr_state.c (lock held): the table brought up to date and compacted, for a launch's copy. */
void cc_instr_table_ready(void);
cc_instr_ctx *cc_instr_ctx_get(CUcontext ctx);          /* creates; NULL if broken */
void cc_instr_ctx_destroy(CUcontext ctx);
int cc_instr_slot_take(cc_instr_ctx *c);                /* index or -1 */
/* Give the slot's staging at least `bytes` and its device table at least `ranges` entries
 * (the slot is not bound). 0 ok. */
int cc_instr_slot_reserve(cc_instr_ctx *c, int slot, size_t bytes, size_t ranges);

/* instr_drain.c: reading bound slots back (callers hold cc_instr_g.lock; a drain releases it
 * while it waits for streams and while the client fetches from the device). Which pending
 * launches a drain takes: */
typedef enum cc_instr_drain_scope {
    CC_DRAIN_ALL,                  /* every context */
    CC_DRAIN_CONTEXT,              /* key: CUcontext */
    CC_DRAIN_STREAM,               /* key: CUstream (with ctx) */
    CC_DRAIN_MODULE,               /* key: CUmodule */
    CC_DRAIN_THREAD,               /* key: the launching thread (pthread_self) */
} cc_instr_drain_scope;
/* Drain the pending launches in scope, oldest first. wait: synchronize their streams first
 * (else the caller knows they finished: the program synchronized, or the device is gone);
 * device_ok: the device may be read. Returns 1 if the client asked to stop the program. */
int cc_instr_drain(cc_instr_drain_scope scope, CUcontext ctx, const void *key, int wait,
                   int device_ok, const char *why);
/* The program destroys a stream: its pending launches are read later without a wait. */
void cc_instr_stream_destroyed(CUcontext ctx, CUstream stream);
/* Drain one slot now (its launch finished or the device is gone): the client's events; *errors
 * its findings. The caller emits LAUNCH_CHECKED (cc_instr_drain: one per run read together). */
int cc_instr_drain_slot(cc_instr_ctx *c, int slot, int device_ok, uint32_t *errors);
/* The launch's results (of every instrumented launch in [launch_id, last_id] when last_id is
 * not 0) are complete (result CC_CHECKED_READ, errors emitted) or will never come
 * (CC_CHECKED_LOST): the tool may forget what it kept for them. */
void cc_instr_emit_checked(uint64_t launch_id, uint64_t last_id, uint32_t errors,
                           uint32_t result);
/* At an API exit: read back what a synchronization this thread saw finished. */
void cc_instr_after_synchronized(void);
/* Register the exit drain (once): called at the first deferred launch. */
void cc_instr_exit_hook_once(void);
/* Stop the program after a drain that asked for it (--on-error stop); does not return. */
void cc_instr_stop_program(uint64_t launch_id);

/* instr_modules.c (callers hold cc_instr_g.lock) */
cc_instr_module *cc_instr_module_find(CUmodule m);
void cc_instr_module_loaded(const Sanitizer_ResourceModuleData *d);
void cc_instr_module_unloading(CUmodule m);
/* After MODULE_LOADED (without `lock`): patch the module now if the patch lock is free, else at
 * the next API exit (its first launches then run unchecked, and the report counts them). */
void cc_instr_patch_at_load(CUmodule module);
/* The shared patch policy for one launch: want = the client instruments it. Not wanted: the
 * module's quiet count grows and, if may_unpatch, it is unpatched after (1 << repatches) quiet
 * launches. Wanted: the module is re-patched if it was unpatched, at most CC_INSTR_MAX_REPATCH
 * times. Returns 1 if the launch can run instrumented (wanted and the module is patched).
 * Unpatching and re-patching never happen here, inside the launch callback: on the H200 with
 * driver 580, sanitizerUnpatchModule called from LAUNCH_BEGIN (or LAUNCH_END) of a launch on a
 * non-blocking stream blocks forever on a driver mutex (the legacy default stream is spared).
 * They are deferred to the next API exit callback (cc_instr_on_api, normally the exit of
 * this launch's own cuLaunchKernel), so the deciding launch runs patched with no callback data
 * (its patch calls return at once), and the launch that triggers a re-patch runs
 * uninstrumented (its client falls back: memcheck checks the next launch of that shape,
 * streamcheck infers this one's access set and instruments the next). Without API callbacks
 * (CUCHECK_TRACK without runtime/driver) modules are never unpatched. */
int cc_instr_module_want(cc_instr_module *m, int want, int may_unpatch);

/* The patched code's stack (instr_stack.c). The headroom patch functions may use past a
 * kernel's own stack, bytes per thread (CUCHECK_PATCH_STACK; measured in docs/agent.md). */
#define CC_INSTR_PATCH_STACK_DEFAULT 16384u
/* instr_floor.c: the empty patch function of an instruction class, and a tool's floor client:
 * *out = cl with every class's function swapped for its empty one and prepare replaced (NULL:
 * kept); returns out. */
const char *cc_instr_floor_function(Sanitizer_InstructionId id);
const cc_instr_client *cc_instr_floor_client(const cc_instr_client *cl,
                                             int (*prepare)(struct cc_instr_ctx *c, int slot,
                                                            const Sanitizer_LaunchData *d,
                                                            void *hdr),
                                             cc_instr_client *out);
/* CUCHECK_PATCH_CLASSES: *out = cl with the classes spec names (CLASS=floor|off, comma
 * separated) patched with their empty function (floor) or not patched (off); returns out, or
 * NULL with err set when spec is malformed. */
const cc_instr_client *cc_instr_classes_adjust(const cc_instr_client *cl, const char *spec,
                                               cc_instr_client *out, char *err, size_t errlen);

void cc_instr_stack_init(const char *tool, int enabled); /* enabled 0: every call does nothing */
/* (any lock) 1 if a launch of d's kernel fits the stack its context's limit gives with the
 * headroom; 0: it should run unchecked, and the limit is raised at the next API exit. No
 * driver call. */
int cc_instr_stack_fits(const Sanitizer_LaunchData *d, const cc_instr_module *m);
/* At an API exit outside launch calls: raise ctx's limit if it needs it (driver calls). */
void cc_instr_stack_on_api_exit(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                                CUcontext ctx);
void cc_instr_stack_forget_module(CUmodule module);
void cc_instr_stack_forget_context(CUcontext ctx);
/* (locked) A launch of module was bound to a slot (+1) or its slot was freed (-1). */
void cc_instr_module_bound(CUmodule module, int delta);
/* Unpatch / re-patch the modules whose change was deferred (see cc_instr_module_want). Called
 * from API exits WITHOUT `lock`: it takes patch_lock, then `lock` only around the bookkeeping. */
void cc_instr_apply_deferred(void);

/* Where a kernel's code starts and its size (sanitizerGetFunctionPcAndSize, asked once per
 * function and cached until its module unloads: a slot read at exit must not need the
 * Sanitizer, whose state may be gone by then). 0 if unknown. _cached: from the cache, with the
 * manager's lock held; 1 if it was there. _ask: without the lock, asks the Sanitizer and caches
 * the answer (taking the lock for that). */
int cc_instr_function_pc_cached(CUmodule module, CUfunction function, uint64_t *pc,
                                uint64_t *size);
void cc_instr_function_pc_ask(CUmodule module, CUfunction function, const char *name,
                              uint64_t *pc, uint64_t *size);
/* pc (as the patch saw it) -> offset in the kernel (fpc, fsize: cc_instr_function_pc_*) and
 * file:line from the module's cubin. */
void cc_instr_resolve_pc(cc_instr_module *m, const char *kernel, uint64_t fpc, uint64_t fsize,
                         uint64_t pc, uint64_t *offset, const char **file, uint32_t *line);

#endif
