/* Device-side violations to findings: a CC_EV_DEVICE_ACCESS_ERROR (one deduplicated invalid
 * access of a launch, found by the agent's patches) becomes an invalid-*, misaligned-*,
 * use-after-free, use-before-alloc, invalid-device-free or double-device-free finding, with the
 * kernel (demangled, its mangled name kept), pc, file:line, block, thread, address, size, the
 * count of threads, where the address lies relative to the allocation map and the modules'
 * variables (stream-ordered allocations say that cudaFreeAsync freed them, with the free's host
 * stack; a `__device__` variable is named) or, inside a sub-allocator's heap, its regions
 * (memcheck_suballoc.c: an NVTX region or a PyTorch tensor block, with its registration's and
 * its end's host stacks), the allocation's host stack and the launch's host stack. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck.h"
#include "tools/kernel_name.h"

static uint32_t access_of(uint32_t flags)
{
    if ((flags & CC_ACCESS_FLAG_ATOMIC) ||
        ((flags & CC_ACCESS_FLAG_READ) && (flags & CC_ACCESS_FLAG_WRITE))) {
        return CC_ACCESS_ATOMIC;
    }
    return (flags & CC_ACCESS_FLAG_WRITE) ? CC_ACCESS_WRITE : CC_ACCESS_READ;
}

static const char *space_word(uint32_t space)
{
    switch (space) {
    case CC_SPACE_SHARED: return "shared";
    case CC_SPACE_LOCAL: return "local";
    default: return "global";
    }
}

typedef struct mc_verdict {
    char kind[64];
    char msg[640];
    cc_where_info w;
    int freed_async;          /* w.alloc is a stream-ordered allocation freed by cudaFreeAsync */
    const cc_modvar *var;     /* the module variable the message explains the address by */
    int sub;                  /* explained by a sub-allocator's heap (sv) */
    mc_sub_verdict sv;
} mc_verdict;

/* Device-side malloc/free and device-heap accesses: the host map knows nothing of that heap. */
static int classify_heap(const cc_ev_device_access_error *e, const char *verb, mc_verdict *v)
{
    switch (e->violation) {
    case CC_VIOLATION_DEVICE_FREE_INVALID:
        snprintf(v->kind, sizeof v->kind, "invalid-device-free");
        snprintf(v->msg, sizeof v->msg, "Invalid device-side free of 0x%" PRIx64
                 ": no device-side malloc returned this pointer", e->address);
        return 1;
    case CC_VIOLATION_DEVICE_FREE_DOUBLE:
        snprintf(v->kind, sizeof v->kind, "double-device-free");
        snprintf(v->msg, sizeof v->msg, "Double device-side free of 0x%" PRIx64
                 ": the device-heap block there was already freed", e->address);
        return 1;
    case CC_VIOLATION_HEAP_OVERRUN:
        snprintf(v->kind, sizeof v->kind, "invalid-global-%s", verb);
        snprintf(v->msg, sizeof v->msg, "Address 0x%" PRIx64 " (%s of size %" PRIu32
                 ") is in the device heap but in no live block of it: past the end of a "
                 "device-side malloc block or between blocks", e->address, verb, e->size);
        return 1;
    case CC_VIOLATION_HEAP_FREED:
        snprintf(v->kind, sizeof v->kind, "use-after-free");
        snprintf(v->msg, sizeof v->msg, "Use after free: %s of size %" PRIu32 " bytes at 0x%"
                 PRIx64 ", inside a device-heap block that a device-side free released", verb,
                 e->size, e->address);
        return 1;
    default:
        return 0;
    }
}

