/* racecheck's fold table (racecheck_fold.h): hazards folded per pair of source locations. */
#include <stdlib.h>
#include <string.h>
#include "tools/racecheck/racecheck_fold.h"
#include "core/grow.h"
#include "core/hash.h"

static const char *or_empty(const char *s) { return s != NULL ? s : ""; }

/* A side's place: file:line when known, else the pc. */
static int has_line(const cc_ev_race_side *s) { return s->file != NULL && s->file[0] != '\0'; }

static uint64_t hash_side(uint64_t h, const cc_ev_race_side *s)
{
    if (has_line(s)) {
        h = cc_hash_combine(h, cc_hash_str(s->file));
        return cc_hash_combine(h, s->line);
    }
    return cc_hash_combine(cc_hash_combine(h, 0x9c), s->pc);
}

static int same_place(const cc_ev_race_side *a, const cc_ev_race_side *b)
{
    if (has_line(a) != has_line(b)) {
        return 0;
    }
    return has_line(a) ? strcmp(a->file, b->file) == 0 && a->line == b->line : a->pc == b->pc;
}

static uint32_t same_value(const cc_ev_device_race *e)
{
    return e->flags & CC_RACE_FLAG_SAME_VALUE;
}

static uint64_t identity(const cc_ev_device_race *e, uint64_t callsite)
{
    uint64_t h = cc_hash_str(or_empty(e->kernel));
    h = cc_hash_combine(h, e->kind);
    h = cc_hash_combine(h, e->space);
    h = cc_hash_combine(h, same_value(e));
    h = cc_hash_combine(h, callsite);
    h = hash_side(h, &e->first);
    return hash_side(h, &e->second);
}

static int same_fold(const rc_fold_entry *x, const cc_ev_device_race *e, uint64_t callsite)
{
    const cc_ev_device_race *r = &x->rep;
    return r->kind == e->kind && r->space == e->space && same_value(r) == same_value(e) &&
           x->callsite == callsite && strcmp(r->kernel, or_empty(e->kernel)) == 0 &&
           same_place(&r->first, &e->first) && same_place(&r->second, &e->second);
}

static void free_entry(rc_fold_entry *x)
{
    if (x != NULL) {
        free((char *)x->rep.kernel);
        free((char *)x->rep.first.file);
        free((char *)x->rep.second.file);
        free(x);
    }
}

static rc_fold_entry *new_entry(const cc_ev_device_race *e, uint64_t callsite)
{
    rc_fold_entry *x = calloc(1, sizeof *x);
    if (x == NULL) {
        return NULL;
    }
    x->rep = *e;
    x->callsite = callsite;
    x->rep.kernel = strdup(or_empty(e->kernel));
    x->rep.first.file = strdup(or_empty(e->first.file));
    x->rep.second.file = strdup(or_empty(e->second.file));
    if (x->rep.kernel == NULL || x->rep.first.file == NULL || x->rep.second.file == NULL) {
        free_entry(x);
        return NULL;
    }
    return x;
}

void rc_fold_init(rc_fold *f)
{
    memset(f, 0, sizeof *f);
    f->index = (cc_hashmap)CC_HASHMAP_INIT;
}

void rc_fold_free(rc_fold *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free_entry(f->entries[i]);
    }
    free(f->entries);
    cc_hashmap_free(&f->index);
    rc_fold_init(f);
}

const rc_fold_entry *rc_fold_add(rc_fold *f, const cc_ev_device_race *e, uint64_t callsite,
                                 int *added)
{
    uint64_t n = e->count ? e->count : 1;
    uint64_t key = identity(e, callsite);
    size_t cursor = 0;
    *added = 0;
    for (uint64_t *v; (v = cc_hashmap_find_next(&f->index, key, &cursor)) != NULL;) {
        rc_fold_entry *x = f->entries[*v];
        if (same_fold(x, e, callsite)) {
            x->count += n;
            return x;
        }
    }
    rc_fold_entry *x = f->n < RC_FOLD_MAX ? new_entry(e, callsite) : NULL;
    rc_fold_entry **slot = x != NULL ? CC_ARRAY_PUSH(f->entries, f->n, f->cap) : NULL;
    if (slot == NULL || cc_hashmap_add(&f->index, key, f->n - 1) != 0) {
        if (slot != NULL) {
            f->n--;
        }
        free_entry(x);
        f->unfolded += n;
        return NULL;
    }
    *slot = x;
    x->count = n;
    *added = 1;
    return x;
}
