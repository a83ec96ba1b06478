/* The agent's own time per callback domain and for stack capture (see self_time.h). */
#include "agent/core/self_time.h"
#include "agent/core/agent.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "agent/core/agent_knobs.h"

int cc_self_time_on;
static _Atomic uint64_t cc_self_ns[CC_SELF_SLOTS];
static _Atomic uint64_t cc_self_calls[CC_SELF_SLOTS];
static atomic_int cc_self_reported;

#define CC_SELF_API_IDS 1024 /* above the callback ids of either API domain in CUDA 13.0 */
#define CC_SELF_API_TOP 12   /* calls listed per domain */
static _Atomic uint64_t cc_self_api_calls[2][CC_SELF_API_IDS];
static _Atomic uint64_t cc_self_api_nested[2][CC_SELF_API_IDS];
static const char *_Atomic cc_self_api_names[2][CC_SELF_API_IDS];
static _Atomic uint64_t cc_self_api_ns[2][CC_SELF_API_IDS]; /* enter and exit callbacks */

void cc_self_time_init(void)
{
    const char *v = cc_knob_get(CC_KNOB_SELF_TIME);
    cc_self_time_on = v != NULL && strcmp(v, "1") == 0;
}

uint64_t cc_self_time_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void cc_self_time_add(unsigned slot, uint64_t start_ns)
{
    if (slot >= CC_SELF_SLOTS) {
        return;
    }
    atomic_fetch_add_explicit(&cc_self_ns[slot], cc_self_time_now() - start_ns,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&cc_self_calls[slot], 1, memory_order_relaxed);
}

void cc_self_time_api(int runtime, unsigned cbid, const char *name, int nested)
{
    int r = runtime != 0;
    if (cbid >= CC_SELF_API_IDS) {
        return;
    }
    atomic_fetch_add_explicit(&cc_self_api_calls[r][cbid], 1, memory_order_relaxed);
    if (nested) {
        atomic_fetch_add_explicit(&cc_self_api_nested[r][cbid], 1, memory_order_relaxed);
    }
    if (name != NULL && atomic_load(&cc_self_api_names[r][cbid]) == NULL) {
        atomic_store(&cc_self_api_names[r][cbid], name);
    }
}

void cc_self_time_api_add(int runtime, unsigned cbid, uint64_t start_ns)
{
    if (cbid < CC_SELF_API_IDS) {
        atomic_fetch_add_explicit(&cc_self_api_ns[runtime != 0][cbid],
                                  cc_self_time_now() - start_ns, memory_order_relaxed);
    }
}

/* The most frequent calls of one API domain, most frequent first (a selection on a copy of the
 * counts, each pick zeroed: the table is small and this runs once, at exit). */
static void cc_self_api_report(int r)
{
    uint64_t calls[CC_SELF_API_IDS];
    for (unsigned id = 0; id < CC_SELF_API_IDS; id++) {
        calls[id] = atomic_load(&cc_self_api_calls[r][id]);
    }
    for (int shown = 0; shown < CC_SELF_API_TOP; shown++) {
        unsigned best = 0;
        for (unsigned id = 1; id < CC_SELF_API_IDS; id++) {
            best = calls[id] > calls[best] ? id : best;
        }
        uint64_t best_n = calls[best];
        if (best_n == 0) {
            break;
        }
        calls[best] = 0;
        const char *name = atomic_load(&cc_self_api_names[r][best]);
        fprintf(stderr, "cucheck:     %-7s %-40s %10llu calls, %10llu inside runtime calls, "
                "%9.3f ms in their callbacks\n",
                r ? "runtime" : "driver", name != NULL ? name : "?", (unsigned long long)best_n,
                (unsigned long long)atomic_load(&cc_self_api_nested[r][best]),
                (double)atomic_load(&cc_self_api_ns[r][best]) / 1e6);
    }
}

static const char *cc_self_slot_name(unsigned slot)
{
    /* Sanitizer_CallbackDomain values of CUDA 13.0 */
    static const char *const names[] = {"invalid", "driver-api", "runtime-api", "resource",
                                        "synchronize", "launch", "memcpy", "memset",
                                        "batch-memop", "uvm", "graphs", "events"};
    switch (slot) {
    case CC_SELF_STACKS_PY: return "host stacks with Python frames (inside the callbacks above)";
    case CC_SELF_STACKS_CACHED: return "host stacks, native, from the call-site cache";
    case CC_SELF_STACKS_UNWOUND: return "host stacks, native, unwound";
    case CC_SELF_SITE_FILLS: return "call-site cache fills (inside the unwound ones)";
    case CC_SELF_PY_WALK: return "reading Python frames (inside all host stacks)";
    case CC_SELF_EMIT: return "events to the tool (inside the callbacks above)";
    case CC_SELF_ACCESS: return "streamcheck access sets after launches (emits included)";
    case CC_SELF_DEFERRED: return "deferred module patching at API exits";
    case CC_SELF_ACCESS_INFER: return "streamcheck: arguments laid out and scanned (in access sets)";
    case CC_SELF_LAUNCH_FILL: return "launch event fields: handles, kernel name, ids";
    case CC_SELF_TORCH: return "PyTorch allocator trace entries (stacks and events included)";
    case CC_SELF_SUBALLOC: return "region changes: events, queue and book (inside the entries)";
    case CC_SELF_LAUNCH_GATE: return "launch decisions and bindings (inside launch callbacks)";
    case CC_SELF_PATCHED_UNCHECKED:
        return "launches run unchecked in a patched module (inside the decisions)";
    case CC_SELF_PATCH: return "module patch calls (inside deferred patching, or at module load)";
    case CC_SELF_UNPATCH: return "module unpatch calls (inside deferred patching)";
    case CC_SELF_UNPATCH_READS: return "checked launches read back for an unpatch (in deferred)";
    default: break;
    }
    return slot < sizeof names / sizeof names[0] ? names[slot] : "other";
}

void cc_self_time_report(void)
{
    if (!cc_self_time_on || atomic_exchange(&cc_self_reported, 1)) {
        return;
    }
    fprintf(stderr, "cucheck: agent self time (pid %d): domain, calls, total ms, ns per call\n",
            (int)getpid());
    for (unsigned s = 0; s < CC_SELF_SLOTS; s++) {
        uint64_t n = atomic_load(&cc_self_calls[s]), ns = atomic_load(&cc_self_ns[s]);
        if (n == 0) {
            continue;
        }
        fprintf(stderr, "cucheck:   %-12s %10llu %10.3f %8.0f\n", cc_self_slot_name(s),
                (unsigned long long)n, (double)ns / 1e6, (double)ns / (double)n);
    }
    fprintf(stderr, "cucheck:   API calls with a callback, most frequent first:\n");
    cc_self_api_report(1);
    cc_self_api_report(0);
    cc_agent_stacks_report(stderr);
}
