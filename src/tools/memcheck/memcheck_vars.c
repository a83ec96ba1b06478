/* memcheck's module variables: the `__device__`, `__constant__` and `__managed__` variables the
 * agent announces (CC_EV_MODULE_VAR), kept in core's module-variable map until their module
 * unloads or their context goes, and the sentence that explains a device address against one of
 * them ("at offset 1 of the 4-byte __device__ variable `flag` (0x...) of this kernel's module",
 * "4 bytes after the end of the 1024-byte __device__ variable `table` ..."). A variable explains
 * an address when it holds it, and otherwise when it is nearer than the allocation the
 * allocation map would name (the nearest of variables and allocations, as the map picks among
 * allocations), or lies inside the module's own global memory that the driver reported as one
 * allocation. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "symbols/modvars.h"
#include "tools/memcheck/memcheck.h"

void mc_on_module_var(mc_state *s, const cc_ev_module_var *v)
{
    if (s->vars != NULL) {
        cc_modvar_map_add(s->vars, v);
    }
}

void mc_on_module_unload(mc_state *s, uint64_t module)
{
    if (s->vars != NULL) {
        cc_modvar_map_drop_module(s->vars, module);
    }
}

void mc_vars_drop_context(mc_state *s, uint64_t context)
{
    if (s->vars != NULL) {
        cc_modvar_map_drop_context(s->vars, context);
    }
}

static const char *var_word(uint32_t flags)
{
    if (flags & CC_MODVAR_FLAG_CONSTANT) {
        return "__constant__";
    }
    return (flags & CC_MODVAR_FLAG_MANAGED) ? "__managed__" : "__device__";
}

/* The bytes from addr to the allocation's nearest byte, as cc_allocmap_nearest compares. */
static uint64_t alloc_gap(const cc_where_info *w)
{
    return w->where == CC_WHERE_AFTER ? w->distance + 1 : w->distance;
}

/* Whether the variable explains the address better than the allocation verdict w. */
static int var_wins(const cc_where_info *w, const cc_modvar_where *vw)
{
    if (vw->where == CC_WHERE_NOWHERE) {
        return 0;
    }
    if (vw->where == CC_WHERE_INSIDE || vw->where == CC_WHERE_OVERRUN) {
        return 1; /* the variable holds the address */
    }
    switch (w->where) {
    case CC_WHERE_NOWHERE:
        return 1;
    case CC_WHERE_AFTER:
    case CC_WHERE_BEFORE:
        return vw->gap <= alloc_gap(w);
    default: {
        /* Inside an allocation (or a freed one). The driver may report a module's global memory
         * as one allocation: between its variables, the nearest variable says more. */
        const cc_alloc_rec *a = w->alloc;
        uint64_t a_end = a->base + a->size < a->base ? UINT64_MAX : a->base + a->size;
        uint64_t v_end = vw->var->base + vw->var->size;
        return a->mem_kind == CC_MEM_MODULE_GLOBAL && w->where != CC_WHERE_FREED &&
               vw->var->base >= a->base && v_end <= a_end && v_end >= vw->var->base;
    }
    }
}

void mc_var_describe(const cc_modvar *v, uint64_t launch_module, char *out, size_t outlen)
{
    char shown[256];
    cc_cubin_var_display_name(v->name, shown, sizeof shown);
    char module[64] = "";
    if (v->module != 0 && v->module == launch_module) {
        snprintf(module, sizeof module, " of this kernel's module");
    } else if (v->module != 0) {
        snprintf(module, sizeof module, " of module 0x%" PRIx64, v->module);
    }
    snprintf(out, outlen, "the %" PRIu64 "-byte %s variable `%s` (0x%" PRIx64 ")%s", v->size,
             var_word(v->flags), shown, v->base, module);
}

int mc_var_explain(mc_state *s, uint64_t addr, uint32_t size, const cc_where_info *w,
                   uint64_t launch_module, cc_modvar_where *vw, char *out, size_t outlen)
{
    if (s->vars == NULL) {
        vw->where = CC_WHERE_NOWHERE;
        vw->var = NULL;
        return 0;
    }
    *vw = cc_modvar_map_where(s->vars, addr, size);
    if (!var_wins(w, vw)) {
        return 0;
    }
    char var[384];
    mc_var_describe(vw->var, launch_module, var, sizeof var);
    uint64_t end = vw->var->base + vw->var->size;
    switch (vw->where) {
    case CC_WHERE_INSIDE:
        snprintf(out, outlen, "at offset %" PRIu64 " of %s", vw->distance, var);
        break;
    case CC_WHERE_OVERRUN: {
        uint64_t last = addr + (size > 0 ? size : 1) - 1;
        last = last < addr ? UINT64_MAX : last; /* OVERRUN: at or past end */
        snprintf(out, outlen, "%" PRIu32 " bytes starting at offset %" PRIu64 " of %s, running %"
                 PRIu64 " bytes past its end", size, vw->distance, var, last - end + 1);
        break;
    }
    case CC_WHERE_AFTER:
        snprintf(out, outlen, "%" PRIu64 " bytes after the end of %s", vw->distance, var);
        break;
    default:
        snprintf(out, outlen, "%" PRIu64 " bytes before the start of %s", vw->distance, var);
        break;
    }
    return 1;
}
