/* memcheck's API-level checks over the allocation map: invalid and double frees, copies and
 * memsets that run past the allocation they start in or touch freed memory, failed free calls,
 * and leaks (--leak-check full) at context destruction and process exit. Sub-allocators'
 * regions are not allocations of the map (no leak is theirs); a free ends the heaps in it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck.h"

static void report_host(mc_state *s, const char *kind, uint32_t severity, const char *msg,
                        uint64_t callsite, const cc_alloc_rec *alloc, const char *alloc_role,
                        uint64_t address, uint64_t size, uint32_t access)
{
    /* A leak has no call of its own: its allocation's stack is where it is. */
    if (callsite == 0 && alloc != NULL && strcmp(kind, "leak") == 0) {
        callsite = alloc->callsite;
    }
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = kind;
    f.severity = severity;
    f.message = msg;
    if (address != 0) {
        f.has_device = 1;
        f.device.valid = CC_DLOC_ADDRESS;
        f.device.address = address;
        f.device.size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
        f.device.access = access;
        f.device.space = CC_SPACE_HOST;
    }
    mc_stack(s, callsite, &f.nframes, &f.frames);
    cc_related rel;
    char rel_msg[160];
    memset(&rel, 0, sizeof rel);
    if (alloc != NULL) {
        snprintf(rel_msg, sizeof rel_msg, "%" PRIu64 " bytes at 0x%" PRIx64, alloc->size,
                 alloc->base);
        rel.role = alloc_role;
        rel.message = rel_msg;
        mc_stack(s, alloc->callsite, &rel.nframes, &rel.frames);
        f.nrelated = 1;
        f.related = &rel;
    }
    s->host->report(s->host, &f);
}

void mc_on_alloc(mc_state *s, const cc_ev_alloc *a)
{
    /* A reserved address range is not an allocation: the driver reserves ranges for its own
     * pools and cudaMalloc blocks are carved out of them (their own events follow). */
    if (a->address == 0 || a->mem_kind == CC_MEM_VIRTUAL_RESERVE ||
        a->mem_kind == CC_MEM_VIRTUAL_MAP) {
        return;
    }
    cc_alloc_rec r;
    memset(&r, 0, sizeof r);
    r.base = a->address;
    r.size = a->size;
    r.mem_kind = a->mem_kind;
    r.device = a->device;
    r.context = a->context;
    r.stream = a->stream;
    r.callsite = a->callsite;
    /* Allocations of a context that was not announced yet are the runtime's own (made while
     * it creates the context), not the program's. */
    if (!cc_context_book_announced(&s->contexts, a->context)) {
        r.flags |= CC_ALLOC_FLAG_INTERNAL;
    }
    cc_allocmap_add(s->allocs, &r);
}

static int checked_kind(uint32_t kind)
{
    return kind == CC_MEM_DEVICE || kind == CC_MEM_DEVICE_ASYNC || kind == CC_MEM_MANAGED ||
           kind == CC_MEM_HOST_PINNED || kind == CC_MEM_HOST_MAPPED;
}

