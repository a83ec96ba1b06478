/* racecheck's fold table (racecheck_fold.h): hazards folded per pair of source locations. */
#include <stdlib.h>
#include <string.h>
#include "tools/racecheck/racecheck_fold.h"
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

typedef struct probe {
    const cc_ev_device_race *e;
    uint64_t callsite;
} probe;

static int same_probe(const void *entry, const void *p)
{
    const probe *q = p;
    return same_fold(entry, q->e, q->callsite);
}

static void free_any(void *entry)
{
    free_entry(entry);
}

void rc_fold_init(rc_fold *f)
{
    cc_fold_table_init(&f->table);
    f->unfolded = 0;
}

void rc_fold_free(rc_fold *f)
{
    cc_fold_table_free(&f->table, free_any);
    f->unfolded = 0;
}

const rc_fold_entry *rc_fold_add(rc_fold *f, const cc_ev_device_race *e, uint64_t callsite,
                                 int *added)
{
    uint64_t n = e->count ? e->count : 1;
    uint64_t key = identity(e, callsite);
    probe q = {e, callsite};
    *added = 0;
    rc_fold_entry *x = cc_fold_table_find(&f->table, key, same_probe, &q);
    if (x != NULL) {
        x->count += n;
        return x;
    }
    x = f->table.n < RC_FOLD_MAX ? new_entry(e, callsite) : NULL;
    if (x == NULL || cc_fold_table_add(&f->table, key, x, RC_FOLD_MAX) != 0) {
        free_entry(x);
        f->unfolded += n;
        return NULL;
    }
    x->count = n;
    *added = 1;
    return x;
}
