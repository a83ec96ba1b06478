/* Internals shared by the instrumentation manager's files (see instr.h). */
#ifndef CUCHECK_AGENT_INSTR_INTERNAL_H
#define CUCHECK_AGENT_INSTR_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sanitizer.h>
#include "patch_records.h"
#include "symbols/lines.h"
#include "tools/memcheck/memcheck_options.h"

#define CC_INSTR_SLOTS 64          /* checked launches in flight at once, per context */
/* Adaptive: a module is unpatched after (1 << repatches) launches in a row that needed no
 * check (so at once the first time), and re-patched when a new kernel or shape of it needs one,
 * at most CC_INSTR_MAX_REPATCH times (the back-off keeps busy modules patched longer). */
#define CC_INSTR_MAX_REPATCH 16

typedef struct cc_instr_slot {
    int busy;
    cc_mc_launch *dev;             /* device copy read by the patches */
    cc_mc_site *sites;             /* pinned host memory, CC_MC_MAX_SITES */
} cc_instr_slot;

typedef struct cc_instr_ctx {
    CUcontext ctx;
    uint64_t table_version;        /* version of the device table */
    cc_mc_range *dev_table;
    size_t dev_cap;                /* ranges the device buffer holds */
    cc_instr_slot slots[CC_INSTR_SLOTS];
    cc_mc_launch *dev_slots;       /* one device allocation for all slots */
    cc_mc_site *host_sites;        /* one pinned allocation for all slots' sites */
    int broken;                    /* allocation failed: no checks in this context */
} cc_instr_ctx;

typedef struct cc_instr_module {
    CUmodule module;
    CUcontext ctx;
    unsigned char *cubin;          /* copy of the cubin (line tables) */
    size_t cubin_size;
    cc_line_table *lines;          /* opened at the first violation; NULL if none */
    int lines_tried;
    int patched;
    int repatches;
    uint64_t quiet;                /* consecutive launches that needed no check */
} cc_instr_module;

typedef struct cc_instr_state {
    int active;                    /* tool is memcheck and patches exist */
    cc_memcheck_config cfg;
    pthread_mutex_t lock;          /* guards everything below and all Sanitizer patching calls */
    /* live allocations, host copy, sorted by base */
    cc_mc_range *table;
    size_t ntable, cap;
    uint64_t version;
    /* contexts and modules */
    cc_instr_ctx *ctxs;
    size_t nctx;
    cc_instr_module *mods;
    size_t nmods, modcap;
    /* counters */
    uint64_t selected_launches;    /* launches of selected kernels (for skip/count) */
    uint64_t checked_launches;
    uint64_t no_slot;              /* launches that found no free slot */
    int stop_pending;              /* --on-error stop: stop after this launch */
    /* retired device tables, freed when no checked launch is in flight */
    struct { CUcontext ctx; void *ptr; } graveyard[64];
    size_t ngrave;
    int inflight;
} cc_instr_state;

extern cc_instr_state cc_instr_g;

/* instr_state.c (callers hold cc_instr_g.lock) */
/* weak: an address-range reservation, added only where it overlaps no allocation (cudaMalloc
 * blocks carved out of it later replace it). */
void cc_instr_table_add(uint64_t base, uint64_t size, int weak);
void cc_instr_table_remove(uint64_t base);
cc_instr_ctx *cc_instr_ctx_get(CUcontext ctx);          /* creates; NULL if broken */
void cc_instr_ctx_destroy(CUcontext ctx);
/* Upload the table if it changed (and wait for it on hStream). 0 ok. */
int cc_instr_ctx_sync_table(cc_instr_ctx *c, Sanitizer_StreamHandle hStream);
int cc_instr_slot_take(cc_instr_ctx *c);                /* index or -1 */
void cc_instr_free_graveyard(void);

/* instr_modules.c (callers hold cc_instr_g.lock) */
cc_instr_module *cc_instr_module_find(CUmodule m);
void cc_instr_module_loaded(const Sanitizer_ResourceModuleData *d);
void cc_instr_module_unloading(CUmodule m);
int cc_instr_module_patch(cc_instr_module *m);          /* 0 ok */
void cc_instr_module_unpatch(cc_instr_module *m);
/* Adaptive/full decision for one launch: 1 check it. */
int cc_instr_should_check(const Sanitizer_LaunchData *d, cc_instr_module *m);
/* pc (as the patch saw it) -> offset in the kernel and file:line. */
void cc_instr_resolve_pc(cc_instr_module *m, const char *kernel, uint64_t pc, uint64_t *offset,
                         const char **file, uint32_t *line);

#endif