void mc_on_free(mc_state *s, const cc_ev_free *f)
{
    if (f->address == 0 || f->mem_kind == CC_MEM_VIRTUAL_RESERVE ||
        f->mem_kind == CC_MEM_VIRTUAL_MAP) {
        return; /* cudaFree(NULL) is allowed; address ranges are not allocations */
    }
    cc_alloc_rec r;
    cc_free_verdict v = cc_allocmap_remove(s->allocs, f->address, f->callsite, &r);
    char msg[512];
    switch (v) {
    case CC_FREE_OK:
        mc_suballoc_on_free(s, r.base, r.size, f->callsite); /* heaps in it end */
        return;
    case CC_FREE_DOUBLE:
        snprintf(msg, sizeof msg, "Double free of 0x%" PRIx64 ": the %" PRIu64
                 "-byte allocation there was already freed", f->address, r.size);
        report_host(s, "double-free", CC_SEV_ERROR, msg, f->callsite, &r, "allocation",
                    f->address, 0, CC_ACCESS_NONE);
        return;
    case CC_FREE_INTERIOR:
        snprintf(msg, sizeof msg, "Invalid free of 0x%" PRIx64 ": it is %" PRIu64
                 " bytes into a %" PRIu64 "-byte allocation at 0x%" PRIx64
                 ", not its start", f->address, f->address - r.base, r.size, r.base);
        report_host(s, "invalid-free", CC_SEV_ERROR, msg, f->callsite, &r, "allocation",
                    f->address, 0, CC_ACCESS_NONE);
        return;
    case CC_FREE_UNKNOWN:
        if (!checked_kind(f->mem_kind)) {
            return;
        }
        snprintf(msg, sizeof msg, "Invalid free of 0x%" PRIx64 ": no allocation starts there",
                 f->address);
        report_host(s, "invalid-free", CC_SEV_ERROR, msg, f->callsite, NULL, NULL, f->address,
                    0, CC_ACCESS_NONE);
        return;
    }
}

/* Bytes a strided region spans: rows of `width` bytes `pitch` apart. */
static uint64_t span_of(uint64_t size, uint64_t width, uint64_t height, uint64_t depth,
                        uint64_t pitch)
{
    if (height > 1 && pitch >= width && width > 0) {
        uint64_t rows = height * (depth > 1 ? depth : 1);
        return pitch * (rows - 1) + width;
    }
    return size;
}

/* Check one device end of a copy or memset. must_be_device: the API said this end is device
 * memory. Returns 1 if a finding was reported. */
static int check_end(mc_state *s, const char *what, const char *role, uint64_t addr, uint64_t span,
                     int must_be_device, uint64_t callsite, uint32_t access)
{
    if (addr == 0 || span == 0) {
        return 0;
    }
    char msg[512];
    const cc_alloc_rec *r = cc_allocmap_find(s->allocs, addr);
    if (r != NULL) {
        uint64_t end = r->base + r->size;
        if (addr + span > end) {
            snprintf(msg, sizeof msg, "%s %s range [0x%" PRIx64 ", 0x%" PRIx64 ") of %" PRIu64
                     " bytes runs %" PRIu64 " bytes past the end of a %" PRIu64
                     "-byte allocation at 0x%" PRIx64,
                     what, role, addr, addr + span, span, addr + span - end, r->size, r->base);
            char kind[48];
            snprintf(kind, sizeof kind, "%s-out-of-range", strcmp(what, "memset") == 0 ? "memset"
                                                                                       : "copy");
            report_host(s, kind, CC_SEV_ERROR, msg, callsite, r, "allocation", addr, span, access);
            return 1;
        }
        return 0;
    }
    const cc_alloc_rec *fr = cc_allocmap_find_freed(s->allocs, addr);
    if (fr != NULL && must_be_device) {
        snprintf(msg, sizeof msg, "%s %s 0x%" PRIx64 " lies in a %" PRIu64
                 "-byte allocation at 0x%" PRIx64 " that was already freed",
                 what, role, addr, fr->size, fr->base);
        report_host(s, "use-after-free", CC_SEV_ERROR, msg, callsite, fr, "freed allocation",
                    addr, span, access);
        return 1;
    }
    return 0;
}

void mc_on_memcpy(mc_state *s, const cc_ev_memcpy *m)
{
    s->copies_checked++;
    int src_dev = m->direction == CC_COPY_D2H || m->direction == CC_COPY_D2D ||
                  m->direction == CC_COPY_PEER;
    int dst_dev = m->direction == CC_COPY_H2D || m->direction == CC_COPY_D2D ||
                  m->direction == CC_COPY_PEER;
    uint64_t src_span = span_of(m->size, m->width, m->height, m->depth, m->src_pitch);
    uint64_t dst_span = span_of(m->size, m->width, m->height, m->depth, m->dst_pitch);
    if (m->direction != CC_COPY_H2H) {
        check_end(s, "copy", "source", m->src, src_span, src_dev, m->callsite, CC_ACCESS_READ);
        check_end(s, "copy", "destination", m->dst, dst_span, dst_dev, m->callsite,
                  CC_ACCESS_WRITE);
    }
}

