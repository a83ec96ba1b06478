/* Instrumentation manager, state: the host copy of the live-allocation table (sorted ranges
 * with tombstones, core/range_table.h; sub-allocators' heaps are asked first and their queued
 * changes applied before every read, instr_suballoc.c) and each context's pool of per-launch
 * slots: the client's device header and pinned host records (sized by the client), and per slot
 * a pinned staging buffer and a device copy of the table, so that an upload never waits and
 * never touches memory a launch in flight reads. Every function here runs with cc_instr_g.lock
 * held. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "agent/instr/instr_internal.h"
#include "core/grow.h"

cc_instr_state cc_instr_g = {
    .patch_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

_Static_assert(sizeof(cc_range) == sizeof(cc_mc_range) &&
                   offsetof(cc_range, base) == offsetof(cc_mc_range, base) &&
                   offsetof(cc_range, end) == offsetof(cc_mc_range, end),
               "the table is copied as the patches' ranges");

const cc_range *cc_instr_table_find(uint64_t addr)
{
    cc_instr_suballoc_sync();
    return cc_range_table_find(&cc_instr_g.table, addr);
}

void cc_instr_table_ready(void)
{
    cc_instr_suballoc_sync();
    cc_range_table_compact(&cc_instr_g.table);
}

void cc_instr_table_add(uint64_t base, uint64_t size, int weak)
{
    if (size == 0) {
        return;
    }
    cc_instr_suballoc_sync();
    uint64_t end = base + size < base ? UINT64_MAX : base + size;
    if (cc_instr_suballoc_adding(base, end, weak)) {
        return; /* inside a sub-allocator's heap: its regions describe it */
    }
    cc_instr_table_insert(base, end, weak);
}

void cc_instr_table_insert(uint64_t base, uint64_t end, int weak)
{
    cc_range_table_insert(&cc_instr_g.table, base, end, weak);
}

void cc_instr_table_remove(uint64_t base)
{
    cc_instr_suballoc_sync();
    if (!cc_instr_suballoc_removing(base)) {
        cc_instr_table_erase(base);
    }
}

void cc_instr_table_take(uint64_t lo, uint64_t hi,
                         void (*each)(void *arg, uint64_t base, uint64_t end), void *arg)
{
    cc_range_table_take(&cc_instr_g.table, lo, hi, each, arg);
}

void cc_instr_table_erase(uint64_t base)
{
    cc_range_table_erase(&cc_instr_g.table, base);
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
    size_t table_bytes = CC_INSTR_TABLE_FIRST * sizeof(cc_mc_range);
    size_t stage_stride = round_up(cl->dev_bytes) + table_bytes;
    p = NULL;
    if (sanitizerAllocHost(c->ctx, &p, stage_stride * CC_INSTR_SLOTS) != SANITIZER_SUCCESS) {
        return -1;
    }
    c->stage_block = p;
    p = NULL;
    if (sanitizerAlloc(c->ctx, &p, table_bytes * CC_INSTR_SLOTS) != SANITIZER_SUCCESS) {
        return -1;
    }
    c->table_block = p;
    for (size_t i = 0; i < CC_INSTR_SLOTS; i++) {
        cc_instr_slot *s = &c->slots[i];
        s->dev = (unsigned char *)c->dev_slots + i * dev_stride;
        s->host = cl->host_bytes > 0 ? (unsigned char *)c->host_slots + i * host_stride : NULL;
        s->extra = NULL;
        s->stage = (unsigned char *)c->stage_block + i * stage_stride;
        s->stage_cap = stage_stride;
        s->table_dev = (cc_mc_range *)((unsigned char *)c->table_block + i * table_bytes);
        s->table_cap = CC_INSTR_TABLE_FIRST;
        s->stage_own = s->table_own = 0;
        s->table_version = UINT64_MAX;
    }
    return cl->ctx_init != NULL ? cl->ctx_init(c) : 0;
}

cc_instr_ctx *cc_instr_ctx_get(CUcontext ctx)
{
    cc_instr_state *g = &cc_instr_g;
    for (size_t i = 0; i < g->nctx; i++) {
        if (g->ctxs[i]->ctx == ctx) {
            return g->ctxs[i]->broken ? NULL : g->ctxs[i];
        }
    }
    if (CC_ARRAY_RESERVE(g->ctxs, g->ctxcap, g->nctx + 1)) {
        return NULL;
    }
    cc_instr_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    g->ctxs[g->nctx++] = c;
    c->ctx = ctx;
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
    cc_decided_invalidate();
    for (size_t i = 0; i < g->nctx; i++) {
        cc_instr_ctx *c = g->ctxs[i];
        if (c->ctx == ctx) {
            /* The context's device memory goes with it; pinned memory is freed here. */
            for (size_t k = 0; k < CC_INSTR_SLOTS; k++) {
                if (c->slots[k].stage_own) {
                    sanitizerFreeHost(ctx, c->slots[k].stage);
                }
            }
            if (c->stage_block != NULL) {
                sanitizerFreeHost(ctx, c->stage_block);
            }
            /* Launches not drained go with the context: no result of theirs will come. */
            for (size_t k = 0; k < CC_INSTR_SLOTS; k++) {
                if (c->slots[k].busy) {
                    cc_instr_emit_checked(c->slots[k].launch_id, 0, 0, CC_CHECKED_LOST);
                    cc_instr_module_bound(c->slots[k].module, -1);
                }
            }
            g->inflight -= c->nbusy;
            if (g->client->ctx_destroy != NULL) {
                g->client->ctx_destroy(c);
            }
            if (c->host_slots != NULL) {
                sanitizerFreeHost(ctx, c->host_slots);
            }
            g->ctxs[i] = g->ctxs[--g->nctx];
            free(c);
            return;
        }
    }
}

int cc_instr_slot_take(cc_instr_ctx *c)
{
    for (int i = 0; i < CC_INSTR_SLOTS; i++) {
        if (!c->slots[i].busy) {
            c->slots[i].busy = 1;
            c->nbusy++;
            return i;
        }
    }
    return -1;
}

static size_t grow(size_t have, size_t want, size_t first)
{
    size_t cap = have > first ? have : first;
    while (cap < want) {
        cap *= 2;
    }
    return cap;
}

int cc_instr_slot_reserve(cc_instr_ctx *c, int slot, size_t bytes, size_t ranges)
{
    cc_instr_slot *s = &c->slots[slot];
    if (bytes > s->stage_cap) {
        size_t cap = grow(s->stage_cap, bytes, 4096);
        void *p = NULL;
        if (sanitizerAllocHost(c->ctx, &p, cap) != SANITIZER_SUCCESS) {
            return -1;
        }
        if (s->stage_own) {
            sanitizerFreeHost(c->ctx, s->stage);
        }
        s->stage = p;
        s->stage_cap = cap;
        s->stage_own = 1;
    }
    if (ranges > s->table_cap) {
        /* The slot is not bound: no launch reads its old table any more. */
        size_t cap = grow(s->table_cap, ranges, CC_INSTR_TABLE_FIRST);
        void *p = NULL;
        if (sanitizerAlloc(c->ctx, &p, cap * sizeof(cc_mc_range)) != SANITIZER_SUCCESS) {
            return -1;
        }
        if (s->table_own) {
            sanitizerFree(c->ctx, s->table_dev);
        }
        s->table_dev = p;
        s->table_cap = cap;
        s->table_own = 1;
        s->table_version = UINT64_MAX;
    }
    return 0;
}
