/* memcheck's sub-allocators (CC_EV_SUBALLOC): the heaps and regions the NVTX memory API or
 * PyTorch's caching allocator described, each kept in an allocation map of its own
 * (core/allocmap.h: sorted, with its freed history, its clock and its holds), so that a device
 * access read back late is explained against the heaps and regions as they were at its launch.
 * Records: context = the heap's id, flags = the source, callsite = the registration's stack,
 * free_callsite = the call that ended the region. A heap's regions go with its unregistration,
 * its reset (remembered per heap, so that the report says so), and the free of the allocation
 * that holds it. The sentences name regions and heaps in the source's words: an NVTX region of
 * an NVTX heap, a tensor block of a caching-allocator segment. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/memcheck/memcheck.h"

typedef struct mc_reset {      /* a heap's last reset: regions freed with free_seq in (from, to] */
    uint64_t from, to;
} mc_reset;

struct mc_suballoc {
    cc_allocmap *heaps;
    cc_allocmap *regions;
    cc_hashmap resets;         /* heap id -> index into reset */
    mc_reset *reset;
    size_t nreset, reset_cap;
};

static mc_suballoc *sub_get(mc_state *s)
{
    if (s->sub == NULL) {
        mc_suballoc *m = calloc(1, sizeof *m);
        if (m == NULL || (m->heaps = cc_allocmap_new()) == NULL ||
            (m->regions = cc_allocmap_new()) == NULL) {
            if (m != NULL) {
                cc_allocmap_free(m->heaps);
            }
            free(m);
            return NULL;
        }
        s->sub = m;
    }
    return s->sub;
}

void mc_suballoc_free(mc_state *s)
{
    mc_suballoc *m = s->sub;
    if (m == NULL) {
        return;
    }
    cc_allocmap_free(m->heaps);
    cc_allocmap_free(m->regions);
    cc_hashmap_free(&m->resets);
    free(m->reset);
    free(m);
    s->sub = NULL;
}

/* The live heap of an id, or NULL. */
static const cc_alloc_rec *heap_of(const mc_suballoc *m, uint64_t id)
{
    for (size_t i = 0; i < cc_allocmap_live_count(m->heaps); i++) {
        const cc_alloc_rec *h = cc_allocmap_live_at(m->heaps, i);
        if (h->context == id) {
            return h;
        }
    }
    return NULL;
}

/* Index of the first live region with a base at or above lo. */
static size_t region_lower(const mc_suballoc *m, uint64_t lo)
{
    size_t a = 0, b = cc_allocmap_live_count(m->regions);
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (cc_allocmap_live_at(m->regions, mid)->base < lo) {
            a = mid + 1;
        } else {
            b = mid;
        }
    }
    return a;
}

/* Every live region of [lo, hi) goes (freed by callsite). */
static void regions_end(mc_suballoc *m, uint64_t lo, uint64_t hi, uint64_t callsite)
{
    for (;;) {
        size_t i = region_lower(m, lo);
        const cc_alloc_rec *r = cc_allocmap_live_at(m->regions, i);
        if (r == NULL || r->base >= hi) {
            return;
        }
        cc_alloc_rec out;
        cc_allocmap_remove(m->regions, r->base, callsite, &out);
    }
}

static void heap_end(mc_suballoc *m, const cc_alloc_rec *h, uint64_t callsite)
{
    uint64_t base = h->base, end = h->base + h->size;
    regions_end(m, base, end, callsite);
    cc_alloc_rec out;
    cc_allocmap_remove(m->heaps, base, callsite, &out);
}

static void heap_reset(mc_suballoc *m, const cc_alloc_rec *h, uint64_t callsite)
{
    uint64_t from = cc_allocmap_clock(m->regions);
    regions_end(m, h->base, h->base + h->size, callsite);
    uint64_t to = cc_allocmap_clock(m->regions);
    int added = 0;
    uint64_t *at = cc_hashmap_get_or_add(&m->resets, h->context, m->nreset, &added);
    if (at == NULL) {
        return;
    }
    if (added) {
        mc_reset *r = CC_ARRAY_PUSH(m->reset, m->nreset, m->reset_cap);
        if (r == NULL) {
            cc_hashmap_remove(&m->resets, h->context, NULL);
            return;
        }
    }
    m->reset[*at].from = from;
    m->reset[*at].to = to;
}