void mc_on_memset(mc_state *s, const cc_ev_memset *m)
{
    s->memsets_checked++;
    uint64_t span = span_of(m->size, m->width, m->height, 1, m->pitch);
    check_end(s, "memset", "destination", m->dst, span, 1, m->callsite, CC_ACCESS_WRITE);
}

void mc_on_api_error(mc_state *s, const cc_ev_api_error *e)
{
    static const char *const frees[] = {"cudaFree", "cudaFreeAsync", "cudaFreeHost",
                                        "cuMemFree", "cuMemFreeAsync", "cuMemFreeHost"};
    if (e->function == NULL) {
        return;
    }
    for (size_t i = 0; i < sizeof frees / sizeof frees[0]; i++) {
        if (strcmp(e->function, frees[i]) == 0) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s failed with %s (%d): the pointer is not a live "
                     "allocation (an invalid or double free)", e->function,
                     e->error_name != NULL && e->error_name[0] ? e->error_name : "an error",
                     e->code);
            report_host(s, "invalid-free", CC_SEV_ERROR, msg, e->callsite, NULL, NULL, 0, 0,
                        CC_ACCESS_NONE);
            return;
        }
    }
    /* A copy or memset the driver refused: typically a range that leaves its allocation. */
    int copy = strncmp(e->function, "cudaMemcpy", 10) == 0 || strncmp(e->function, "cuMemcpy", 8) == 0;
    int set = strncmp(e->function, "cudaMemset", 10) == 0 || strncmp(e->function, "cuMemset", 8) == 0;
    if (copy || set) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s failed with %s (%d): a range outside its allocation or "
                 "another invalid argument", e->function,
                 e->error_name != NULL && e->error_name[0] ? e->error_name : "an error", e->code);
        report_host(s, copy ? "invalid-copy" : "invalid-memset", CC_SEV_ERROR, msg, e->callsite,
                    NULL, NULL, 0, 0, CC_ACCESS_NONE);
    }
}

static int leak_kind(uint32_t kind)
{
    return kind == CC_MEM_DEVICE || kind == CC_MEM_DEVICE_ASYNC || kind == CC_MEM_MANAGED;
}

void mc_report_leaks(mc_state *s, uint64_t context, int all)
{
    if (!s->leak_check || s->exited) {
        return;
    }
    uint64_t bytes = 0, n = 0;
    for (size_t i = 0; i < cc_allocmap_live_count(s->allocs); i++) {
        const cc_alloc_rec *r = cc_allocmap_live_at(s->allocs, i);
        if (!leak_kind(r->mem_kind) || (r->flags & CC_ALLOC_FLAG_INTERNAL) ||
            (!all && r->context != context)) {
            continue;
        }
        char msg[256];
        snprintf(msg, sizeof msg, "Leaked %" PRIu64 " bytes at 0x%" PRIx64 " (%s allocation never "
                 "freed)", r->size, r->base, r->mem_kind == CC_MEM_DEVICE_ASYNC ? "stream-ordered"
                 : r->mem_kind == CC_MEM_MANAGED ? "managed" : "device");
        report_host(s, "leak", CC_SEV_ERROR, msg, 0, r, "allocation", r->base, r->size,
                    CC_ACCESS_NONE);
        bytes += r->size;
        n++;
    }
    if (n > 0) {
        char note[160];
        snprintf(note, sizeof note, "memcheck leak summary: %" PRIu64 " bytes leaked in %" PRIu64
                 " allocation(s)", bytes, n);
        s->host->note(s->host, note);
    }
}

void mc_on_context_create(mc_state *s, uint64_t context)
{
    cc_context_book_add(&s->contexts, context);
}

void mc_on_context_destroy(mc_state *s, uint64_t context)
{
    mc_report_leaks(s, context, 0);
    cc_allocmap_drop_context(s->allocs, context);
}