static void classify(mc_state *s, const cc_ev_device_access_error *e, const char *verb,
                     mc_verdict *v)
{
    char where[384];
    int global = e->space != CC_SPACE_SHARED && e->space != CC_SPACE_LOCAL;
    memset(v, 0, sizeof *v);
    v->w.where = CC_WHERE_NOWHERE;
    if (classify_heap(e, verb, v)) {
        return;
    }
    /* Against the map as it was at the launch: the agent reads a launch's findings when the
     * launch is known to be done, after the program may have freed and allocated more. */
    const mc_launch *l = mc_find_launch(s, e->launch_id);
    /* Inside a sub-allocator's heap (NVTX, PyTorch), only its live regions were valid memory:
     * the address is explained against them (a misaligned access by its allocation). */
    if (global && e->violation != CC_VIOLATION_MISALIGNED &&
        mc_suballoc_explain(s, l, e->address, e->size, verb, &v->sv)) {
        v->sub = 1;
        snprintf(v->kind, sizeof v->kind, "%s", v->sv.kind);
        snprintf(v->msg, sizeof v->msg, "%s", v->sv.msg);
        return;
    }
    const cc_alloc_rec *later = NULL;
    if (global) {
        uint64_t at = l != NULL ? l->alloc_mark : UINT64_MAX;
        v->w = cc_allocmap_where_at(s->allocs, e->address, e->size, at, where, sizeof where);
        /* An allocation made since that holds the address explains it only where the launch
         * could have seen it made first: nothing was there at the launch, or it is a
         * stream-ordered allocation of another stream (not ordered before the launch). One
         * made later on the launch's own stream came after the kernel: the launch-time
         * sentence (an overrun) stands. */
        if (l != NULL && v->w.where != CC_WHERE_INSIDE && v->w.where != CC_WHERE_OVERRUN &&
            v->w.where != CC_WHERE_FREED) {
            later = cc_allocmap_find_made_after(s->allocs, e->address, l->alloc_mark);
            if (later != NULL && v->w.where != CC_WHERE_NOWHERE &&
                !(later->mem_kind == CC_MEM_DEVICE_ASYNC && later->stream != l->stream)) {
                later = NULL;
            }
        }
        /* A module variable that holds the address, or lies nearer than the allocation named,
         * explains it instead (an allocation made after the launch still wins over a nearby
         * variable: the kernel used it before it existed). */
        cc_modvar_where vw;
        char var_where[384];
        /* A misaligned access is placed by its address ("at offset 1 of `x`"), not its size. */
        uint32_t span = e->violation == CC_VIOLATION_MISALIGNED ? 1 : e->size;
        if (mc_var_explain(s, e->address, span, &v->w, l != NULL ? l->module : 0, &vw,
                           var_where, sizeof var_where) &&
            (later == NULL || vw.where == CC_WHERE_INSIDE || vw.where == CC_WHERE_OVERRUN)) {
            later = NULL;
            v->var = vw.var;
            snprintf(where, sizeof where, "%s", var_where);
        }
    }
    if (e->violation == CC_VIOLATION_MISALIGNED) {
        snprintf(v->kind, sizeof v->kind, "misaligned-%s-%s", space_word(e->space), verb);
        snprintf(v->msg, sizeof v->msg,
                 "Misaligned %s %s of size %" PRIu32 " bytes: %s 0x%" PRIx64
                 " is not a multiple of %" PRIu32 "%s%s",
                 space_word(e->space), verb, e->size, global ? "address" : "offset", e->address,
                 e->size, global ? "; it is " : "", global ? where : "");
    } else if (!global) {
        snprintf(v->kind, sizeof v->kind, "invalid-%s-%s", space_word(e->space), verb);
        snprintf(v->msg, sizeof v->msg, "Offset 0x%" PRIx64 " (%s of size %" PRIu32
                 ") is outside the %s memory window", e->address, verb, e->size,
                 e->space == CC_SPACE_SHARED ? "block's shared" : "thread's local");
    } else if (v->var == NULL && v->w.where == CC_WHERE_FREED &&
               v->w.alloc->mem_kind == CC_MEM_DEVICE_ASYNC) {
        v->freed_async = 1;
        snprintf(v->kind, sizeof v->kind, "use-after-free");
        snprintf(v->msg, sizeof v->msg, "Use after free: %s of size %" PRIu32 " bytes at 0x%"
                 PRIx64 ", at offset %" PRIu64 " inside a %" PRIu64 "-byte stream-ordered "
                 "allocation at 0x%" PRIx64 " freed by cudaFreeAsync before this launch (it "
                 "was already freed in stream order)", verb, e->size, e->address,
                 v->w.distance, v->w.alloc->size, v->w.alloc->base);
    } else if (v->var == NULL && v->w.where == CC_WHERE_FREED) {
        snprintf(v->kind, sizeof v->kind, "use-after-free");
        snprintf(v->msg, sizeof v->msg, "Use after free: %s of size %" PRIu32 " bytes at 0x%"
                 PRIx64 ", %s", verb, e->size, e->address, where);
    } else if (later != NULL) {
        /* The device found the address in no allocation, and the one there was made after the
         * launch was issued: the kernel used it before it existed. */
        v->w.where = CC_WHERE_INSIDE;
        v->w.alloc = later;
        v->w.distance = e->address - later->base;
        snprintf(v->kind, sizeof v->kind, "use-before-alloc");
        snprintf(v->msg, sizeof v->msg, "Use before allocation: %s of size %" PRIu32
                 " bytes at 0x%" PRIx64 " lies in a %" PRIu64 "-byte %s allocation at 0x%"
                 PRIx64 " that was made only after this launch was issued", verb, e->size,
                 e->address, later->size,
                 later->mem_kind == CC_MEM_DEVICE_ASYNC ? "stream-ordered" : "device",
                 later->base);
    } else {
        snprintf(v->kind, sizeof v->kind, "invalid-global-%s", verb);
        snprintf(v->msg, sizeof v->msg, "Address 0x%" PRIx64 " is %s", e->address, where);
    }
}

