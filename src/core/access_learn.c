/* Learned access sets (see access_learn.h): pointer-argument scan, launch shape keys, learning
 * facts from instrumented per-allocation ranges, applying them to new pointer values, and the
 * per-launch decision. Plain C, no allocation. */
#include <string.h>
#include "core/access_learn.h"
#include "core/hash.h"
#include "cucheck/event.h"

void cc_al_policy_default(cc_al_policy *p)
{
    p->learn_launches = CC_AL_DEFAULT_LEARN_LAUNCHES;
    p->stray_limit = CC_AL_DEFAULT_STRAY_LIMIT;
    p->kernel_budget = CC_AL_DEFAULT_KERNEL_BUDGET;
    p->untouched_inferred = CC_AL_DEFAULT_UNTOUCHED_INFERRED;
}

/* ---- scan ---- */

typedef struct scan_ctx {
    cc_al_word *out;
    size_t n, cap;
    int truncated;
} scan_ctx;

static int keep_word(uint32_t offset, uint64_t value, const cc_alloc_rec *a, void *arg)
{
    scan_ctx *c = arg;
    if (c->n == c->cap) {
        c->truncated = 1;
        return 1;
    }
    c->out[c->n].offset = offset;
    c->out[c->n].value = value;
    c->out[c->n].base = a->base;
    c->out[c->n].end = a->base + a->size < a->base ? UINT64_MAX : a->base + a->size;
    c->n++;
    return 0;
}

size_t cc_al_scan(const unsigned char *buf, size_t len, const cc_ptr_slot *slots, size_t nslots,
                  const cc_allocmap *allocs, cc_al_word *out, size_t cap, int *truncated)
{
    scan_ctx c = {out, 0, cap, 0};
    if (out != NULL) {
        cc_ptr_scan(buf, len, slots, nslots, allocs, keep_word, &c);
    }
    *truncated = c.truncated;
    return c.n;
}

/* ---- shape ---- */

/* The key lives only in the agent's shape table (never in a recording or a report): its hash
 * may change. Dimensions go two to a word and a pointer word's offset and size go together, in
 * cc_hash_pair (cheap, off the chain), so the chain of cc_hash_combine steps stays short. */
uint64_t cc_al_shape_key(uint64_t function, const uint32_t grid[3], const uint32_t block[3],
                         const cc_al_word *words, size_t nwords)
{
    uint64_t h = cc_hash_combine(cc_hash_pair(function, grid[0] | (uint64_t)grid[1] << 32),
                                 cc_hash_pair(grid[2] | (uint64_t)block[0] << 32,
                                              block[1] | (uint64_t)block[2] << 32));
    h = cc_hash_combine(h, nwords);
    for (size_t i = 0; i < nwords; i++) {
        h = cc_hash_combine(h, cc_hash_pair(words[i].offset, words[i].end - words[i].base));
    }
    return h != 0 ? h : 1;
}

/* ---- decide ---- */

cc_al_action cc_al_decide(const cc_al_kernel *k, const cc_al_shape *s, const cc_al_policy *p)
{
    if (k == NULL || s == NULL || k->fallback) {
        return CC_AL_INFER;
    }
    if (!s->stray && s->observed >= p->learn_launches) {
        return CC_AL_LEARNED;
    }
    if (k->instrumented >= p->kernel_budget) {
        return CC_AL_INFER;
    }
    return CC_AL_INSTRUMENT;
}

/* ---- observe ---- */

static int has_read(const cc_al_range *r)
{
    return r->read_lo < r->read_end;
}

static int has_write(const cc_al_range *r)
{
    return r->write_lo < r->write_end;
}

/* The accessed range holding address v, or NULL. */
static const cc_al_range *range_of(const cc_al_range *r, size_t n, uint64_t v)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].base <= v && v < r[i].end) {
            return &r[i];
        }
    }
    return NULL;
}

