/* Device-side violations to findings: a CC_EV_DEVICE_ACCESS_ERROR (one deduplicated invalid
 * access of a launch, found by the agent's patches) becomes an invalid-*, misaligned-* or
 * use-after-free finding, with the kernel (demangled), pc, file:line, block, thread, address,
 * size, the count of threads, where the address lies relative to the allocation map, the
 * allocation's host stack and the launch's host stack. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/memcheck/memcheck.h"
#include "symbols/demangle.h"

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

void mc_on_device_error(mc_state *s, const cc_ev_device_access_error *e)
{
    s->device_errors++;
    uint32_t access = access_of(e->flags);
    const char *verb = cc_access_name(access);
    char kind[64], where[384], msg[640], dem[512];
    cc_where_info w = {CC_WHERE_NOWHERE, NULL, 0};
    int global = e->space != CC_SPACE_SHARED && e->space != CC_SPACE_LOCAL;

    if (global) {
        w = cc_allocmap_where(s->allocs, e->address, e->size, where, sizeof where);
    }
    if (e->violation == CC_VIOLATION_MISALIGNED) {
        snprintf(kind, sizeof kind, "misaligned-%s-%s", space_word(e->space), verb);
        snprintf(msg, sizeof msg,
                 "Misaligned %s %s of size %" PRIu32 " bytes: %s 0x%" PRIx64
                 " is not a multiple of %" PRIu32 "%s%s",
                 space_word(e->space), verb, e->size, global ? "address" : "offset", e->address,
                 e->size, global ? "; it is " : "", global ? where : "");
    } else if (global && w.where == CC_WHERE_FREED) {
        snprintf(kind, sizeof kind, "use-after-free");
        snprintf(msg, sizeof msg, "Use after free: %s of size %" PRIu32 " bytes at 0x%" PRIx64
                 ", %s", verb, e->size, e->address, where);
    } else if (global) {
        snprintf(kind, sizeof kind, "invalid-global-%s", verb);
        snprintf(msg, sizeof msg, "Address 0x%" PRIx64 " is %s", e->address, where);
    } else {
        snprintf(kind, sizeof kind, "invalid-%s-%s", space_word(e->space), verb);
        snprintf(msg, sizeof msg, "Offset 0x%" PRIx64 " is outside the block's %s memory window",
                 e->address, space_word(e->space));
    }

    cc_demangle(e->kernel != NULL ? e->kernel : "", dem, sizeof dem);
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = kind;
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    cc_device_loc *d = &f.device;
    d->valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    d->kernel = dem;
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
    d->access = access;
    d->space = e->space != 0 ? e->space : CC_SPACE_GLOBAL;
    f.count = e->count;

    const mc_launch *l = mc_find_launch(s, e->launch_id);
    if (l != NULL) {
        d->stream = l->stream;
        mc_stack(s, l->callsite, &f.nframes, &f.frames);
    }
    cc_related rel[2];
    char rel_msg[2][160];
    memset(rel, 0, sizeof rel);
    uint32_t nrel = 0;
    if (w.alloc != NULL && w.where != CC_WHERE_NOWHERE) {
        snprintf(rel_msg[nrel], sizeof rel_msg[nrel], "%" PRIu64 " bytes at 0x%" PRIx64
                 " allocated", w.alloc->size, w.alloc->base);
        rel[nrel].role = "allocation";
        rel[nrel].message = rel_msg[nrel];
        mc_stack(s, w.alloc->callsite, &rel[nrel].nframes, &rel[nrel].frames);
        nrel++;
        if (w.where == CC_WHERE_FREED) {
            snprintf(rel_msg[nrel], sizeof rel_msg[nrel], "freed");
            rel[nrel].role = "free";
            rel[nrel].message = rel_msg[nrel];
            mc_stack(s, w.alloc->free_callsite, &rel[nrel].nframes, &rel[nrel].frames);
            nrel++;
        }
    }
    f.nrelated = nrel;
    f.related = rel;
    s->host->report(s->host, &f);
}
