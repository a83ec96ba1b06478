/* initcheck's model of device memory (init_model.h): the sorted allocations, the per-byte
 * operations over address ranges that may cross allocations, and the event-driven update both
 * halves of initcheck share. */
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/initcheck/init_model.h"

int cc_init_model_tracks(uint32_t mem_kind)
{
    return mem_kind == CC_MEM_DEVICE || mem_kind == CC_MEM_DEVICE_ASYNC;
}

/* Index of the first allocation whose end lies past addr (n if none). */
static size_t first_ending_after(const cc_init_model *m, uint64_t addr)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].base + m->v[mid].size <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

cc_init_alloc *cc_init_model_find(const cc_init_model *m, uint64_t addr)
{
    size_t i = first_ending_after(m, addr);
    return i < m->n && m->v[i].base <= addr ? &m->v[i] : NULL;
}

static void set_full(cc_init_model *m, cc_init_alloc *a, int full)
{
    if (a->full != full) {
        a->full = full;
        if (full) {
            m->npartial--;
        } else {
            m->npartial++;
        }
    }
}

static void refresh_full(cc_init_model *m, cc_init_alloc *a)
{
    set_full(m, a, a->size == 0 || cc_init_all(&a->init, 0, a->size));
}

/* Remove entry i (gone called first). */
static void remove_at(cc_init_model *m, size_t i, int why, uint64_t free_callsite)
{
    cc_init_alloc *a = &m->v[i];
    if (m->gone != NULL) {
        m->gone(m->gone_arg, a, why, free_callsite);
    }
    set_full(m, a, 1);
    cc_init_ranges_free(&a->init);
    cc_init_ranges_free(&a->used);
    memmove(a, a + 1, (m->n - i - 1) * sizeof *a);
    m->n--;
}

void cc_init_model_free(cc_init_model *m)
{
    while (m->n > 0) {
        remove_at(m, 0, CC_INIT_GONE_EXIT, 0);
    }
    free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
    m->npartial = 0;
}

static void add_alloc(cc_init_model *m, const cc_ev_alloc *e)
{
    if (!cc_init_model_tracks(e->mem_kind) || e->size == 0 || e->address + e->size < e->address) {
        return;
    }
    if (!cc_context_book_announced(&m->contexts, e->context)) {
        return; /* the runtime's own (e.g. 512 bytes cudart takes while making its context) */
    }
    size_t i = first_ending_after(m, e->address);
    while (i < m->n && m->v[i].base < e->address + e->size) {
        remove_at(m, i, CC_INIT_GONE_REPLACED, 0);
    }
    if (CC_ARRAY_RESERVE(m->v, m->cap, m->n + 1) != 0) {
        m->oom++;
        return;
    }
    memmove(&m->v[i + 1], &m->v[i], (m->n - i) * sizeof *m->v);
    m->n++;
    cc_init_alloc *a = &m->v[i];
    memset(a, 0, sizeof *a);
    a->base = e->address;
    a->size = e->size;
    a->context = e->context;
    a->callsite = e->callsite;
    a->mem_kind = e->mem_kind;
    a->full = 1;
    set_full(m, a, 0);
}

static void free_alloc(cc_init_model *m, uint64_t address, uint64_t callsite)
{
    size_t i = first_ending_after(m, address);
    if (i < m->n && m->v[i].base == address) {
        remove_at(m, i, CC_INIT_GONE_FREE, callsite);
    }
}

static void mark_in(cc_init_model *m, cc_init_alloc *a, uint64_t lo, uint64_t hi)
{
    if (cc_init_mark(&a->init, lo, hi) != 0) {
        m->oom++;
    }
    if (m->track_used && cc_init_mark(&a->used, lo, hi) != 0) {
        m->oom++;
    }
    refresh_full(m, a);
}

void cc_init_model_mark(cc_init_model *m, uint64_t addr, uint64_t n)
{
    uint64_t end = addr + n < addr ? UINT64_MAX : addr + n;
    for (size_t i = first_ending_after(m, addr); i < m->n && m->v[i].base < end; i++) {
        cc_init_alloc *a = &m->v[i];
        uint64_t lo = addr > a->base ? addr - a->base : 0;
        uint64_t hi = end - a->base < a->size ? end - a->base : a->size;
        mark_in(m, a, lo, hi);
    }
}

