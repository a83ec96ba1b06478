/* The per-thread call-site cache (see host_site_cache.h). Each thread owns a small set-associative
 * table, allocated on its first fill and freed when the thread exits: sets are chosen by `here`,
 * each holds the most recently used chains first. Slots are read only on the thread that wrote
 * them, between `here` and the thread's stack base, which stays mapped while the thread lives. */
#include "agent/host/host_site_cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>
#include "agent/core/agent_knobs.h"

#define CC_SITE_SETS 64
#define CC_SITE_WAYS 16
#define CC_SITE_PAIRS_MAX 64 /* frames compared per entry: at least the capture's CC_NATIVE_MAX */
#define CC_SITE_SEARCH 8     /* the capturing function's own frames at the top of pcs, at most */
/* After this many fill attempts, a thread whose lookups hit fewer than 4 times per attempt
 * (its stacks rarely repeat) stops filling: a fill costs a slow unwind. */
#define CC_SITE_TRIAL 1024

typedef struct cc_site_entry {
    uintptr_t here;
    unsigned generation;
    int npairs;
    uint64_t hash, id;
    uint32_t off[CC_SITE_PAIRS_MAX]; /* slot address - here */
    uint64_t val[CC_SITE_PAIRS_MAX]; /* the return address it held */
} cc_site_entry;

typedef struct cc_site_table {
    cc_site_entry *way[CC_SITE_SETS][CC_SITE_WAYS];
    uint64_t hits, attempts, fills;
    int no_fill;
} cc_site_table;

static _Thread_local cc_site_table *cc_site_tls;

/* Fill outcomes over all threads, for cc_site_cache_report. */
enum { CC_FILL_OK, CC_FILL_NO_SLOT, CC_FILL_UNALIGNED, CC_FILL_SHORT, CC_FILL_STOPPED, CC_FILL_N };
static _Atomic uint64_t cc_fill_outcomes[CC_FILL_N];

static void cc_fill_count(int outcome)
{
    atomic_fetch_add_explicit(&cc_fill_outcomes[outcome], 1, memory_order_relaxed);
}
static pthread_key_t cc_site_key;
static pthread_once_t cc_site_once = PTHREAD_ONCE_INIT;
static int cc_site_key_ok;

static void cc_site_table_free(void *p)
{
    cc_site_table *t = p;
    if (t == NULL) {
        return;
    }
    for (int s = 0; s < CC_SITE_SETS; s++) {
        for (int w = 0; w < CC_SITE_WAYS; w++) {
            free(t->way[s][w]);
        }
    }
    free(t);
}

static void cc_site_init(void)
{
    cc_site_key_ok = pthread_key_create(&cc_site_key, cc_site_table_free) == 0;
}

int cc_site_cache_enabled(void)
{
#if defined(__x86_64__)
    static int cached = -1; /* a racy first read is harmless: every thread computes the same */
    if (cached < 0) {
        const char *v = cc_knob_get(CC_KNOB_SITE_CACHE);
        cached = !(v != NULL && strcmp(v, "0") == 0);
    }
    return cached;
#else
    return 0; /* the slot rule below (return address just under the CFA) is x86-64's */
#endif
}

/* A cache, not a map: an entry may be evicted at any time (least recently used in its set), and
 * entries are variable-length frame chains; core/hashmap.h does not fit and is not wanted here. */
static unsigned cc_site_set(uintptr_t here)
{
    return (unsigned)(((uint64_t)(here >> 4) * 0x9E3779B97F4A7C15ull) >> 58) & (CC_SITE_SETS - 1);
}

static uint64_t cc_site_read(uintptr_t addr)
{
    uint64_t v;
    memcpy(&v, (const void *)addr, sizeof v);
    return v;
}

int cc_site_cache_lookup(uintptr_t here, unsigned generation, uint64_t *hash, uint64_t *id)
{
    cc_site_table *t = cc_site_tls;
    if (t == NULL) {
        return 0;
    }
    cc_site_entry **ways = t->way[cc_site_set(here)];
    for (int w = 0; w < CC_SITE_WAYS && ways[w] != NULL; w++) {
        cc_site_entry *e = ways[w];
        if (e->here != here || e->generation != generation) {
            continue;
        }
        int i = 0;
        while (i < e->npairs && cc_site_read(here + e->off[i]) == e->val[i]) {
            i++;
        }
        if (i < e->npairs) {
            continue;
        }
        if (w > 0) { /* most recently used first */
            memmove(&ways[1], &ways[0], (size_t)w * sizeof ways[0]);
            ways[0] = e;
        }
        t->hits++;
        *hash = e->hash;
        *id = e->id;
        return 1;
    }
    return 0;
}

/* libgcc's unwinder walks the frames; each frame's return address sits 8 bytes below the CFA it
 * reports with it. Frames at or below `here` (the capture machinery) are skipped. */
typedef struct cc_site_walk {
    uintptr_t here;
    int n, max, bad;
    uint64_t ip[CC_SITE_PAIRS_MAX + CC_SITE_SEARCH];
    uint32_t off[CC_SITE_PAIRS_MAX + CC_SITE_SEARCH];
} cc_site_walk;

