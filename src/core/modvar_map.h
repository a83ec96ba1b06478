/* The module-variable map: the `__device__`, `__constant__` and `__managed__` variables of the
 * loaded modules (CC_EV_MODULE_VAR events), sorted by address for interval lookup, each gone
 * with its module (MODULE_UNLOAD) or its context (CONTEXT_DESTROY), and where an address lies
 * relative to them. It answers as the map is now: a module's variables are announced after the
 * module loaded (possibly after its first launch) and the agent reads a launch's device
 * findings before the launch's module unloads, so no finding needs an earlier moment. Plain C,
 * no CUDA; memcheck explains addresses with it next to the allocation map (core/allocmap.h). */
#ifndef CUCHECK_CORE_MODVAR_MAP_H
#define CUCHECK_CORE_MODVAR_MAP_H

#include <stddef.h>
#include <stdint.h>
#include "core/allocmap.h"
#include "cucheck/event.h"

typedef struct cc_modvar {
    uint64_t base;
    uint64_t size;      /* bytes, > 0 */
    uint64_t context;
    uint64_t module;
    uint32_t flags;     /* CC_MODVAR_FLAG_* */
    char *name;         /* the symbol name (a copy, owned by the map) */
} cc_modvar;

typedef struct cc_modvar_map cc_modvar_map;

cc_modvar_map *cc_modvar_map_new(void);
void cc_modvar_map_free(cc_modvar_map *m);

/* Add the variable of a MODULE_VAR event (its name copied). Variables it overlaps are dropped
 * first (their module went without an unload event and its memory was reused). A variable at
 * address 0 or of size 0 is ignored. 0 added or ignored, -1 out of memory (the map unchanged). */
int cc_modvar_map_add(cc_modvar_map *m, const cc_ev_module_var *v);
/* Drop every variable of a module / of a context; returns how many. */
size_t cc_modvar_map_drop_module(cc_modvar_map *m, uint64_t module);
size_t cc_modvar_map_drop_context(cc_modvar_map *m, uint64_t context);

size_t cc_modvar_map_count(const cc_modvar_map *m);
const cc_modvar *cc_modvar_map_at(const cc_modvar_map *m, size_t i); /* sorted by base */
/* The variable containing addr, or NULL. */
const cc_modvar *cc_modvar_map_find(const cc_modvar_map *m, uint64_t addr);

/* Where [addr, addr+size) lies relative to the variables: INSIDE or OVERRUN of the one holding
 * addr, else AFTER or BEFORE the nearest one (by distance to its nearest byte; the one below on
 * a tie), NOWHERE when there is none. */
typedef struct cc_modvar_where {
    cc_where where;
    const cc_modvar *var; /* NULL for NOWHERE */
    uint64_t distance;    /* as cc_where_info: AFTER bytes after the end, BEFORE bytes before the
                           * start, INSIDE/OVERRUN the offset from the base */
    uint64_t gap;         /* bytes from addr to the variable's nearest byte: 0 inside, AFTER
                           * distance + 1, BEFORE distance (how cc_allocmap_nearest compares) */
} cc_modvar_where;

cc_modvar_where cc_modvar_map_where(const cc_modvar_map *m, uint64_t addr, uint64_t size);

#endif