void mc_on_suballoc(mc_state *s, const cc_ev_suballoc *e)
{
    mc_suballoc *m = sub_get(s);
    if (m == NULL || e->heap == 0) {
        return;
    }
    cc_alloc_rec r;
    memset(&r, 0, sizeof r);
    r.base = e->address;
    r.size = e->size;
    r.mem_kind = CC_MEM_DEVICE;
    r.device = -1;
    r.context = e->heap;
    r.flags = e->source;
    r.callsite = e->callsite;
    const cc_alloc_rec *h = heap_of(m, e->heap);
    switch (e->op) {
    case CC_SUBALLOC_OP_HEAP_REGISTER:
        if (h != NULL) {
            heap_end(m, h, e->callsite); /* the id again: the old one ended unseen */
        }
        if (e->size > 0 && e->address + e->size > e->address) {
            cc_allocmap_add(m->heaps, &r);
        }
        break;
    case CC_SUBALLOC_OP_HEAP_UNREGISTER:
        if (h != NULL) {
            heap_end(m, h, e->callsite);
        }
        break;
    case CC_SUBALLOC_OP_HEAP_RESET:
        if (h != NULL) {
            heap_reset(m, h, e->callsite);
        }
        break;
    case CC_SUBALLOC_OP_REGION_REGISTER:
        /* inside its heap only (the agent checked; a scenario may not) */
        if (h != NULL && e->size > 0 && e->address >= h->base &&
            e->address + e->size <= h->base + h->size && e->address + e->size > e->address) {
            r.flags = h->flags;
            cc_allocmap_add(m->regions, &r);
        }
        break;
    case CC_SUBALLOC_OP_REGION_RESIZE: {
        const cc_alloc_rec *old = cc_allocmap_find(m->regions, e->address);
        if (old != NULL && old->base == e->address && e->size > 0) {
            cc_alloc_rec grown = *old;
            grown.size = e->size; /* the registration's stack stays the region's */
            cc_alloc_rec out;
            cc_allocmap_remove(m->regions, e->address, e->callsite, &out);
            cc_allocmap_add(m->regions, &grown);
        }
        break;
    }
    case CC_SUBALLOC_OP_REGION_UNREGISTER: {
        const cc_alloc_rec *old = cc_allocmap_find(m->regions, e->address);
        if (old != NULL && old->base == e->address) {
            cc_alloc_rec out;
            cc_allocmap_remove(m->regions, e->address, e->callsite, &out);
        }
        break;
    }
    default:
        break;
    }
}

void mc_suballoc_on_free(mc_state *s, uint64_t base, uint64_t size, uint64_t callsite)
{
    mc_suballoc *m = s->sub;
    if (m == NULL) {
        return;
    }
    uint64_t end = base + size;
    for (size_t i = 0; i < cc_allocmap_live_count(m->heaps);) {
        const cc_alloc_rec *h = cc_allocmap_live_at(m->heaps, i);
        if (h->base < end && h->base + h->size > base) {
            heap_end(m, h, callsite);
        } else {
            i++;
        }
    }
}

static void mark(mc_state *s, mc_launch *l)
{
    mc_suballoc *m = s->sub;
    l->heap_mark = m != NULL ? cc_allocmap_clock(m->heaps) : 0;
    l->region_mark = m != NULL ? cc_allocmap_clock(m->regions) : 0;
    l->sub_held = 0;
}

static void hold(mc_state *s, mc_launch *l)
{
    mc_suballoc *m = s->sub;
    if (m == NULL || cc_allocmap_hold(m->heaps, &l->heap_mark) != 0) {
        return;
    }
    if (cc_allocmap_hold(m->regions, &l->region_mark) != 0) {
        cc_allocmap_release(m->heaps, l->heap_mark);
        return;
    }
    l->sub_held = 1;
}

void mc_suballoc_launched(mc_state *s, uint64_t launch_id)
{
    mc_launch *slot = &s->launches[launch_id % MC_LAUNCH_RING];
    if (slot->launch_id == launch_id) {
        mark(s, slot);
    }
    /* an instrumented launch was just kept unread (a copy made before its marks) */
    if (s->nunread > 0 && s->unread[s->nunread - 1].launch_id == launch_id) {
        mc_launch *u = &s->unread[s->nunread - 1];
        mark(s, u);
        hold(s, u);
    }
}

void mc_suballoc_release(mc_state *s, const mc_launch *l)
{
    if (l->sub_held && s->sub != NULL) {
        cc_allocmap_release(s->sub->heaps, l->heap_mark);
        cc_allocmap_release(s->sub->regions, l->region_mark);
    }
}

static const char *region_word(uint32_t source)
{
    return source == CC_SUBALLOC_SRC_TORCH ? "tensor block" : "NVTX region";
}

static const char *heap_word(uint32_t source)
{
    return source == CC_SUBALLOC_SRC_TORCH ? "caching-allocator segment" : "NVTX heap";
}

/* The region freed at f: unregistered, gone with a reset of its heap, or freed by PyTorch. */
static void freed_words(const mc_suballoc *m, const cc_alloc_rec *f, char *how, size_t howlen,
                        char *role, size_t rolelen)
{
    const uint64_t *k = cc_hashmap_get(&m->resets, f->context);
    int reset = k != NULL && f->free_seq > m->reset[*k].from && f->free_seq <= m->reset[*k].to;
    if (f->flags == CC_SUBALLOC_SRC_TORCH) {
        snprintf(how, howlen, "that the caching allocator freed");
        snprintf(role, rolelen, "%s", f->free_callsite != 0
                                          ? "freed by the caching allocator"
                                          : "freed by the caching allocator (where: "
                                            "CUCHECK_MC_TORCH=free-stacks records it)");
    } else if (reset) {
        snprintf(how, howlen, "that went when its heap was reset (nvtxMemHeapReset)");
        snprintf(role, rolelen, "released by nvtxMemHeapReset");
    } else {
        snprintf(how, howlen, "that was unregistered (nvtxMemRegionsUnregister)");
        snprintf(role, rolelen, "unregistered (nvtxMemRegionsUnregister)");
    }
}