static _Unwind_Reason_Code cc_site_frame(struct _Unwind_Context *ctx, void *arg)
{
    cc_site_walk *w = arg;
    uintptr_t ip = (uintptr_t)_Unwind_GetIP(ctx);
    uintptr_t cfa = (uintptr_t)_Unwind_GetCFA(ctx);
    if (ip == 0) {
        return _URC_END_OF_STACK;
    }
    if (cfa < 8 || cfa - 8 <= w->here) {
        return _URC_NO_REASON;
    }
    uintptr_t slot = cfa - 8;
    if (slot - w->here > UINT32_MAX || cc_site_read(slot) != (uint64_t)ip) {
        w->bad = 1; /* a signal frame, or a layout this rule does not describe */
        return _URC_END_OF_STACK;
    }
    w->ip[w->n] = ip;
    w->off[w->n] = (uint32_t)(slot - w->here);
    w->n++;
    return w->n == w->max ? _URC_END_OF_STACK : _URC_NO_REASON;
}

static cc_site_table *cc_site_table_get(void)
{
    if (cc_site_tls != NULL) {
        return cc_site_tls;
    }
    pthread_once(&cc_site_once, cc_site_init);
    if (!cc_site_key_ok) {
        return NULL;
    }
    cc_site_table *t = calloc(1, sizeof *t);
    if (t == NULL || pthread_setspecific(cc_site_key, t) != 0) {
        free(t);
        return NULL;
    }
    cc_site_tls = t;
    return t;
}

void cc_site_cache_fill(uintptr_t here, unsigned generation, const uint64_t *pcs, int npcs,
                        uint64_t hash, uint64_t id)
{
    if (npcs <= 0 || !cc_site_cache_enabled()) {
        return;
    }
    cc_site_table *t = cc_site_table_get();
    if (t == NULL || t->no_fill) {
        return;
    }
    t->attempts++;
    if (t->attempts >= CC_SITE_TRIAL && t->hits < 4 * t->attempts) {
        t->no_fill = 1;
        cc_fill_count(CC_FILL_STOPPED);
        return;
    }
    cc_site_walk walk;
    walk.here = here;
    walk.n = 0;
    walk.bad = 0;
    walk.max = npcs + CC_SITE_SEARCH < (int)(sizeof walk.ip / sizeof walk.ip[0])
                   ? npcs + CC_SITE_SEARCH
                   : (int)(sizeof walk.ip / sizeof walk.ip[0]);
    _Unwind_Backtrace(cc_site_frame, &walk);
    if (walk.bad || walk.n == 0) {
        cc_fill_count(CC_FILL_NO_SLOT);
        return;
    }
    /* Align: the first frame above `here` is somewhere among pcs' first entries (pcs also holds
     * the capturing function's own frames); from there both unwinders must agree on every frame
     * that pcs holds. */
    int m = 0;
    while (m < npcs && m < CC_SITE_SEARCH && pcs[m] != walk.ip[0]) {
        m++;
    }
    if (m == npcs || m == CC_SITE_SEARCH) {
        cc_fill_count(CC_FILL_UNALIGNED);
        return;
    }
    int need = npcs - m;
    if (need > CC_SITE_PAIRS_MAX || walk.n < need) {
        cc_fill_count(CC_FILL_SHORT);
        return;
    }
    for (int j = 0; j < need; j++) {
        if (walk.ip[j] != pcs[m + j]) {
            cc_fill_count(CC_FILL_UNALIGNED);
            return;
        }
    }
    cc_site_entry **ways = t->way[cc_site_set(here)];
    cc_site_entry *e = ways[CC_SITE_WAYS - 1]; /* the least recently used is reused */
    if (e == NULL) {
        e = malloc(sizeof *e);
        if (e == NULL) {
            return;
        }
    }
    memmove(&ways[1], &ways[0], (CC_SITE_WAYS - 1) * sizeof ways[0]);
    ways[0] = e;
    e->here = here;
    e->generation = generation;
    e->npairs = need;
    e->hash = hash;
    e->id = id;
    memcpy(e->off, walk.off, (size_t)need * sizeof e->off[0]);
    memcpy(e->val, walk.ip, (size_t)need * sizeof e->val[0]);
    t->fills++;
    cc_fill_count(CC_FILL_OK);
}

void cc_site_cache_report(FILE *out)
{
    uint64_t n[CC_FILL_N];
    for (int i = 0; i < CC_FILL_N; i++) {
        n[i] = atomic_load(&cc_fill_outcomes[i]);
    }
    fprintf(out, "cucheck:   call-site cache fills: %llu kept, %llu without return-address slots, "
                 "%llu where the unwinders disagreed, %llu too shallow; %llu thread(s) stopped "
                 "filling\n",
            (unsigned long long)n[CC_FILL_OK], (unsigned long long)n[CC_FILL_NO_SLOT],
            (unsigned long long)n[CC_FILL_UNALIGNED], (unsigned long long)n[CC_FILL_SHORT],
            (unsigned long long)n[CC_FILL_STOPPED]);
}

void cc_site_cache_counts(uint64_t *hits, uint64_t *fills)
{
    cc_site_table *t = cc_site_tls;
    *hits = t != NULL ? t->hits : 0;
    *fills = t != NULL ? t->fills : 0;
}
