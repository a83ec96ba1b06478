/* The allocation map (allocmap.h): a sorted array of live allocations searched by binary search,
 * a ring of the most recently freed ones (plus those a hold keeps, allocmap_holds.c), and a clock
 * stamped on every add and free, so that a question can be asked about the map as it was earlier
 * (cc_allocmap_where_at). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/allocmap_internal.h"
#include "core/grow.h"
#include "cucheck/event.h"
#include "core/sorted_search.h"

cc_allocmap *cc_allocmap_new(void)
{
    cc_allocmap *m = calloc(1, sizeof *m);
    return m;
}

void cc_allocmap_free(cc_allocmap *m)
{
    if (m != NULL) {
        cc_allocmap_holds_free(m);
        free(m->live);
        free(m);
    }
}

static uint64_t rec_end(const cc_alloc_rec *r)
{
    uint64_t end = r->base + r->size;
    return end < r->base ? UINT64_MAX : end; /* saturate */
}

/* Index of the first live allocation with base > addr. */
static size_t upper_bound(const cc_allocmap *m, uint64_t addr)
{
    return CC_SORTED_UPPER(m->live, m->nlive, cc_alloc_rec, base, addr);
}

static void push_freed(cc_allocmap *m, const cc_alloc_rec *r)
{
    if (m->nfreed == CC_ALLOCMAP_FREED_HISTORY) {
        cc_allocmap_evicting(m, &m->freed[m->freed_next]); /* the oldest leaves the ring */
    }
    m->freed[m->freed_next] = *r;
    m->freed[m->freed_next].free_seq = ++m->clock;
    m->freed_next = (m->freed_next + 1) % CC_ALLOCMAP_FREED_HISTORY;
    if (m->nfreed < CC_ALLOCMAP_FREED_HISTORY) {
        m->nfreed++;
    }
}

static void remove_at(cc_allocmap *m, size_t i)
{
    m->live_bytes -= m->live[i].size;
    memmove(&m->live[i], &m->live[i + 1], (m->nlive - i - 1) * sizeof m->live[0]);
    m->nlive--;
}

int cc_allocmap_add(cc_allocmap *m, const cc_alloc_rec *rec)
{
    int retired = 0;
    cc_alloc_rec r = *rec;
    r.free_callsite = 0;
    r.free_seq = 0;
    uint64_t end = rec_end(&r);
    /* Retire live allocations overlapping [base, end). */
    size_t i = upper_bound(m, r.base);
    if (i > 0 && rec_end(&m->live[i - 1]) > r.base) {
        i--;
    }
    while (i < m->nlive && m->live[i].base < end && r.size > 0) {
        if (rec_end(&m->live[i]) > r.base) {
            push_freed(m, &m->live[i]);
            remove_at(m, i);
            retired++;
        } else {
            i++;
        }
    }
    if (CC_ARRAY_RESERVE(m->live, m->cap, m->nlive + 1)) {
        return -1;
    }
    r.seq = ++m->clock; /* after the retired ones' frees */
    size_t at = upper_bound(m, r.base);
    memmove(&m->live[at + 1], &m->live[at], (m->nlive - at) * sizeof m->live[0]);
    m->live[at] = r;
    m->nlive++;
    m->live_bytes += r.size;
    if (end > m->max_end) {
        m->max_end = end;
    }
    return retired;
}

const cc_alloc_rec *cc_allocmap_freed_newest(const cc_allocmap *m, size_t k)
{
    size_t n = CC_ALLOCMAP_FREED_HISTORY;
    if (k >= m->nfreed) {
        return &m->kept[m->nkept - 1 - (k - m->nfreed)];
    }
    return &m->freed[(m->freed_next + n - 1 - k) % n];
}

static size_t nfreed_all(const cc_allocmap *m)
{
    return m->nfreed + m->nkept;
}