int mc_suballoc_explain(mc_state *s, const mc_launch *l, uint64_t addr, uint32_t size,
                        const char *verb, mc_sub_verdict *v)
{
    mc_suballoc *m = s->sub;
    memset(v, 0, sizeof v[0]);
    if (m == NULL) {
        return 0;
    }
    char scratch[384];
    uint64_t hmark = l != NULL ? l->heap_mark : UINT64_MAX;
    uint64_t rmark = l != NULL ? l->region_mark : UINT64_MAX;
    cc_where_info hw = cc_allocmap_where_at(m->heaps, addr, 1, hmark, scratch, sizeof scratch);
    if (hw.where != CC_WHERE_INSIDE) {
        return 0; /* in no heap registered at the launch */
    }
    const cc_alloc_rec *h = hw.alloc;
    uint32_t src = h->flags;
    char heap[160];
    snprintf(heap, sizeof heap, "a %" PRIu64 "-byte %s at 0x%" PRIx64, h->size, heap_word(src),
             h->base);
    cc_where_info w = cc_allocmap_where_at(m->regions, addr, size, rmark, scratch,
                                           sizeof scratch);
    const cc_alloc_rec *r = w.alloc;
    int in_heap = r != NULL && r->base >= h->base && r->base < h->base + h->size;
    if (w.where == CC_WHERE_INSIDE) {
        return 0; /* valid by the regions: the allocation map says what else is wrong */
    }
    if (w.where == CC_WHERE_FREED && in_heap) {
        /* A region resized smaller: the bytes past its new end are after its end. */
        cc_where_info live = cc_allocmap_where_at(m->regions, r->base, 1, rmark, scratch,
                                                  sizeof scratch);
        if (live.where == CC_WHERE_INSIDE && live.alloc->base == r->base) {
            w.where = CC_WHERE_AFTER;
            w.alloc = r = live.alloc;
            w.distance = addr - (r->base + r->size);
        }
    }
    snprintf(v->kind, sizeof v->kind, "invalid-global-%s", verb);
    if (!in_heap || w.where == CC_WHERE_NOWHERE) {
        snprintf(v->msg, sizeof v->msg, "Address 0x%" PRIx64 " lies in %s but in none of its "
                 "%ss (no live %s of the heap holds it)", addr, heap, region_word(src),
                 region_word(src));
        return 1;
    }
    v->region = r;
    switch (w.where) {
    case CC_WHERE_FREED: {
        char how[96], role[96];
        freed_words(m, r, how, sizeof how, role, sizeof role);
        v->freed = 1;
        snprintf(v->kind, sizeof v->kind, "use-after-free");
        snprintf(v->msg, sizeof v->msg, "Use after free: %s of size %" PRIu32 " bytes at 0x%"
                 PRIx64 ", at offset %" PRIu64 " of a %" PRIu64 "-byte %s at 0x%" PRIx64
                 " %s before this launch (in %s)", verb, size, addr, w.distance, r->size,
                 region_word(src), r->base, how, heap);
        snprintf(v->free_note, sizeof v->free_note, "%s", role);
        break;
    }
    case CC_WHERE_OVERRUN:
        snprintf(v->msg, sizeof v->msg, "Address 0x%" PRIx64 " (%s of size %" PRIu32
                 ") starts at offset %" PRIu64 " of a %" PRIu64 "-byte %s at 0x%" PRIx64
                 " and runs %" PRIu64 " bytes past its end (in %s)", addr, verb, size,
                 w.distance, r->size, region_word(src), r->base,
                 addr + size - (r->base + r->size), heap);
        break;
    case CC_WHERE_BEFORE:
        snprintf(v->msg, sizeof v->msg, "Address 0x%" PRIx64 " is %" PRIu64 " bytes before "
                 "the start of a %" PRIu64 "-byte %s at 0x%" PRIx64 ", the nearest %s in %s",
                 addr, w.distance, r->size, region_word(src), r->base, region_word(src), heap);
        break;
    default: /* AFTER */
        snprintf(v->msg, sizeof v->msg, "Address 0x%" PRIx64 " is %" PRIu64 " bytes after "
                 "the end of a %" PRIu64 "-byte %s at 0x%" PRIx64 ", the nearest %s in %s",
                 addr, w.distance, r->size, region_word(src), r->base, region_word(src), heap);
        break;
    }
    snprintf(v->alloc_note, sizeof v->alloc_note, "%" PRIu64 " bytes at 0x%" PRIx64 " %s",
             r->size, r->base, src == CC_SUBALLOC_SRC_TORCH
                                   ? "allocated as a tensor block by the caching allocator"
                                   : "registered as an NVTX region");
    return 1;
}
