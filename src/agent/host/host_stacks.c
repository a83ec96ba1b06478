/* Host call stacks of launches and failed API calls, cheap enough for every launch: the raw
 * stack (native return addresses, plus the Python frames' code objects and instruction offsets
 * when the launching thread runs Python, read without the GIL by host_python.c) is hashed; a
 * stack seen before is only a table lookup (this thread's recent stacks first, without a lock;
 * no allocation); a new one is defined for the tools with a CC_EV_HOST_STACK event, whose id later
 * events name as their callsite. A new stack's Python frames are described at once (their code
 * objects are only known alive while the thread is still in the call); its native frames are kept
 * raw and symbolized later, off the launch path (reading DWARF can take milliseconds), by
 * cc_agent_stacks_flush: before a failed API call is reported and at process exit. Two raw stacks
 * are taken as the same when their 64-bit hashes are. A defined stack lists the Python frames
 * first (innermost first), then the native frames from the launch down to the interpreter, whose
 * own frames the Python ones stand for. */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/core/self_time.h"
#include "agent/host/host_python.h"
#include "agent/host/host_site_cache.h"
#include "agent/host/host_symbolize.h"
#include "agent/host/host_unwind.h"
#include "agent/core/agent_knobs.h"
#include "core/hashmap.h"

#define CC_NATIVE_MAX 48 /* return addresses captured (the agent's and CUDA's own included) */
#define CC_PY_MAX 16     /* Python frames captured */
/* When the thread runs Python code its Python frames alone name the call site: unwinding the
 * deep native stacks of PyTorch through DWARF call-frame information costs microseconds per
 * launch (measured: +26% on a PyTorch training step), and users read `train.py:42`, not
 * `libtorch_cuda.so+0x...`. Native frames are then not captured (CUCHECK_NATIVE_FRAMES=1 keeps
 * them, at that price). */
#define CC_SHOW_MAX 24   /* frames kept in a stack's definition */
#define CC_FRAME_TEXT 320
#define CC_STACKS_MAX (1u << 20) /* distinct stacks per process; later new ones get no stack */

static pthread_mutex_t cc_stacks_lock = PTHREAD_MUTEX_INITIALIZER;
static cc_hashmap cc_stacks = CC_HASHMAP_INIT; /* hash of a raw stack -> its id */
static uint64_t cc_stacks_next_id = 1;
static atomic_uint cc_stacks_generation = 1; /* bumped in a fork child: per-thread caches reset */
static int cc_stacks_full_noted;

/* Stacks waiting for symbolization (guarded by cc_stacks_lock): the native return addresses,
 * and the texts of the Python frames, described when the stack was captured. */
typedef struct cc_raw_stack {
    struct cc_raw_stack *next;
    uint64_t id;
    int npcs, npy;
    char (*py)[CC_FRAME_TEXT]; /* npy texts, after pcs in the same block */
    uint64_t pcs[];
} cc_raw_stack;
static cc_raw_stack *cc_raw_head, **cc_raw_tail = &cc_raw_head;

/* This thread's stacks seen lately, direct-mapped by hash: a launch-bound step cycles through a
 * few hundred call sites, and a Python stack took 0.13-0.15 us beyond reading its frames with the
 * shared table's lock and probe on each (H200, PyTorch steps). */
#define CC_SEEN_WAYS 256
static _Thread_local unsigned cc_seen_generation;
static _Thread_local struct {
    uint64_t hash, id;
} cc_seen[CC_SEEN_WAYS];

static size_t cc_seen_way(uint64_t hash)
{
    return (size_t)(hash * 0x9E3779B97F4A7C15ull >> 56); /* the top 8 bits: CC_SEEN_WAYS */
}


/* Symbolizes a new stack and emits its definition (lock held; runs once per distinct stack):
 * the Python frames first, then the native frames of the program (the agent's and CUDA's own
 * above it dropped) down to the interpreter or main. */
static void cc_emit_stack(const cc_ev_host_stack *st, void *arg)
{
    (void)arg;
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_HOST_STACK);
    ev.u.host_stack = *st;
    cc_agent_emit(&ev);
}