void cc_init_model_clear(cc_init_model *m, uint64_t addr, uint64_t n)
{
    uint64_t end = addr + n < addr ? UINT64_MAX : addr + n;
    for (size_t i = first_ending_after(m, addr); i < m->n && m->v[i].base < end; i++) {
        cc_init_alloc *a = &m->v[i];
        uint64_t lo = addr > a->base ? addr - a->base : 0;
        uint64_t hi = end - a->base < a->size ? end - a->base : a->size;
        if (cc_init_clear(&a->init, lo, hi) != 0) {
            m->oom++; /* left initialised: the safe side */
        }
        refresh_full(m, a);
    }
}

void cc_init_model_mark_context(cc_init_model *m, uint64_t context)
{
    for (size_t i = 0; i < m->n && m->npartial > 0; i++) {
        cc_init_alloc *a = &m->v[i];
        if (!a->full && (context == 0 || a->context == 0 || a->context == context)) {
            mark_in(m, a, 0, a->size);
        }
    }
}

uint64_t cc_init_model_first_uninit(const cc_init_model *m, uint64_t addr, uint64_t n,
                                    uint64_t *count, const cc_init_alloc **alloc)
{
    uint64_t end = addr + n < addr ? UINT64_MAX : addr + n;
    uint64_t first = UINT64_MAX, total = 0;
    const cc_init_alloc *at = NULL;
    for (size_t i = first_ending_after(m, addr); i < m->n && m->v[i].base < end; i++) {
        const cc_init_alloc *a = &m->v[i];
        uint64_t lo = addr > a->base ? addr - a->base : 0;
        uint64_t hi = end - a->base < a->size ? end - a->base : a->size;
        uint64_t k = 0;
        uint64_t f = cc_init_first_uninit(&a->init, lo, hi, &k);
        if (f != UINT64_MAX && first == UINT64_MAX) {
            first = a->base + f;
            at = a;
        }
        total += k;
    }
    if (count != NULL) {
        *count = total;
    }
    if (alloc != NULL) {
        *alloc = at;
    }
    return first;
}

/* Bytes [dst, dst + n) take the state of [src, src + n): where the destination is tracked, from
 * a tracked source byte for byte, from anything else (host memory, untracked device memory) as
 * initialised. */
static void copy_state(cc_init_model *m, uint64_t dst, uint64_t src, uint64_t n)
{
    if (n == 0 || dst + n < dst || src + n < src) {
        return;
    }
    uint64_t end = dst + n;
    for (size_t i = first_ending_after(m, dst); i < m->n && m->v[i].base < end; i++) {
        uint64_t dlo = dst > m->v[i].base ? dst : m->v[i].base;
        uint64_t dhi = end < m->v[i].base + m->v[i].size ? end : m->v[i].base + m->v[i].size;
        /* the source bytes of [dlo, dhi), piece by piece over the source's allocations */
        uint64_t s = src + (dlo - dst), s_end = src + (dhi - dst);
        while (s < s_end) {
            cc_init_alloc *d = &m->v[i]; /* re-read: marking never moves entries */
            uint64_t d_at = dst + (s - src);
            const cc_init_alloc *sa = cc_init_model_find(m, s);
            uint64_t piece;
            if (sa == NULL) {
                size_t j = first_ending_after(m, s);
                uint64_t next = j < m->n ? m->v[j].base : UINT64_MAX;
                piece = (next < s_end ? next : s_end) - s;
                mark_in(m, d, d_at - d->base, d_at - d->base + piece);
            } else {
                uint64_t sa_end = sa->base + sa->size;
                piece = (sa_end < s_end ? sa_end : s_end) - s;
                if (cc_init_copy(&d->init, d_at - d->base, &sa->init, s - sa->base, piece) != 0) {
                    m->oom++;
                    mark_in(m, d, d_at - d->base, d_at - d->base + piece);
                } else {
                    if (m->track_used && cc_init_mark(&d->used, d_at - d->base,
                                                      d_at - d->base + piece) != 0) {
                        m->oom++;
                    }
                    refresh_full(m, d);
                }
            }
            s += piece;
        }
    }
}

/* Rows of a 1D, 2D or 3D operation: `width` bytes every `pitch` bytes (1D: one row of size). */
static uint64_t rows_of(uint64_t size, uint64_t width, uint64_t height, uint64_t depth,
                        uint64_t *row_bytes)
{
    if (width > 0 && height > 0) {
        *row_bytes = width;
        return height * (depth > 1 ? depth : 1);
    }
    *row_bytes = size;
    return 1;
}