/* The most recent freed record that starts at base (exact) or contains addr (any). */
static const cc_alloc_rec *find_freed(const cc_allocmap *m, uint64_t addr, int exact_base)
{
    for (size_t k = 0; k < nfreed_all(m); k++) {
        const cc_alloc_rec *r = cc_allocmap_freed_newest(m, k);
        if (exact_base ? r->base == addr : (addr >= r->base && addr < rec_end(r))) {
            return r;
        }
    }
    return NULL;
}

cc_free_verdict cc_allocmap_remove(cc_allocmap *m, uint64_t base, uint64_t free_callsite,
                                   cc_alloc_rec *out)
{
    size_t i = upper_bound(m, base);
    if (i > 0 && m->live[i - 1].base == base) {
        cc_alloc_rec r = m->live[i - 1];
        r.free_callsite = free_callsite;
        remove_at(m, i - 1);
        push_freed(m, &r);
        if (out != NULL) {
            *out = r;
        }
        return CC_FREE_OK;
    }
    if (i > 0 && base < rec_end(&m->live[i - 1])) {
        if (out != NULL) {
            *out = m->live[i - 1];
        }
        return CC_FREE_INTERIOR;
    }
    const cc_alloc_rec *f = find_freed(m, base, 1);
    if (f != NULL) {
        if (out != NULL) {
            *out = *f;
        }
        return CC_FREE_DOUBLE;
    }
    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    return CC_FREE_UNKNOWN;
}

const cc_alloc_rec *cc_allocmap_find(const cc_allocmap *m, uint64_t addr)
{
    if (m->nlive == 0 || addr < m->live[0].base || addr >= m->max_end) {
        return NULL;
    }
    size_t i = upper_bound(m, addr);
    if (i > 0 && addr < rec_end(&m->live[i - 1])) {
        return &m->live[i - 1];
    }
    return NULL;
}

void cc_allocmap_span(const cc_allocmap *m, uint64_t *lo, uint64_t *hi)
{
    *lo = m->nlive > 0 ? m->live[0].base : 0;
    *hi = m->nlive > 0 ? m->max_end : 0;
}

const cc_alloc_rec *cc_allocmap_find_freed(const cc_allocmap *m, uint64_t addr)
{
    if (cc_allocmap_find(m, addr) != NULL) {
        return NULL;
    }
    return find_freed(m, addr, 0);
}

/* Of two allocations, the one nearer to addr (by distance to its nearest byte). */
static const cc_alloc_rec *nearer(const cc_alloc_rec *before, const cc_alloc_rec *after,
                                  uint64_t addr)
{
    if (before == NULL || after == NULL) {
        return before != NULL ? before : after;
    }
    uint64_t d_before = addr - (rec_end(before) - (before->size > 0 ? 1 : 0));
    uint64_t d_after = after->base - addr;
    return d_after < d_before ? after : before;
}

const cc_alloc_rec *cc_allocmap_nearest(const cc_allocmap *m, uint64_t addr)
{
    if (m->nlive == 0) {
        return NULL;
    }
    size_t i = upper_bound(m, addr);
    const cc_alloc_rec *before = i > 0 ? &m->live[i - 1] : NULL;
    const cc_alloc_rec *after = i < m->nlive ? &m->live[i] : NULL;
    if (before != NULL && addr < rec_end(before)) {
        return before;
    }
    return nearer(before, after, addr);
}

size_t cc_allocmap_live_count(const cc_allocmap *m)
{
    return m->nlive;
}

const cc_alloc_rec *cc_allocmap_live_at(const cc_allocmap *m, size_t i)
{
    return i < m->nlive ? &m->live[i] : NULL;
}

uint64_t cc_allocmap_live_bytes(const cc_allocmap *m)
{
    return m->live_bytes;
}

size_t cc_allocmap_drop_context(cc_allocmap *m, uint64_t context)
{
    size_t dropped = 0;
    for (size_t i = 0; i < m->nlive;) {
        if (m->live[i].context == context) {
            push_freed(m, &m->live[i]);
            remove_at(m, i);
            dropped++;
        } else {
            i++;
        }
    }
    return dropped;
}