static void cc_define_stack(uint64_t id, const uint64_t *pcs, int npcs,
                            const char (*py)[CC_FRAME_TEXT], int npy, cc_agent_stack_sink sink,
                            void *arg)
{
    static char texts[CC_SHOW_MAX][CC_FRAME_TEXT]; /* guarded by cc_stacks_lock */
    cc_stack_frame frames[CC_SHOW_MAX];
    uint32_t n = 0;
    for (int i = 0; i < npy && n < CC_SHOW_MAX; i++) {
        frames[n].pc = 0;
        frames[n].text = py[i];
        n++;
    }
    int user_seen = 0;
    for (int i = 0; i < npcs && n < CC_SHOW_MAX; i++) {
        if (npy > 0 && cc_py_pc_in_interpreter(pcs[i])) {
            break; /* the interpreter: the Python frames above stand for it */
        }
        int internal = cc_host_symbolize(pcs[i], texts[n], CC_FRAME_TEXT);
        if (internal && !user_seen) {
            continue; /* the agent, the Sanitizer, the driver and runtime above the program */
        }
        user_seen = 1;
        frames[n].pc = pcs[i];
        frames[n].text = texts[n];
        n++;
        if (strncmp(texts[n - 1], "main+", 5) == 0) {
            break; /* what lies below main is the C library's start-up */
        }
    }
    if (n == 0) { /* only CUDA's own frames: show them rather than nothing */
        for (int i = 0; i < npcs && n < CC_SHOW_MAX; i++) {
            cc_host_symbolize(pcs[i], texts[n], CC_FRAME_TEXT);
            frames[n].pc = pcs[i];
            frames[n].text = texts[n];
            n++;
        }
    }
    cc_ev_host_stack st;
    memset(&st, 0, sizeof st);
    st.id = id;
    st.nframes = n;
    st.frames = frames;
    sink(&st, arg);
}

/* Keeps a new stack for cc_agent_stacks_flush (lock held): its return addresses and the texts
 * of its Python frames, described now while their code objects are surely alive. */
static void cc_keep_raw_stack(uint64_t id, const uint64_t *pcs, int npcs, const cc_py_frame *py,
                              int npy)
{
    size_t size = sizeof(cc_raw_stack) + (size_t)npcs * sizeof pcs[0] +
                  (size_t)npy * CC_FRAME_TEXT;
    cc_raw_stack *r = malloc(size);
    if (r == NULL) { /* once per distinct stack */
        return;
    }
    r->next = NULL;
    r->id = id;
    r->npcs = npcs;
    r->npy = npy;
    memcpy(r->pcs, pcs, (size_t)npcs * sizeof pcs[0]);
    r->py = (char (*)[CC_FRAME_TEXT])(void *)(r->pcs + npcs);
    for (int i = 0; i < npy; i++) {
        cc_py_describe(&py[i], r->py[i], CC_FRAME_TEXT);
    }
    *cc_raw_tail = r;
    cc_raw_tail = &r->next;
}

static int cc_native_with_python(void)
{
    static int cached = -1; /* racy first read is harmless: every thread computes the same */
    if (cached < 0) {
        const char *v = cc_knob_get(CC_KNOB_NATIVE_FRAMES);
        cached = v != NULL && strcmp(v, "1") == 0;
    }
    return cached;
}

uint64_t cc_agent_callsite(void)
{
    if (!(cc_agent_g.track & CC_TRACK_STACKS)) {
        return 0;
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    volatile char marker = 0; /* its address separates this frame from the launch's chain */
    uintptr_t here = (uintptr_t)&marker;
    uint64_t pcs[CC_NATIVE_MAX];
    cc_py_frame py[CC_PY_MAX];
    uint64_t hash = 0x5EED;
    unsigned gen = atomic_load_explicit(&cc_stacks_generation, memory_order_relaxed);
    /* The Python frames of this thread, GIL held or not (a few nanoseconds without CPython;
     * about 0.6 us for the 16 frames of a PyTorch training step, measured on the H200). */
    int npy = cc_py_capture(py, CC_PY_MAX);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_PY_WALK, t0);
    }
    /* A native-only stack from a call site this thread launched from before: no unwind. */
    int site_cache = npy == 0 && cc_site_cache_enabled();
    uint64_t cached_id = 0;
    if (site_cache && cc_site_cache_lookup(here, gen, &hash, &cached_id)) {
        if (t0 != 0) {
            cc_self_time_add(CC_SELF_STACKS_CACHED, t0);
        }
        return cached_id;
    }
    for (int i = 0; i < npy; i++) { /* one mixing step per frame: code, offset and identity */
        hash = cc_hash_combine(hash, (uint64_t)(uintptr_t)py[i].code ^
                                         (uint64_t)(uint32_t)py[i].offset << 40 ^ py[i].ident);
    }
    int npcs = npy > 0 && !cc_native_with_python() ? 0 : cc_host_unwind(pcs, CC_NATIVE_MAX);
    for (int i = 0; i < npcs; i++) {
        hash = cc_hash_combine(hash, pcs[i]);
    }
    if (hash == 0) {
        hash = 1;
    }
    uint64_t id = 0;
    if (cc_seen_generation != gen) {
        memset(cc_seen, 0, sizeof cc_seen); /* a fork child's first stack: the ids are new */
        cc_seen_generation = gen;
    }
    size_t way = cc_seen_way(hash);
    if (cc_seen[way].hash == hash && cc_seen[way].id != 0) {
        id = cc_seen[way].id;
    } else {
        pthread_mutex_lock(&cc_stacks_lock);
        if (cc_stacks.cap == 0) {
            cc_hashmap_reserve(&cc_stacks, 512); /* room for a typical program's stacks at once */
        }
        const uint64_t *known = cc_hashmap_get(&cc_stacks, hash);
        id = known != NULL ? *known : 0;
        if (id == 0 && cc_stacks.count < CC_STACKS_MAX) {
            id = cc_stacks_next_id++;
            if (cc_hashmap_put(&cc_stacks, hash, id) == 0) {
                cc_keep_raw_stack(id, pcs, npcs, py, npy);
            } else {
                id = 0;
            }
        } else if (id == 0 && !cc_stacks_full_noted) {
            cc_stacks_full_noted = 1;
            cc_agent_note("more than %u distinct host stacks: later new ones are not recorded",
                          CC_STACKS_MAX);
        }
        pthread_mutex_unlock(&cc_stacks_lock);
        cc_seen[way].hash = hash;
        cc_seen[way].id = id;
    }
    if (site_cache && id != 0) {
        uint64_t f0 = t0 != 0 ? cc_self_time_now() : 0;
        cc_site_cache_fill(here, gen, pcs, npcs, hash, id);
        if (f0 != 0) {
            cc_self_time_add(CC_SELF_SITE_FILLS, f0);
        }
    }
    if (t0 != 0) {
        cc_self_time_add(npy > 0 ? CC_SELF_STACKS_PY : CC_SELF_STACKS_UNWOUND, t0);
    }
    return id;
}

