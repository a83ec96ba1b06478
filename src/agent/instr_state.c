/* Instrumentation manager, state: the host copy of the live-allocation table (sorted ranges),
 * its device copies (one per context, re-uploaded only when the table changed), and each
 * context's pool of per-launch slots (the client's device header + pinned host records, sized
 * by the client).
 * Every function here runs with cc_instr_g.lock held. */
#include <stdlib.h>
#include <string.h>
#include "agent.h"
#include "instr_internal.h"

cc_instr_state cc_instr_g = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

static size_t table_upper(uint64_t addr)
{
    size_t lo = 0, hi = cc_instr_g.ntable;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cc_instr_g.table[mid].base <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void cc_instr_table_add(uint64_t base, uint64_t size, int weak)
{
    cc_instr_state *g = &cc_instr_g;
    if (size == 0) {
        return;
    }
    uint64_t end = base + size < base ? UINT64_MAX : base + size;
    /* Drop ranges the new one overlaps (their free was missed). */
    size_t i = table_upper(base);
    if (i > 0 && g->table[i - 1].end > base) {
        i--;
    }
    while (i < g->ntable && g->table[i].base < end) {
        if (g->table[i].end > base && weak) {
            return;
        }
        if (g->table[i].end > base) {
            memmove(&g->table[i], &g->table[i + 1], (g->ntable - i - 1) * sizeof g->table[0]);
            g->ntable--;
        } else {
            i++;
        }
    }
    if (g->ntable == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 256;
        cc_mc_range *p = realloc(g->table, cap * sizeof *p);
        if (p == NULL) {
            return;
        }
        g->table = p;
        g->cap = cap;
    }
    size_t at = table_upper(base);
    memmove(&g->table[at + 1], &g->table[at], (g->ntable - at) * sizeof g->table[0]);
    g->table[at].base = base;
    g->table[at].end = end;
    g->ntable++;
    g->version++;
}

void cc_instr_table_remove(uint64_t base)
{
    cc_instr_state *g = &cc_instr_g;
    size_t i = table_upper(base);
    if (i > 0 && g->table[i - 1].base == base) {
        memmove(&g->table[i - 1], &g->table[i], (g->ntable - i) * sizeof g->table[0]);
        g->ntable--;
        g->version++;
    }
}

static size_t round_up(size_t n)
{
    return (n + 255u) & ~(size_t)255u;
}

static int ctx_setup(cc_instr_ctx *c)
{
    const cc_instr_client *cl = cc_instr_g.client;
    size_t dev_stride = round_up(cl->dev_bytes);
    size_t host_stride = round_up(cl->host_bytes);
    void *p = NULL;
    if (sanitizerAlloc(c->ctx, &p, dev_stride * CC_INSTR_SLOTS) != SANITIZER_SUCCESS) {
        return -1;
    }
    c->dev_slots = p;
    p = NULL;
    if (cl->host_bytes > 0) {
        if (sanitizerAllocHost(c->ctx, &p, host_stride * CC_INSTR_SLOTS) != SANITIZER_SUCCESS) {
            return -1;
        }
        c->host_slots = p;
        memset(c->host_slots, 0, host_stride * CC_INSTR_SLOTS);
    }
    for (size_t i = 0; i < CC_INSTR_SLOTS; i++) {
        c->slots[i].dev = (unsigned char *)c->dev_slots + i * dev_stride;
        c->slots[i].host = cl->host_bytes > 0 ? (unsigned char *)c->host_slots + i * host_stride
                                              : NULL;
        c->slots[i].extra = NULL;
    }
    return cl->ctx_init != NULL ? cl->ctx_init(c) : 0;
}

cc_instr_ctx *cc_instr_ctx_get(CUcontext ctx)
{
    cc_instr_state *g = &cc_instr_g;
    for (size_t i = 0; i < g->nctx; i++) {
        if (g->ctxs[i].ctx == ctx) {
            return g->ctxs[i].broken ? NULL : &g->ctxs[i];
        }
    }
    cc_instr_ctx *p = realloc(g->ctxs, (g->nctx + 1) * sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    g->ctxs = p;
    cc_instr_ctx *c = &g->ctxs[g->nctx++];
    memset(c, 0, sizeof *c);
    c->ctx = ctx;
    c->table_version = UINT64_MAX;
    if (ctx_setup(c) != 0) {
        c->broken = 1;
        cc_agent_note("%s: cannot allocate its per-launch buffers in context %p: "
                      "launches there run uninstrumented", g->client->name, (void *)ctx);
        return NULL;
    }
    return c;
}

void cc_instr_ctx_destroy(CUcontext ctx)
{
    cc_instr_state *g = &cc_instr_g;
    for (size_t i = 0; i < g->nctx; i++) {
        if (g->ctxs[i].ctx == ctx) {
            /* The context's memory goes with it; the pinned host records too. */
            for (size_t k = 0; k < g->ngrave;) {
                if (g->graveyard[k].ctx == ctx) {
                    g->graveyard[k] = g->graveyard[--g->ngrave]; /* gone with the context */
                } else {
                    k++;
                }
            }
            if (g->client->ctx_destroy != NULL) {
                g->client->ctx_destroy(&g->ctxs[i]);
            }
            if (g->ctxs[i].host_slots != NULL) {
                sanitizerFreeHost(ctx, g->ctxs[i].host_slots);
            }
            g->ctxs[i] = g->ctxs[--g->nctx];
            return;
        }
    }
}

int cc_instr_ctx_sync_table(cc_instr_ctx *c, Sanitizer_StreamHandle hStream)
{
    cc_instr_state *g = &cc_instr_g;
    if (c->table_version == g->version) {
        return 0;
    }
    size_t n = g->ntable > 0 ? g->ntable : 1;
    /* A checked launch in flight may read the current buffer: never rewrite it under one. */
    if (n > c->dev_cap || g->inflight > 0) {
        size_t cap = 256;
        while (cap < n) {
            cap *= 2;
        }
        void *p = NULL;
        if (sanitizerAlloc(c->ctx, &p, cap * sizeof(cc_mc_range)) != SANITIZER_SUCCESS) {
            return -1;
        }
        if (c->dev_table != NULL) {
            if (g->ngrave < sizeof g->graveyard / sizeof g->graveyard[0]) {
                g->graveyard[g->ngrave].ctx = c->ctx; /* a launch may still read it */
                g->graveyard[g->ngrave++].ptr = c->dev_table;
            }
        }
        c->dev_table = p;
        c->dev_cap = cap;
    }
    if (g->ntable > 0 &&
        sanitizerMemcpyHostToDeviceAsync(c->dev_table, g->table, g->ntable * sizeof(cc_mc_range),
                                         hStream) != SANITIZER_SUCCESS) {
        return -1;
    }
    /* Launches on other streams read the same buffer: let the copy land before any of them. */
    sanitizerStreamSynchronize(hStream);
    c->table_version = g->version;
    return 0;
}

int cc_instr_slot_take(cc_instr_ctx *c)
{
    for (int i = 0; i < CC_INSTR_SLOTS; i++) {
        if (!c->slots[i].busy) {
            c->slots[i].busy = 1;
            return i;
        }
    }
    return -1;
}

void cc_instr_free_graveyard(void)
{
    cc_instr_state *g = &cc_instr_g;
    if (g->inflight != 0) {
        return;
    }
    for (size_t i = 0; i < g->ngrave; i++) {
        sanitizerFree(g->graveyard[i].ctx, g->graveyard[i].ptr);
    }
    g->ngrave = 0;
}