static const char *kind_word(uint32_t kind)
{
    switch (kind) {
    case CC_MEM_DEVICE: return "device";
    case CC_MEM_DEVICE_ASYNC: return "stream-ordered";
    case CC_MEM_MANAGED: return "managed";
    case CC_MEM_HOST_PINNED: return "pinned host";
    case CC_MEM_HOST_MAPPED: return "mapped host";
    case CC_MEM_VIRTUAL_RESERVE: return "reserved virtual";
    case CC_MEM_VIRTUAL_MAP: return "mapped virtual";
    case CC_MEM_MODULE_GLOBAL: return "__device__ variable";
    default: return "device";
    }
}

/* The sentence for an address: in contains it, else freed (contains it, freed), else nearest. */
static cc_where_info describe(const cc_alloc_rec *in, const cc_alloc_rec *freed,
                              const cc_alloc_rec *nearest, uint64_t addr, uint64_t size,
                              char *out, size_t outlen)
{
    cc_where_info w = {CC_WHERE_NOWHERE, NULL, 0};
    uint64_t last = size > 0 ? addr + size - 1 : addr;
    if (last < addr) {
        last = UINT64_MAX;
    }
    if (in != NULL) {
        w.alloc = in;
        w.distance = addr - in->base;
        if (last < rec_end(in)) {
            w.where = CC_WHERE_INSIDE;
            snprintf(out, outlen, "at offset %" PRIu64 " of a %" PRIu64 "-byte %s allocation at 0x%" PRIx64,
                     w.distance, in->size, kind_word(in->mem_kind), in->base);
        } else {
            w.where = CC_WHERE_OVERRUN;
            snprintf(out, outlen,
                     "%" PRIu64 " bytes starting at offset %" PRIu64 " of a %" PRIu64
                     "-byte %s allocation at 0x%" PRIx64 ", running %" PRIu64 " bytes past its end",
                     size, w.distance, in->size, kind_word(in->mem_kind), in->base,
                     last + 1 - rec_end(in));
        }
        return w;
    }
    if (freed != NULL) {
        w.where = CC_WHERE_FREED;
        w.alloc = freed;
        w.distance = addr - freed->base;
        snprintf(out, outlen,
                 "at offset %" PRIu64 " of a %" PRIu64 "-byte %s allocation at 0x%" PRIx64
                 " that was already freed",
                 w.distance, freed->size, kind_word(freed->mem_kind), freed->base);
        return w;
    }
    const cc_alloc_rec *n = nearest;
    if (n == NULL) {
        snprintf(out, outlen, "not inside any allocation (none is live)");
        return w;
    }
    w.alloc = n;
    if (addr >= rec_end(n)) {
        w.where = CC_WHERE_AFTER;
        w.distance = addr - rec_end(n);
        snprintf(out, outlen,
                 "%" PRIu64 " bytes after the end of a %" PRIu64 "-byte %s allocation at 0x%" PRIx64,
                 w.distance, n->size, kind_word(n->mem_kind), n->base);
    } else {
        w.where = CC_WHERE_BEFORE;
        w.distance = n->base - addr;
        snprintf(out, outlen,
                 "%" PRIu64 " bytes before the start of a %" PRIu64 "-byte %s allocation at 0x%" PRIx64,
                 w.distance, n->size, kind_word(n->mem_kind), n->base);
    }
    return w;
}

/* Whether an allocation live in the map's state of interest overlaps freed's range: its memory
 * was handed out again, so an access there is not explained by the old allocation (an overrun of
 * the new one is more likely). */
typedef struct reuse_search {
    uint64_t lo, hi;
    int found;
} reuse_search;

static int visit_reuse(const cc_alloc_rec *r, void *arg)
{
    reuse_search *o = arg;
    if (r->base < o->hi && rec_end(r) > o->lo) {
        o->found = 1;
        return 1;
    }
    return 0;
}

static int freed_reused_now(const cc_allocmap *m, const cc_alloc_rec *freed)
{
    reuse_search o = {freed->base, rec_end(freed), 0};
    for (size_t i = 0; i < m->nlive && !o.found; i++) {
        visit_reuse(&m->live[i], &o);
    }
    return o.found;
}

