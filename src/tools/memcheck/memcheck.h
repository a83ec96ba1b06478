/* memcheck's internal state and the functions its files share. memcheck_tool.c owns the tool
 * entry points and options, memcheck_host.c the API-level checks (frees, copies, memsets,
 * leaks), memcheck_device.c the device-side violations (CC_EV_DEVICE_ACCESS_ERROR) turned into
 * findings, memcheck_launches.c the recent launches (callsites) and the "what was checked"
 * counters, memcheck_unread.c the instrumented launches whose device results are not read back
 * yet, memcheck_vars.c the module variables (core/modvar_map.h). The allocation map is core's
 * (core/allocmap.h); memcheck_suballoc.c keeps the sub-allocators' heaps and regions
 * (CC_EV_SUBALLOC); asynchronous errors are attributed by the code every tool shares
 * (tools/async_error/attribution.h). */
#ifndef CUCHECK_TOOLS_MEMCHECK_H
#define CUCHECK_TOOLS_MEMCHECK_H

#include <stdint.h>
#include "core/context_book.h"
#include "cucheck/tool.h"
#include "core/allocmap.h"
#include "core/modvar_map.h"
#include "core/hashmap.h"
#include "tools/checked_launches.h"
#include "tools/async_error/attribution.h"

#define MC_LAUNCH_RING 4096   /* recent launches remembered for their callsite, by id */
/* Instrumented launches waiting for their results at most (the agent has 64 slots per context,
 * so only a stream without LAUNCH_CHECKED events reaches it): past it the oldest half goes. */
#define MC_UNREAD_MAX 65536

typedef struct mc_launch {
    uint64_t launch_id;       /* 0: empty slot */
    uint64_t callsite;
    uint64_t stream;
    uint64_t module;          /* the kernel's module handle (0 if unknown) */
    int32_t device;           /* the device it ran on (-1 if unknown) */
    uint64_t alloc_mark;      /* the allocation map's clock at this launch */
    int held;                 /* unread: alloc_mark is held in the map (cc_allocmap_hold) */
    uint64_t heap_mark;       /* the sub-allocators' heap and region clocks at this launch */
    uint64_t region_mark;     /* (memcheck_suballoc.c) */
    int sub_held;             /* unread: both are held */
} mc_launch;

typedef struct mc_suballoc mc_suballoc;

typedef struct mc_state {
    cc_tool_host *host;
    cc_allocmap *allocs;
    cc_modvar_map *vars;      /* the loaded modules' variables (CC_EV_MODULE_VAR) */
    mc_suballoc *sub;         /* sub-allocators' heaps and regions; NULL until the first */
    int leak_check;           /* --leak-check full */
    int adaptive;             /* --mode adaptive (default) */
    mc_launch launches[MC_LAUNCH_RING];
    /* Launches flagged CC_LAUNCH_FLAG_INSTRUMENTED whose CC_EV_LAUNCH_CHECKED has not come: what
     * their findings need stays here however many launches follow. Arrival order. */
    mc_launch *unread;
    size_t nunread, unread_cap;
    uint64_t unread_dropped;  /* forgotten at MC_UNREAD_MAX */
    cc_async_errors *async_errors; /* sticky errors attributed to their launch, as `run` does */
    cc_checked_launches checked; /* launches and kernels that ran with device checks */
    uint64_t device_errors;   /* device_access_error events */
    uint64_t copies_checked, memsets_checked;
    uint64_t repeats; /* launches that ran unchecked as repeats of checked ones (adaptive) */
    int exited;               /* leaks reported already */
    cc_context_book contexts; /* contexts announced by CONTEXT_CREATE */
} mc_state;

/* memcheck_host.c */
void mc_on_alloc(mc_state *s, const cc_ev_alloc *a);
void mc_on_free(mc_state *s, const cc_ev_free *f);
void mc_on_memcpy(mc_state *s, const cc_ev_memcpy *m);
void mc_on_memset(mc_state *s, const cc_ev_memset *m);
void mc_on_api_error(mc_state *s, const cc_ev_api_error *e);
void mc_on_context_create(mc_state *s, uint64_t context);
void mc_on_context_destroy(mc_state *s, uint64_t context);
void mc_report_leaks(mc_state *s, uint64_t context, int all);

/* memcheck_device.c */
void mc_on_device_error(mc_state *s, const cc_ev_device_access_error *e);

/* memcheck_vars.c */
void mc_on_module_var(mc_state *s, const cc_ev_module_var *v);
void mc_on_module_unload(mc_state *s, uint64_t module);
void mc_vars_drop_context(mc_state *s, uint64_t context);
/* "the 4-byte __device__ variable `flag` (0x...) of this kernel's module" */
void mc_var_describe(const cc_modvar *v, uint64_t launch_module, char *out, size_t outlen);
/* When a module variable explains [addr, addr+size) better than the allocation map's verdict w
 * (it holds the address, or it is nearer than w's allocation): 1, *vw set and the sentence
 * ("at offset 1 of the 4-byte __device__ variable `flag` (0x...) of this kernel's module") in
 * out. Else 0 (vw->var may still be set). */
int mc_var_explain(mc_state *s, uint64_t addr, uint32_t size, const cc_where_info *w,
                   uint64_t launch_module, cc_modvar_where *vw, char *out, size_t outlen);

/* memcheck_suballoc.c */
void mc_on_suballoc(mc_state *s, const cc_ev_suballoc *e);
/* The allocation [base, base + size) was freed: the heaps in it end, with their regions. */
void mc_suballoc_on_free(mc_state *s, uint64_t base, uint64_t size, uint64_t callsite);
/* After mc_on_launch: the launch's marks (heaps and regions as at it), held while it is unread;
 * released with it. */
void mc_suballoc_launched(mc_state *s, uint64_t launch_id);
void mc_suballoc_release(mc_state *s, const mc_launch *l);
void mc_suballoc_free(mc_state *s);
/* A device access [addr, addr + size) of launch l (NULL: as now) that lay in a sub-allocator's
 * heap at the launch, in none of its live regions: 1, and the finding's kind, sentence and
 * related notes in *v; 0 when no heap explains it. */
typedef struct mc_sub_verdict {
    char kind[64];
    char msg[640];
    const cc_alloc_rec *region; /* the region talked about (its callsite: the registration) */
    int freed;                  /* region is unregistered: free_callsite ended it */
    char alloc_note[160];
    char free_note[96];
} mc_sub_verdict;
int mc_suballoc_explain(mc_state *s, const mc_launch *l, uint64_t addr, uint32_t size,
                        const char *verb, mc_sub_verdict *v);

/* memcheck_launches.c */
void mc_on_launch(mc_state *s, const cc_ev_launch *l);
/* The launch by id: unread ones first, then the recent ones; NULL if forgotten. */
const mc_launch *mc_find_launch(const mc_state *s, uint64_t launch_id);
void mc_write_note(mc_state *s);
/* The host stack of a callsite as frames (n = 0 if none). */
void mc_stack(mc_state *s, uint64_t callsite, uint32_t *n, const cc_stack_frame **frames);

/* memcheck_unread.c */
/* Keep an instrumented launch (its map clock held) until its LAUNCH_CHECKED. */
void mc_unread_add(mc_state *s, const mc_launch *l);
void mc_unread_checked(mc_state *s, const cc_ev_launch_checked *c);
const mc_launch *mc_unread_find(const mc_state *s, uint64_t launch_id);
void mc_unread_note(mc_state *s);
void mc_unread_free(mc_state *s);

#endif
