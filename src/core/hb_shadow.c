/* Shadow state of the happens-before engine: the allocation map (sorted, non-overlapping
 * ranges, plus one bucket for addresses outside every allocation) and, per allocation, the
 * accesses that may still conflict with a later one, each a byte range with its operation.
 * A new access is checked against every overlapping record: two accesses conflict when at
 * least one writes (two atomics do not), and race when neither operation is ordered before the
 * other (checked both ways, since access events arrive late and out of launch order). Records
 * ordered before a new access that covers them are dropped (it stands for them from then on).
 * Stream-ordered allocations also check that accesses lie between cudaMallocAsync and
 * cudaFreeAsync in stream order; a new allocation over a range starts with no history. */
#include "core/hb_internal.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

#define WRITES(f) (((f) & (CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_ATOMIC)) != 0)

static void clear_records(hb_alloc *a)
{
    for (size_t i = 0; i < a->nrecs; i++) cc_hb_op_unref(a->recs[i].op);
    a->nrecs = 0;
}

static void release_alloc(hb_alloc *a)
{
    clear_records(a);
    free(a->recs);
    a->recs = NULL;
    a->cap = 0;
    cc_hb_op_unref(a->alloc_op);
    cc_hb_op_unref(a->freed_op);
    a->alloc_op = a->freed_op = NULL;
}