cc_where_info cc_allocmap_where(const cc_allocmap *m, uint64_t addr, uint64_t size, char *out,
                                size_t outlen)
{
    const cc_alloc_rec *in = cc_allocmap_find(m, addr);
    const cc_alloc_rec *freed = in == NULL ? cc_allocmap_find_freed(m, addr) : NULL;
    if (freed != NULL && freed_reused_now(m, freed)) {
        freed = NULL;
    }
    const cc_alloc_rec *nearest = in == NULL && freed == NULL ? cc_allocmap_nearest(m, addr) : NULL;
    return describe(in, freed, nearest, addr, size, out, outlen);
}

uint64_t cc_allocmap_clock(const cc_allocmap *m)
{
    return m->clock;
}

/* Allocations live at `clock`: the live ones made by then, and the freed ones made by then and
 * freed after it. visit returns 1 to stop. */
typedef int (*live_visit)(const cc_alloc_rec *r, void *arg);

static void each_live_at(const cc_allocmap *m, uint64_t clock, live_visit visit, void *arg)
{
    for (size_t i = 0; i < m->nlive; i++) {
        if (m->live[i].seq <= clock && visit(&m->live[i], arg)) {
            return;
        }
    }
    for (size_t k = 0; k < nfreed_all(m); k++) {
        const cc_alloc_rec *r = cc_allocmap_freed_newest(m, k);
        if (r->seq <= clock && r->free_seq > clock && visit(r, arg)) {
            return;
        }
    }
}

typedef struct near_search {
    uint64_t addr;
    const cc_alloc_rec *in;      /* contains addr */
    const cc_alloc_rec *before;  /* nearest ending at or before addr */
    const cc_alloc_rec *after;   /* nearest starting after addr */
} near_search;

static int visit_near(const cc_alloc_rec *r, void *arg)
{
    near_search *n = arg;
    if (r->size == 0) {
        return 0;
    }
    if (n->addr >= r->base && n->addr < rec_end(r)) {
        n->in = r;
        return 1;
    }
    if (rec_end(r) <= n->addr) {
        if (n->before == NULL || rec_end(r) > rec_end(n->before)) {
            n->before = r;
        }
    } else if (n->after == NULL || r->base < n->after->base) {
        n->after = r;
    }
    return 0;
}

cc_where_info cc_allocmap_where_at(const cc_allocmap *m, uint64_t addr, uint64_t size,
                                   uint64_t clock, char *out, size_t outlen)
{
    if (clock >= m->clock) {
        return cc_allocmap_where(m, addr, size, out, outlen); /* nothing changed since */
    }
    near_search n = {addr, NULL, NULL, NULL};
    each_live_at(m, clock, visit_near, &n);
    const cc_alloc_rec *freed = NULL;
    for (size_t k = 0; n.in == NULL && freed == NULL && k < nfreed_all(m); k++) {
        /* Freed by then: the most recent such free that contains addr. */
        const cc_alloc_rec *r = cc_allocmap_freed_newest(m, k);
        if (r->free_seq <= clock && addr >= r->base && addr < rec_end(r)) {
            freed = r;
        }
    }
    if (freed != NULL) {
        reuse_search o = {freed->base, rec_end(freed), 0};
        each_live_at(m, clock, visit_reuse, &o);
        if (o.found) {
            freed = NULL;
        }
    }
    return describe(n.in, freed, nearer(n.before, n.after, addr), addr, size, out, outlen);
}

const cc_alloc_rec *cc_allocmap_find_made_after(const cc_allocmap *m, uint64_t addr,
                                                uint64_t clock)
{
    const cc_alloc_rec *r = cc_allocmap_find(m, addr);
    if (r != NULL && r->seq > clock) {
        return r;
    }
    for (size_t k = 0; k < nfreed_all(m); k++) {
        const cc_alloc_rec *f = cc_allocmap_freed_newest(m, k);
        if (f->seq > clock && addr >= f->base && addr < rec_end(f)) {
            return f;
        }
    }
    return NULL;
}
