/* Device reads of uninitialised memory to findings: a CC_EV_DEVICE_UNINIT_READ (reads of one
 * launch at one pc, found by the device patches and folded by the agent) becomes an
 * uninit-global-read finding at the load (kernel demangled, file:line, pc, thread, block,
 * address, size) with the launch's host stack and the allocation (or the tensor block, with the
 * Python frames of its hand-over) holding the first uninitialised byte. The reporter folds
 * repeats of one source location. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/initcheck/initcheck.h"
#include "tools/kernel_name.h"

void ic_on_uninit_read(ic_state *s, const cc_ev_device_uninit_read *e)
{
    s->read_events++;
    s->reads += e->count ? e->count : 1;
    const ic_launch *l = ic_find_launch(s, e->launch_id);
    uint64_t first = e->first != 0 ? e->first : e->address;
    const cc_init_alloc *a = cc_init_model_find(&s->model, first);

    char msg[640], where[200];
    if (a != NULL) {
        snprintf(where, sizeof where, "offset %" PRIu64 " of the %" PRIu64 "-byte allocation at "
                 "0x%" PRIx64, first - a->base, a->size, a->base);
    } else {
        snprintf(where, sizeof where, "in memory freed since");
    }
    snprintf(msg, sizeof msg, "Uninitialized __global__ memory read of size %" PRIu32 " bytes "
             "at 0x%" PRIx64 ": byte 0x%" PRIx64 " (%s) was never written since %s", e->size,
             e->address, first, where,
             ic_region_find(s, first) != NULL ? "the caching allocator handed its block to a new "
                                                "tensor"
                                              : "it was allocated");

    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "initcheck";
    f.kind = "uninit-global-read";
    f.severity = CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    cc_device_loc *d = &f.device;
    d->valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    cc_kernel_loc_name(d, s->names, e->kernel != NULL ? e->kernel : "");
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
    d->access = CC_ACCESS_READ;
    d->space = e->space != 0 ? e->space : CC_SPACE_GLOBAL;
    f.count = e->count;
    if (l != NULL) {
        d->stream = l->stream;
        ic_stack(s, l->callsite, &f.nframes, &f.frames);
    }
    cc_related rel;
    char rel_msg[300];
    ic_allocation_related(s, a, first, &rel, rel_msg, sizeof rel_msg);
    f.nrelated = 1;
    f.related = &rel;
    s->host->report(s->host, &f);
}