void mc_on_device_error(mc_state *s, const cc_ev_device_access_error *e)
{
    s->device_errors++;
    uint32_t access = access_of(e->flags);
    int heap_free = e->violation == CC_VIOLATION_DEVICE_FREE_INVALID ||
                    e->violation == CC_VIOLATION_DEVICE_FREE_DOUBLE;
    mc_verdict v;
    classify(s, e, heap_free ? "free" : cc_access_name(access), &v);

    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = v.kind;
    f.severity = CC_SEV_ERROR;
    f.message = v.msg;
    f.has_device = 1;
    cc_device_loc *d = &f.device;
    d->valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    /* demangled once per kernel through the table the attribution shares; the mangled name kept */
    cc_kernel_loc_name(d, cc_async_errors_kernel_names(s->async_errors), e->kernel);
    d->launch_id = e->launch_id;
    d->pc = e->pc;
    if (e->file != NULL && e->file[0] != '\0') {
        d->valid |= CC_DLOC_LINE;
        d->file = e->file;
        d->line = e->line;
    }
    memcpy(d->block, e->block, sizeof d->block);
    memcpy(d->thread, e->thread, sizeof d->thread);
    d->address = e->address;
    d->size = e->size;
    d->access = heap_free ? CC_ACCESS_NONE : access;
    d->space = e->space != 0 ? e->space : CC_SPACE_GLOBAL;
    f.count = e->count;

    const mc_launch *l = mc_find_launch(s, e->launch_id);
    if (l != NULL) {
        d->stream = l->stream;
        mc_stack(s, l->callsite, &f.nframes, &f.frames);
    }
    cc_related rel[2];
    char rel_msg[2][384];
    memset(rel, 0, sizeof rel);
    uint32_t nrel = 0;
    const cc_alloc_rec *a = v.w.alloc;
    if (v.sub && v.sv.region != NULL) {
        /* the region's registration is where it was allocated; its end, where it was freed */
        rel[nrel].role = "allocation";
        rel[nrel].message = v.sv.alloc_note;
        mc_stack(s, v.sv.region->callsite, &rel[nrel].nframes, &rel[nrel].frames);
        nrel++;
        if (v.sv.freed) {
            rel[nrel].role = "free";
            rel[nrel].message = v.sv.free_note;
            mc_stack(s, v.sv.region->free_callsite, &rel[nrel].nframes, &rel[nrel].frames);
            nrel++;
        }
    } else if (v.sub) {
        /* a heap without a region near the address: nothing more to point at */
    } else if (v.var != NULL) {
        char var[384];
        mc_var_describe(v.var, l != NULL ? l->module : 0, var, sizeof var);
        snprintf(rel_msg[nrel], sizeof rel_msg[nrel], "%s", var);
        rel[nrel].role = "variable";
        rel[nrel].message = rel_msg[nrel];
        nrel++;
    } else if (a != NULL && v.w.where != CC_WHERE_NOWHERE) {
        /* A kernel of one device reaching another's memory (peer access): both devices named. */
        char peer[96] = "";
        if (l != NULL && l->device >= 0 && a->device >= 0 && a->device != l->device) {
            snprintf(peer, sizeof peer, " on device %d (a peer access: the kernel ran on device %d)",
                     (int)a->device, (int)l->device);
        }
        snprintf(rel_msg[nrel], sizeof rel_msg[nrel], "%" PRIu64 " bytes at 0x%" PRIx64
                 " allocated%s%s", a->size, a->base,
                 a->mem_kind == CC_MEM_DEVICE_ASYNC ? " (stream-ordered, cudaMallocAsync)" : "",
                 peer);
        rel[nrel].role = "allocation";
        rel[nrel].message = rel_msg[nrel];
        mc_stack(s, a->callsite, &rel[nrel].nframes, &rel[nrel].frames);
        nrel++;
        if (v.w.where == CC_WHERE_FREED) {
            snprintf(rel_msg[nrel], sizeof rel_msg[nrel], "%s",
                     v.freed_async ? "freed by cudaFreeAsync" : "freed");
            rel[nrel].role = "free";
            rel[nrel].message = rel_msg[nrel];
            mc_stack(s, a->free_callsite, &rel[nrel].nframes, &rel[nrel].frames);
            nrel++;
        }
    }
    f.nrelated = nrel;
    f.related = rel;
    s->host->report(s->host, &f);
}
