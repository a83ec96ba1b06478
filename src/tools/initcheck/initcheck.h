/* initcheck's internal state and the functions its files share. initcheck_tool.c owns the tool
 * entry points, initcheck_host.c the API-level side (the model moved along, copies to the host
 * of uninitialised bytes, --track-unused-memory at frees and exit), initcheck_device.c the
 * CC_EV_DEVICE_UNINIT_READ events turned into findings, initcheck_regions.c the caching
 * allocator's tensor blocks (for naming them in findings), initcheck_launches.c the launches
 * (callsite, stream) and the closing note. The model itself is init_model.h. */
#ifndef CUCHECK_TOOLS_INITCHECK_H
#define CUCHECK_TOOLS_INITCHECK_H

#include <stdint.h>
#include "cucheck/tool.h"
#include "symbols/demangle.h"
#include "tools/checked_launches.h"
#include "tools/initcheck/init_model.h"

#define IC_LAUNCH_RING 4096   /* recent launches remembered for their callsite, by id */

typedef struct ic_launch {
    uint64_t launch_id;       /* 0: empty slot */
    uint64_t callsite;
    uint64_t stream;
} ic_launch;

/* A tensor block of a caching allocator (a torch SUBALLOC region): its hand-over's stack. */
typedef struct ic_region {
    uint64_t base, size;
    uint64_t callsite;
} ic_region;

typedef struct ic_state {
    cc_tool_host *host;
    int adaptive;             /* --mode adaptive (default) */
    int track_unused;         /* --track-unused-memory */
    cc_demangle_cache *names;
    cc_init_model model;
    ic_region *regions;       /* sorted by base, disjoint */
    size_t nregions, regions_cap;
    ic_launch launches[IC_LAUNCH_RING];
    cc_checked_launches checked;
    uint64_t unchecked;       /* launches taken as writing their context's allocations */
    uint64_t copies_checked;
    uint64_t reads, read_events; /* device reads of uninitialised bytes (occurrences, events) */
    uint64_t writes_assumed;  /* INIT_WRITE ranges the device did not observe */
} ic_state;

/* initcheck_host.c */
void ic_on_memcpy(ic_state *s, const cc_ev_memcpy *m);
/* cc_init_model.gone: --track-unused-memory. */
void ic_alloc_gone(void *arg, const cc_init_alloc *a, int why, uint64_t free_callsite);
/* The related "allocation" of a finding about addr (a tensor block when one holds it, else
 * the allocation a); message written into msg. */
void ic_allocation_related(ic_state *s, const cc_init_alloc *a, uint64_t addr, cc_related *rel,
                           char *msg, size_t msglen);
void ic_stack(ic_state *s, uint64_t callsite, uint32_t *n, const cc_stack_frame **frames);

/* initcheck_regions.c */
void ic_on_suballoc(ic_state *s, const cc_ev_suballoc *e);
const ic_region *ic_region_find(const ic_state *s, uint64_t addr);
void ic_regions_free(ic_state *s);

/* initcheck_device.c */
void ic_on_uninit_read(ic_state *s, const cc_ev_device_uninit_read *e);

/* initcheck_launches.c */
void ic_on_launch(ic_state *s, const cc_ev_launch *l);
const ic_launch *ic_find_launch(const ic_state *s, uint64_t launch_id);
void ic_write_note(ic_state *s);

#endif
