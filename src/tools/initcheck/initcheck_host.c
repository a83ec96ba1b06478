/* initcheck's API-level findings: a copy whose source holds uninitialised bytes of a device
 * allocation and whose destination is not tracked device memory (the host, managed memory) is
 * reported at the copy, with its host stack, the first uninitialised byte, how many there are,
 * and the allocation (or tensor block) with its stack; device-to-device copies only carry the
 * state (init_model.c). With --track-unused-memory, an allocation that goes (freed, its
 * context destroyed, the process ends) with bytes never written is reported there. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/initcheck/initcheck.h"

void ic_stack(ic_state *s, uint64_t callsite, uint32_t *n, const cc_stack_frame **frames)
{
    const cc_ev_host_stack *st = callsite ? s->host->stack(s->host, callsite) : NULL;
    *n = st ? st->nframes : 0;
    *frames = st ? st->frames : NULL;
}

void ic_allocation_related(ic_state *s, const cc_init_alloc *a, uint64_t addr, cc_related *rel,
                           char *msg, size_t msglen)
{
    memset(rel, 0, sizeof *rel);
    const ic_region *r = ic_region_find(s, addr);
    rel->role = "allocation";
    rel->message = msg;
    if (r != NULL) {
        snprintf(msg, msglen, "%" PRIu64 " bytes at 0x%" PRIx64 " handed to a new tensor by the "
                 "caching allocator (uninitialised from there), in a %" PRIu64 "-byte segment at "
                 "0x%" PRIx64, r->size, r->base, a != NULL ? a->size : 0,
                 a != NULL ? a->base : 0);
        ic_stack(s, r->callsite, &rel->nframes, &rel->frames);
    } else if (a != NULL) {
        snprintf(msg, msglen, "%" PRIu64 " bytes at 0x%" PRIx64 " (%s)", a->size, a->base,
                 a->mem_kind == CC_MEM_DEVICE_ASYNC ? "stream-ordered device allocation"
                                                    : "device allocation");
        ic_stack(s, a->callsite, &rel->nframes, &rel->frames);
    } else {
        snprintf(msg, msglen, "no live allocation holds 0x%" PRIx64, addr);
    }
}

static int host_kind(uint32_t kind)
{
    return kind == CC_MEM_HOST_PAGEABLE || kind == CC_MEM_HOST_PINNED ||
           kind == CC_MEM_HOST_MAPPED;
}

void ic_on_memcpy(ic_state *s, const cc_ev_memcpy *m)
{
    s->copies_checked++;
    uint64_t rows = 1, w = m->size;
    if (m->width > 0 && m->height > 0) {
        w = m->width;
        rows = m->height * (m->depth > 1 ? m->depth : 1);
    }
    uint64_t first = UINT64_MAX, uninit = 0, bytes = 0;
    const cc_init_alloc *alloc = NULL;
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t src = m->src + (rows > 1 ? r * m->src_pitch : 0);
        uint64_t dst = m->dst + (rows > 1 ? r * m->dst_pitch : 0);
        if (cc_init_model_find(&s->model, dst) != NULL) {
            continue; /* device to device: the state travels (init_model.c) */
        }
        uint64_t k = 0;
        const cc_init_alloc *a = NULL;
        uint64_t f = cc_init_model_first_uninit(&s->model, src, w, &k, &a);
        if (f != UINT64_MAX && first == UINT64_MAX) {
            first = f;
            alloc = a;
        }
        uninit += k;
        bytes += w;
    }
    if (first == UINT64_MAX) {
        return;
    }
    const char *to = m->direction == CC_COPY_D2H || host_kind(m->dst_kind)
                         ? "the host"
                         : "memory initcheck does not track (managed or host-mapped)";
    char msg[640], rel_msg[300];
    snprintf(msg, sizeof msg, "Uninitialized memory copied to %s: %" PRIu64 " of the %" PRIu64
             " bytes copied from 0x%" PRIx64 " were never written, the first at 0x%" PRIx64
             " (offset %" PRIu64 " of the %" PRIu64 "-byte allocation at 0x%" PRIx64 ")",
             to, uninit, bytes, m->src, first, first - alloc->base, alloc->size, alloc->base);
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "initcheck";
    f.kind = "uninit-copy";
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    f.device.valid = CC_DLOC_ADDRESS;
    f.device.address = first;
    f.device.size = uninit > UINT32_MAX ? UINT32_MAX : (uint32_t)uninit;
    f.device.access = CC_ACCESS_READ;
    f.device.space = CC_SPACE_HOST;
    ic_stack(s, m->callsite, &f.nframes, &f.frames);
    cc_related rel;
    ic_allocation_related(s, alloc, first, &rel, rel_msg, sizeof rel_msg);
    f.nrelated = 1;
    f.related = &rel;
    s->host->report(s->host, &f);
}

void ic_alloc_gone(void *arg, const cc_init_alloc *a, int why, uint64_t free_callsite)
{
    ic_state *s = arg;
    if (!s->track_unused || a->size == 0 || why == CC_INIT_GONE_REPLACED) {
        return;
    }
    uint64_t used = cc_init_bytes(&a->used);
    if (used >= a->size) {
        return;
    }
    uint64_t unused = a->size - used;
    uint64_t first = cc_init_first_uninit(&a->used, 0, a->size, NULL);
    static const char *const when[] = {"", "when it was freed", "", "when its context was "
                                       "destroyed", "at exit"};
    char msg[512];
    snprintf(msg, sizeof msg, "Unused memory in a %" PRIu64 "-byte device allocation at 0x%"
             PRIx64 ": %" PRIu64 " bytes (%.1f%%) never written %s, the first at offset %" PRIu64,
             a->size, a->base, unused, 100.0 * (double)unused / (double)a->size,
             why >= 1 && why <= 4 ? when[why] : "", first);
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "initcheck";
    f.kind = "unused-memory";
    f.severity = CC_SEV_WARNING;
    f.message = msg;
    f.has_device = 1;
    f.device.valid = CC_DLOC_ADDRESS;
    f.device.address = a->base + first;
    f.device.size = unused > UINT32_MAX ? UINT32_MAX : (uint32_t)unused;
    f.device.space = CC_SPACE_HOST;
    /* Where it was freed, else where it was made. */
    ic_stack(s, free_callsite != 0 ? free_callsite : a->callsite, &f.nframes, &f.frames);
    cc_related rel;
    char rel_msg[120];
    memset(&rel, 0, sizeof rel);
    snprintf(rel_msg, sizeof rel_msg, "%" PRIu64 " bytes at 0x%" PRIx64, a->size, a->base);
    rel.role = "allocation";
    rel.message = rel_msg;
    ic_stack(s, a->callsite, &rel.nframes, &rel.frames);
    f.nrelated = 1;
    f.related = &rel;
    s->host->report(s->host, &f);
}
