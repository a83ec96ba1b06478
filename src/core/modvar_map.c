/* The module-variable map (modvar_map.h): a sorted array of non-overlapping variables searched by
 * binary search; names are copies the map owns. */
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "core/modvar_map.h"
#include "core/sorted_search.h"

struct cc_modvar_map {
    cc_modvar *vars; /* sorted by base, non-overlapping */
    size_t n, cap;
};

cc_modvar_map *cc_modvar_map_new(void)
{
    return calloc(1, sizeof(cc_modvar_map));
}

void cc_modvar_map_free(cc_modvar_map *m)
{
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        free(m->vars[i].name);
    }
    free(m->vars);
    free(m);
}

static uint64_t var_end(const cc_modvar *v)
{
    uint64_t end = v->base + v->size;
    return end < v->base ? UINT64_MAX : end; /* saturate */
}

/* Index of the first variable with base > addr. */
static size_t upper_bound(const cc_modvar_map *m, uint64_t addr)
{
    return CC_SORTED_UPPER(m->vars, m->n, cc_modvar, base, addr);
}

static void remove_at(cc_modvar_map *m, size_t i)
{
    free(m->vars[i].name);
    memmove(&m->vars[i], &m->vars[i + 1], (m->n - i - 1) * sizeof m->vars[0]);
    m->n--;
}

int cc_modvar_map_add(cc_modvar_map *m, const cc_ev_module_var *v)
{
    if (v->address == 0 || v->size == 0) {
        return 0;
    }
    if (CC_ARRAY_RESERVE(m->vars, m->cap, m->n + 1)) {
        return -1;
    }
    char *name = strdup(v->name != NULL ? v->name : "");
    if (name == NULL) {
        return -1;
    }
    cc_modvar r = {v->address, v->size, v->context, v->module, v->flags, name};
    uint64_t end = var_end(&r);
    size_t i = upper_bound(m, r.base);
    if (i > 0 && var_end(&m->vars[i - 1]) > r.base) {
        i--;
    }
    while (i < m->n && m->vars[i].base < end) {
        remove_at(m, i); /* overlaps [base, end) */
    }
    size_t at = upper_bound(m, r.base);
    memmove(&m->vars[at + 1], &m->vars[at], (m->n - at) * sizeof m->vars[0]);
    m->vars[at] = r;
    m->n++;
    return 0;
}

/* Drop the variables whose module (by_module) or context matches id. */
static size_t drop_where(cc_modvar_map *m, uint64_t id, int by_module)
{
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < m->n; i++) {
        if ((by_module ? m->vars[i].module : m->vars[i].context) == id) {
            free(m->vars[i].name);
            dropped++;
        } else {
            m->vars[kept++] = m->vars[i];
        }
    }
    m->n = kept;
    return dropped;
}

size_t cc_modvar_map_drop_module(cc_modvar_map *m, uint64_t module)
{
    return drop_where(m, module, 1);
}

size_t cc_modvar_map_drop_context(cc_modvar_map *m, uint64_t context)
{
    return drop_where(m, context, 0);
}

size_t cc_modvar_map_count(const cc_modvar_map *m)
{
    return m->n;
}

const cc_modvar *cc_modvar_map_at(const cc_modvar_map *m, size_t i)
{
    return i < m->n ? &m->vars[i] : NULL;
}

const cc_modvar *cc_modvar_map_find(const cc_modvar_map *m, uint64_t addr)
{
    size_t i = upper_bound(m, addr);
    return i > 0 && addr < var_end(&m->vars[i - 1]) ? &m->vars[i - 1] : NULL;
}

cc_modvar_where cc_modvar_map_where(const cc_modvar_map *m, uint64_t addr, uint64_t size)
{
    cc_modvar_where w = {CC_WHERE_NOWHERE, NULL, 0, 0};
    size_t i = upper_bound(m, addr);
    const cc_modvar *below = i > 0 ? &m->vars[i - 1] : NULL;
    const cc_modvar *above = i < m->n ? &m->vars[i] : NULL;
    if (below != NULL && addr < var_end(below)) {
        uint64_t last = size > 0 ? addr + size - 1 : addr;
        if (last < addr) {
            last = UINT64_MAX;
        }
        w.where = last < var_end(below) ? CC_WHERE_INSIDE : CC_WHERE_OVERRUN;
        w.var = below;
        w.distance = addr - below->base;
        return w;
    }
    uint64_t gap_below = below != NULL ? addr - var_end(below) + 1 : UINT64_MAX;
    uint64_t gap_above = above != NULL ? above->base - addr : UINT64_MAX;
    if (below != NULL && gap_below <= gap_above) {
        w.where = CC_WHERE_AFTER;
        w.var = below;
        w.distance = addr - var_end(below);
        w.gap = gap_below;
    } else if (above != NULL) {
        w.where = CC_WHERE_BEFORE;
        w.var = above;
        w.distance = above->base - addr;
        w.gap = gap_above;
    }
    return w;
}