/* CUCHECK_TIMING=1: say on stderr how long symbolizing took (the suspected cost at the exit of
 * big programs: libdw loads the symbol tables of libtorch, cuDNN, cuBLAS on first use). */
static int cc_stacks_timing(void)
{
    static int cached = -1;
    if (cached < 0) {
        const char *v = cc_knob_get(CC_KNOB_TIMING);
        cached = v != NULL && strcmp(v, "1") == 0;
    }
    return cached;
}

void cc_agent_stacks_flush(void)
{
    uint64_t t0 = cc_stacks_timing() ? cc_agent_now_ns() : 0;
    unsigned nstacks = 0, nframes = 0;
    /* Queued events first: findings among them resolve their stacks before the lock is held. */
    cc_agent_events_drain();
    pthread_mutex_lock(&cc_stacks_lock);
    cc_raw_stack *r = cc_raw_head;
    cc_raw_head = NULL;
    cc_raw_tail = &cc_raw_head;
    while (r != NULL) {
        cc_raw_stack *next = r->next;
        cc_define_stack(r->id, r->pcs, r->npcs, (const char (*)[CC_FRAME_TEXT])r->py, r->npy,
                        cc_emit_stack, NULL);
        nstacks++;
        nframes += (unsigned)r->npcs;
        free(r);
        r = next;
    }
    pthread_mutex_unlock(&cc_stacks_lock);
    if (t0 != 0 && nstacks != 0) {
        fprintf(stderr, "cucheck: timing: symbolized %u new stack(s), %u native frames, in %.1f ms "
                        "(%s)\n", nstacks, nframes, (double)(cc_agent_now_ns() - t0) / 1e6,
                cc_host_symbolizer_name());
    }
}

int cc_agent_stack_resolve(uint64_t id, cc_agent_stack_sink sink, void *arg)
{
    /* Never blocks: the caller holds the session lock, and a flush holds cc_stacks_lock while it
     * emits into the session. Other holders (a launch keeping a new stack) are brief, so retry
     * a bounded number of times before going without frames. */
    int locked = 0;
    for (int tries = 0; tries < 2000 && !locked; tries++) {
        locked = pthread_mutex_trylock(&cc_stacks_lock) == 0;
        if (!locked) {
            sched_yield();
        }
    }
    if (!locked) {
        return -1;
    }
    int found = -1;
    for (cc_raw_stack *r = cc_raw_head; r != NULL; r = r->next) {
        if (r->id == id) {
            cc_define_stack(r->id, r->pcs, r->npcs, (const char (*)[CC_FRAME_TEXT])r->py, r->npy,
                            sink, arg);
            found = 0;
            break;
        }
    }
    pthread_mutex_unlock(&cc_stacks_lock);
    return found;
}

void cc_agent_stacks_after_fork(void)
{
    /* The child's stream starts afresh: the parent's stack definitions are not in it. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    cc_stacks_lock = fresh;
    cc_hashmap_clear(&cc_stacks);
    cc_raw_head = NULL; /* the parent's pending stacks are the parent's (leaked, not freed) */
    cc_raw_tail = &cc_raw_head;
    atomic_fetch_add(&cc_stacks_generation, 1);
}

void cc_agent_stacks_report(FILE *out)
{
    cc_site_cache_report(out);
}