static void widen(uint32_t *has, int64_t *lo, int64_t *end, int64_t nlo, int64_t nend)
{
    if (!*has) {
        *has = 1;
        *lo = nlo;
        *end = nend;
        return;
    }
    if (nlo < *lo) {
        *lo = nlo;
    }
    if (nend > *end) {
        *end = nend;
    }
}

int cc_al_observe(cc_al_kernel *k, cc_al_shape *s, const cc_al_policy *p, const cc_al_word *words,
                  size_t nwords, const cc_al_range *ranges, size_t nranges, uint64_t outside,
                  uint64_t *stray_at)
{
    *stray_at = 0;
    k->instrumented++;
    int stray = outside > 0 || nwords > CC_AL_MAX_WORDS;
    for (size_t i = 0; i < nranges && !stray; i++) {
        if (!has_read(&ranges[i]) && !has_write(&ranges[i])) {
            continue;
        }
        int covered = 0;
        for (size_t w = 0; w < nwords && !covered; w++) {
            covered = ranges[i].base <= words[w].value && words[w].value < ranges[i].end;
        }
        if (!covered) {
            stray = 1;
            *stray_at = has_read(&ranges[i]) ? ranges[i].read_lo : ranges[i].write_lo;
        }
    }
    if (stray) {
        s->stray = 1;
        k->strays++;
        if (k->strays >= p->stray_limit) {
            k->fallback = 1;
        }
        return CC_AL_OBS_STRAY;
    }
    if (s->observed == 0) {
        s->nfacts = (uint32_t)nwords;
        memset(s->facts, 0, nwords * sizeof s->facts[0]);
        for (size_t w = 0; w < nwords; w++) {
            s->facts[w].offset = words[w].offset;
            s->facts[w].untouched = p->untouched_inferred ? 1u : 0u;
        }
    }
    for (size_t w = 0; w < nwords; w++) {
        cc_al_fact *f = NULL;
        for (uint32_t j = 0; j < s->nfacts && f == NULL; j++) {
            if (s->facts[j].offset == words[w].offset) {
                f = &s->facts[j];
            }
        }
        if (f == NULL) {
            continue; /* a word the shape does not have (cannot happen with equal keys) */
        }
        const cc_al_range *r = range_of(ranges, nranges, words[w].value);
        if (r == NULL || (!has_read(r) && !has_write(r))) {
            continue; /* its allocation untouched: f->untouched stays as it was */
        }
        f->untouched = 0;
        uint64_t v = words[w].value;
        if (has_read(r)) {
            widen(&f->read, &f->read_lo, &f->read_end, (int64_t)(r->read_lo - v),
                  (int64_t)(r->read_end - v));
        }
        if (has_write(r)) {
            widen(&f->written, &f->write_lo, &f->write_end, (int64_t)(r->write_lo - v),
                  (int64_t)(r->write_end - v));
        }
    }
    s->observed++;
    if (s->observed == p->learn_launches) {
        k->shapes_learned++;
    }
    return CC_AL_OBS_LEARNED;
}

/* ---- apply ---- */

/* [v + lo, v + end) clipped to [base, aend); 0 if empty. */
static int clip(uint64_t v, uint64_t base, uint64_t aend, int64_t lo, int64_t end,
                uint64_t *out_lo, uint64_t *out_end)
{
    int64_t blo = (int64_t)(base - v);  /* <= 0 */
    int64_t bend = (int64_t)(aend - v); /* > 0 */
    if (lo < blo) {
        lo = blo;
    }
    if (end > bend) {
        end = bend;
    }
    if (lo >= end) {
        return 0;
    }
    *out_lo = v + (uint64_t)lo;
    *out_end = v + (uint64_t)end;
    return 1;
}

static size_t push(cc_al_access *out, size_t n, size_t cap, uint32_t *dropped, uint64_t lo,
                   uint64_t end, uint32_t flags)
{
    for (size_t i = 0; i < n; i++) {
        if (out[i].address == lo && out[i].size == end - lo && out[i].flags == flags) {
            return n;
        }
    }
    if (n == cap) {
        (*dropped)++;
        return n;
    }
    out[n].address = lo;
    out[n].size = end - lo;
    out[n].flags = flags;
    return n + 1;
}