static void apply_memcpy(cc_init_model *m, const cc_ev_memcpy *c)
{
    uint64_t w = 0;
    uint64_t rows = rows_of(c->size, c->width, c->height, c->depth, &w);
    int strided = rows > 1;
    for (uint64_t r = 0; r < rows; r++) {
        copy_state(m, c->dst + (strided ? r * c->dst_pitch : 0),
                   c->src + (strided ? r * c->src_pitch : 0), w);
    }
}

static void apply_memset(cc_init_model *m, const cc_ev_memset *s)
{
    uint64_t w = 0;
    uint64_t rows = rows_of(s->size, s->width, s->height, 1, &w);
    if (rows > 1 && s->pitch == w) {
        w *= rows; /* contiguous rows: one mark */
        rows = 1;
    }
    for (uint64_t r = 0; r < rows; r++) {
        cc_init_model_mark(m, s->dst + r * s->pitch, w);
    }
}

static void drop_context(cc_init_model *m, uint64_t context)
{
    for (size_t i = m->n; i-- > 0;) {
        if (m->v[i].context == context) {
            remove_at(m, i, CC_INIT_GONE_CONTEXT, 0);
        }
    }
}

int cc_init_model_wants(uint32_t kind)
{
    switch (kind) {
    case CC_EV_ALLOC: case CC_EV_FREE: case CC_EV_MEMCPY: case CC_EV_MEMSET: case CC_EV_LAUNCH:
    case CC_EV_INIT_WRITE: case CC_EV_SUBALLOC: case CC_EV_CONTEXT_CREATE:
    case CC_EV_CONTEXT_DESTROY:
        return 1;
    default:
        return 0;
    }
}

void cc_init_model_apply(cc_init_model *m, const cc_event *ev)
{
    if (!cc_init_model_wants(ev->h.kind)) {
        return;
    }
    switch (ev->h.kind) {
    case CC_EV_ALLOC:
        add_alloc(m, &ev->u.alloc);
        break;
    case CC_EV_FREE:
        free_alloc(m, ev->u.free.address, ev->u.free.callsite);
        break;
    case CC_EV_MEMCPY:
        apply_memcpy(m, &ev->u.memcpy);
        break;
    case CC_EV_MEMSET:
        apply_memset(m, &ev->u.memset);
        break;
    case CC_EV_LAUNCH:
        if (!(ev->u.launch.flags & CC_LAUNCH_FLAG_INSTRUMENTED)) {
            cc_init_model_mark_context(m, ev->u.launch.context);
        }
        break;
    case CC_EV_INIT_WRITE:
        cc_init_model_mark(m, ev->u.init_write.address, ev->u.init_write.size);
        break;
    case CC_EV_SUBALLOC:
        /* A caching allocator's block handed to a new tensor holds whatever the last one left. */
        if (ev->u.suballoc.op == CC_SUBALLOC_OP_REGION_REGISTER &&
            ev->u.suballoc.source == CC_SUBALLOC_SRC_TORCH) {
            cc_init_model_clear(m, ev->u.suballoc.address, ev->u.suballoc.size);
        }
        break;
    case CC_EV_CONTEXT_CREATE:
        cc_context_book_add(&m->contexts, ev->u.context.context);
        break;
    case CC_EV_CONTEXT_DESTROY:
        drop_context(m, ev->u.context.context);
        break;
    default:
        break;
    }
}

size_t cc_init_model_uninit_ranges(const cc_init_model *m, uint64_t context, cc_init_range *out,
                                   size_t max, uint64_t *bytes)
{
    size_t k = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < m->n; i++) {
        const cc_init_alloc *a = &m->v[i];
        if (a->full || (context != 0 && a->context != 0 && a->context != context)) {
            continue;
        }
        uint64_t at = 0;
        for (size_t r = 0; r <= a->init.n; r++) {
            uint64_t hi = r < a->init.n ? a->init.v[r].lo : a->size;
            if (hi > at) {
                if (k < max) {
                    out[k] = (cc_init_range){a->base + at, a->base + hi};
                }
                k++;
                total += hi - at;
            }
            if (r < a->init.n) {
                at = a->init.v[r].hi;
            }
        }
    }
    if (bytes != NULL) {
        *bytes = total;
    }
    return k;
}