/* Index of the first allocation whose end is above address. */
static size_t lower_index(const cc_hb *hb, uint64_t address)
{
    size_t lo = 0, hi = hb->nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const cc_hb_alloc_info *in = &hb->allocs[mid].info;
        if (in->base + in->size <= address) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

const hb_alloc *cc_hb_alloc_find(const cc_hb *hb, uint64_t address)
{
    size_t i = lower_index(hb, address);
    if (i < hb->nallocs && hb->allocs[i].info.base <= address) return &hb->allocs[i];
    return NULL;
}

static void remove_range(cc_hb *hb, uint64_t lo, uint64_t hi)
{
    size_t i = lower_index(hb, lo), j = i;
    while (j < hb->nallocs && hb->allocs[j].info.base < hi) release_alloc(&hb->allocs[j++]);
    if (j > i) {
        memmove(&hb->allocs[i], &hb->allocs[j], (hb->nallocs - j) * sizeof *hb->allocs);
        hb->nallocs -= j - i;
    }
}

void cc_hb_alloc_add(cc_hb *hb, const cc_ev_alloc *ev, cc_hb_op *alloc_op)
{
    if (ev->size == 0 || ev->mem_kind == CC_MEM_VIRTUAL_RESERVE) return;
    uint64_t hi = ev->address + ev->size < ev->address ? UINT64_MAX : ev->address + ev->size;
    remove_range(hb, ev->address, hi); /* reuse: a fresh history */
    if (CC_ARRAY_RESERVE(hb->allocs, hb->cap_allocs, hb->nallocs + 1)) {
        hb->stats.out_of_memory = 1;
        return;
    }
    size_t i = lower_index(hb, ev->address);
    memmove(&hb->allocs[i + 1], &hb->allocs[i], (hb->nallocs - i) * sizeof *hb->allocs);
    hb->nallocs++;
    hb_alloc *a = &hb->allocs[i];
    memset(a, 0, sizeof *a);
    a->known = 1;
    a->info = (cc_hb_alloc_info){ev->address, hi - ev->address, ev->mem_kind, ev->device,
                                 ev->stream, ev->callsite,
                                 ev->library < CC_NVLIB_COUNT ? ev->library : CC_NVLIB_NONE};
    a->alloc_op = alloc_op;
    cc_hb_op_ref(alloc_op);
}

static int pair_seen(cc_hb *hb, const cc_hb_op *x, const cc_hb_op *y, uint64_t base)
{
    for (uint32_t i = 0; i < HB_PAIR_MEMORY; i++)
        if (hb->pairs[i][0] == x->seq && hb->pairs[i][1] == y->seq && hb->pairs[i][2] == base)
            return 1;
    uint64_t *p = hb->pairs[hb->pair_next++ % HB_PAIR_MEMORY];
    p[0] = x->seq;
    p[1] = y->seq;
    p[2] = base;
    return 0;
}

/* The library whose own business the issue is: the memory is one the library allocated for
 * itself, and one side ran on a stream the library created (so neither the stream nor the
 * memory is the program's to order); CC_NVLIB_NONE otherwise. */
static uint32_t library_internal(const hb_alloc *a, const cc_hb_op *x, const cc_hb_op *y)
{
    uint32_t lib = a->known ? a->info.library : CC_NVLIB_NONE;
    if (lib == CC_NVLIB_NONE) return CC_NVLIB_NONE;
    return x->library == lib || y->library == lib ? lib : CC_NVLIB_NONE;
}

static void issue(cc_hb *hb, uint32_t kind, const hb_alloc *a, cc_hb_side cur, cc_hb_side prev,
                  uint64_t lo, uint64_t hi)
{
    if (pair_seen(hb, cur.op, prev.op, a->known ? a->info.base : 0)) return;
    uint32_t lib = hb->cfg.library_issues ? CC_NVLIB_NONE : library_internal(a, cur.op, prev.op);
    if (lib != CC_NVLIB_NONE) {
        hb->stats.library_internal[lib]++;
        return;
    }
    hb->stats.issues++;
    if (!hb->cfg.on_issue) return;
    cc_hb_issue is = {kind, cur, prev, lo, hi, a->known ? &a->info : NULL, hb->python,
                      cc_hb_multi_device(hb, cur.op, prev.op)};
    hb->cfg.on_issue(hb->cfg.ctx, &is);
}

static int add_record(cc_hb *hb, hb_alloc *a, uint64_t lo, uint64_t hi, uint32_t flags,
                      cc_hb_op *op)
{
    if (CC_ARRAY_RESERVE(a->recs, a->cap, a->nrecs + 1)) {
        hb->stats.out_of_memory = 1;
        return -1;
    }
    a->recs[a->nrecs++] = (hb_record){lo, hi, flags, op};
    cc_hb_op_ref(op);
    return 0;
}

/* Drop the part [lo, hi) of record i (which overlaps it); may split it in two. */
static void cut_record(cc_hb *hb, hb_alloc *a, size_t i, uint64_t lo, uint64_t hi)
{
    hb_record r = a->recs[i];
    int keep_left = r.lo < lo, keep_right = r.hi > hi;
    if (keep_left && keep_right) {
        a->recs[i].hi = lo;
        add_record(hb, a, hi, r.hi, r.flags, r.op);
    } else if (keep_left) {
        a->recs[i].hi = lo;
    } else if (keep_right) {
        a->recs[i].lo = hi;
    } else {
        cc_hb_op_unref(r.op);
        a->recs[i] = a->recs[--a->nrecs];
    }
}

static void access_in(cc_hb *hb, hb_alloc *a, cc_hb_op *op, uint64_t lo, uint64_t hi,
                      uint32_t flags)
{
    cc_hb_side cur = {op, flags, lo, hi};
    if (a->freed_op && op != a->freed_op) {
        cc_hb_side prev = {a->freed_op, 0, a->info.base, a->info.base + a->info.size};
        issue(hb, CC_HB_ISSUE_USE_AFTER_FREE, a, cur, prev, lo, hi);
        return;
    }
    if (a->alloc_op && !cc_hb_op_before(a->alloc_op, op)) {
        cc_hb_side prev = {a->alloc_op, 0, a->info.base, a->info.base + a->info.size};
        issue(hb, CC_HB_ISSUE_USE_BEFORE_ALLOC, a, cur, prev, lo, hi);
    }
    for (size_t i = 0; i < a->nrecs; i++) {
        hb_record *r = &a->recs[i];
        if (r->hi <= lo || r->lo >= hi || r->op == op) continue;
        int conflict = (WRITES(flags) || WRITES(r->flags)) &&
                       !((flags & CC_ACCESS_FLAG_ATOMIC) && (r->flags & CC_ACCESS_FLAG_ATOMIC));
        if (conflict && !cc_hb_op_before(r->op, op) && !cc_hb_op_before(op, r->op)) {
            cc_hb_side prev = {r->op, r->flags, r->lo, r->hi};
            issue(hb, CC_HB_ISSUE_RACE, a, cur, prev, r->lo > lo ? r->lo : lo,
                  r->hi < hi ? r->hi : hi);
        }
    }
    /* Records ordered before this access that it covers are superseded, except a write that
     * a read would hide from later reads. */
    for (size_t i = 0; i < a->nrecs;) {
        hb_record *r = &a->recs[i];
        size_t before = a->nrecs;
        if (r->op != op && r->hi > lo && r->lo < hi && cc_hb_op_before(r->op, op) &&
            (WRITES(flags) || !WRITES(r->flags))) {
            cut_record(hb, a, i, lo, hi);
            if (a->nrecs < before) continue; /* slot i now holds another record */
        }
        i++;
    }
    /* Same op, same flags, overlapping or adjacent: grow that record. */
    for (size_t i = 0; i < a->nrecs; i++) {
        hb_record *r = &a->recs[i];
        if (r->op == op && r->flags == flags && r->lo <= hi && r->hi >= lo) {
            if (lo < r->lo) r->lo = lo;
            if (hi > r->hi) r->hi = hi;
            return;
        }
    }
    add_record(hb, a, lo, hi, flags, op);
}

void cc_hb_access(cc_hb *hb, cc_hb_op *op, uint64_t lo, uint64_t size, uint32_t flags)
{
    if (!op || size == 0) return;
    if (!(flags & (CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_WRITE | CC_ACCESS_FLAG_ATOMIC))) return;
    uint64_t hi = lo + size < lo ? UINT64_MAX : lo + size;
    while (lo < hi) {
        size_t i = lower_index(hb, lo);
        if (i < hb->nallocs && hb->allocs[i].info.base <= lo) {
            hb_alloc *a = &hb->allocs[i];
            uint64_t end = a->info.base + a->info.size;
            uint64_t part = hi < end ? hi : end;
            access_in(hb, a, op, lo, part, flags);
            lo = part;
        } else {
            uint64_t next = i < hb->nallocs ? hb->allocs[i].info.base : UINT64_MAX;
            uint64_t part = hi < next ? hi : next;
            access_in(hb, &hb->wild, op, lo, part, flags);
            lo = part;
        }
    }
}

/* A free. Accesses not ordered before op may still run when the memory goes away. cudaFreeAsync
 * keeps the range as freed (later accesses are uses after free) until it is allocated again;
 * other frees forget it. */
void cc_hb_alloc_free(cc_hb *hb, uint64_t address, cc_hb_op *op, int async)
{
    size_t i = lower_index(hb, address);
    if (i >= hb->nallocs || hb->allocs[i].info.base > address) return; /* unknown: nothing */
    hb_alloc *a = &hb->allocs[i];
    if (op && !a->freed_op) {
        for (size_t r = 0; r < a->nrecs; r++) {
            hb_record *rec = &a->recs[r];
            if (cc_hb_op_before(rec->op, op)) continue;
            cc_hb_side cur = {rec->op, rec->flags, rec->lo, rec->hi};
            cc_hb_side prev = {op, 0, a->info.base, a->info.base + a->info.size};
            issue(hb, async ? CC_HB_ISSUE_USE_AFTER_FREE : CC_HB_ISSUE_FREE_IN_USE, a, cur, prev,
                  rec->lo, rec->hi);
        }
    }
    if (async && op) {
        clear_records(a);
        cc_hb_op_unref(a->freed_op);
        a->freed_op = op;
        cc_hb_op_ref(op);
        return;
    }
    release_alloc(a);
    memmove(&hb->allocs[i], &hb->allocs[i + 1], (hb->nallocs - i - 1) * sizeof *hb->allocs);
    hb->nallocs--;
}

void cc_hb_free_shadow(cc_hb *hb)
{
    for (size_t i = 0; i < hb->nallocs; i++) release_alloc(&hb->allocs[i]);
    release_alloc(&hb->wild);
    free(hb->allocs);
    hb->allocs = NULL;
    hb->nallocs = hb->cap_allocs = 0;
}