/* Read and write ranges of one place, as accesses (one read|write access when equal). */
static size_t push_pair(cc_al_access *out, size_t n, size_t cap, uint32_t *dropped, int r,
                        uint64_t rlo, uint64_t rend, int w, uint64_t wlo, uint64_t wend)
{
    if (r && w && rlo == wlo && rend == wend) {
        return push(out, n, cap, dropped, rlo, rend, CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE);
    }
    if (r) {
        n = push(out, n, cap, dropped, rlo, rend, CC_ACCESS_FLAG_READ);
    }
    if (w) {
        n = push(out, n, cap, dropped, wlo, wend, CC_ACCESS_FLAG_WRITE);
    }
    return n;
}

size_t cc_al_apply(const cc_al_shape *s, const cc_al_word *words, size_t nwords,
                   cc_al_access *out, size_t cap, uint32_t *dropped)
{
    size_t n = 0;
    *dropped = 0;
    for (uint32_t j = 0; j < s->nfacts; j++) {
        const cc_al_fact *f = &s->facts[j];
        const cc_al_word *w = NULL;
        for (size_t i = 0; i < nwords && w == NULL; i++) {
            if (words[i].offset == f->offset) {
                w = &words[i];
            }
        }
        if (w == NULL) {
            continue;
        }
        if (f->untouched) { /* never seen touched: the inferred range, read and written */
            if (w->value < w->end) {
                n = push(out, n, cap, dropped, w->value, w->end,
                         CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_UNTOUCHED);
            }
            continue;
        }
        uint64_t rlo = 0, rend = 0, wlo = 0, wend = 0;
        int r = f->read && clip(w->value, w->base, w->end, f->read_lo, f->read_end, &rlo, &rend);
        int wr = f->written &&
                 clip(w->value, w->base, w->end, f->write_lo, f->write_end, &wlo, &wend);
        n = push_pair(out, n, cap, dropped, r, rlo, rend, wr, wlo, wend);
    }
    return n;
}

size_t cc_al_untouched(const cc_al_word *words, size_t nwords, const cc_al_range *ranges,
                       size_t nranges, cc_al_access *out, size_t cap)
{
    size_t n = 0;
    for (size_t w = 0; w < nwords; w++) {
        const cc_al_range *r = range_of(ranges, nranges, words[w].value);
        if ((r != NULL && (has_read(r) || has_write(r))) || words[w].value >= words[w].end) {
            continue;
        }
        /* One access per allocation: from its lowest pointer argument. */
        int lower = 0; /* another word points lower into the same allocation (or equal, first) */
        for (size_t v = 0; v < nwords && !lower; v++) {
            if (v != w && words[v].base == words[w].base && words[v].end == words[w].end) {
                lower = words[v].value < words[w].value ||
                        (words[v].value == words[w].value && v < w);
            }
        }
        if (lower || n == cap) {
            continue;
        }
        out[n].address = words[w].value;
        out[n].size = words[w].end - words[w].value;
        out[n].flags = CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_UNTOUCHED;
        n++;
    }
    return n;
}

size_t cc_al_range_accesses(const cc_al_range *rg, cc_al_access out[2])
{
    uint64_t rlo = rg->read_lo > rg->base ? rg->read_lo : rg->base;
    uint64_t rend = rg->read_end < rg->end ? rg->read_end : rg->end;
    uint64_t wlo = rg->write_lo > rg->base ? rg->write_lo : rg->base;
    uint64_t wend = rg->write_end < rg->end ? rg->write_end : rg->end;
    uint32_t dropped = 0;
    return push_pair(out, 0, 2, &dropped, rlo < rend, rlo, rend, wlo < wend, wlo, wend);
}
