/* synccheck's fold table (synccheck_fold.h): misuses folded per source location. A divergent
 * block's two barriers are an unordered pair (which warp came first varies from run to run). */
#include <stdlib.h>
#include <string.h>
#include "tools/synccheck/synccheck_fold.h"
#include "core/hash.h"

static const char *or_empty(const char *s) { return s != NULL ? s : ""; }

typedef struct place {
    const char *file; /* "" without line information: the pc is the place */
    uint32_t line;
    uint64_t pc;
} place;

static place place_of(const char *file, uint32_t line, uint64_t pc)
{
    place p = {or_empty(file), line, pc};
    if (p.file[0] == '\0') {
        p.line = 0;
    } else {
        p.pc = 0;
    }
    return p;
}

static int place_cmp(const place *a, const place *b)
{
    int c = strcmp(a->file, b->file);
    if (c != 0) {
        return c;
    }
    if (a->line != b->line) {
        return a->line < b->line ? -1 : 1;
    }
    return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* Flags that make two occurrences different bugs (where one was found does not). */
static uint32_t fold_flags(const cc_ev_device_sync_error *e)
{
    return e->flags & ~CC_SYNC_FLAG_AT_EXIT;
}

/* The event's places in a fixed order: its own, and the other barrier's (block_divergent). */
static void places(const cc_ev_device_sync_error *e, place *a, place *b)
{
    *a = place_of(e->file, e->line, e->pc);
    *b = place_of(NULL, 0, 0);
    if (e->kind == CC_SYNC_BLOCK_DIVERGENT) {
        *b = place_of(e->other_file, e->other_line, e->other_pc);
        if (place_cmp(a, b) > 0) {
            place t = *a;
            *a = *b;
            *b = t;
        }
    }
}

static uint64_t hash_place(uint64_t h, const place *p)
{
    h = cc_hash_combine(h, cc_hash_str(p->file));
    h = cc_hash_combine(h, p->line);
    return cc_hash_combine(h, p->pc);
}

static uint64_t identity(const cc_ev_device_sync_error *e, uint64_t callsite)
{
    place a, b;
    places(e, &a, &b);
    uint64_t h = cc_hash_str(or_empty(e->kernel));
    h = cc_hash_combine(h, e->kind);
    h = cc_hash_combine(h, fold_flags(e));
    h = cc_hash_combine(h, callsite);
    h = hash_place(h, &a);
    return hash_place(h, &b);
}

static int same_fold(const sy_fold_entry *x, const cc_ev_device_sync_error *e, uint64_t callsite)
{
    const cc_ev_device_sync_error *r = &x->rep;
    if (r->kind != e->kind || fold_flags(r) != fold_flags(e) || x->callsite != callsite ||
        strcmp(r->kernel, or_empty(e->kernel)) != 0) {
        return 0;
    }
    place ra, rb, ea, eb;
    places(r, &ra, &rb);
    places(e, &ea, &eb);
    return place_cmp(&ra, &ea) == 0 && place_cmp(&rb, &eb) == 0;
}

static void free_entry(sy_fold_entry *x)
{
    if (x != NULL) {
        free((char *)x->rep.kernel);
        free((char *)x->rep.file);
        free((char *)x->rep.other_file);
        free(x);
    }
}

static sy_fold_entry *new_entry(const cc_ev_device_sync_error *e, uint64_t callsite)
{
    sy_fold_entry *x = calloc(1, sizeof *x);
    if (x == NULL) {
        return NULL;
    }
    x->rep = *e;
    x->callsite = callsite;
    x->rep.kernel = strdup(or_empty(e->kernel));
    x->rep.file = strdup(or_empty(e->file));
    x->rep.other_file = strdup(or_empty(e->other_file));
    if (x->rep.kernel == NULL || x->rep.file == NULL || x->rep.other_file == NULL) {
        free_entry(x);
        return NULL;
    }
    return x;
}

typedef struct probe {
    const cc_ev_device_sync_error *e;
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

void sy_fold_init(sy_fold *f)
{
    cc_fold_table_init(&f->table);
    f->unfolded = 0;
}

void sy_fold_free(sy_fold *f)
{
    cc_fold_table_free(&f->table, free_any);
    f->unfolded = 0;
}

const sy_fold_entry *sy_fold_add(sy_fold *f, const cc_ev_device_sync_error *e, uint64_t callsite,
                                 int *added)
{
    uint64_t n = e->count ? e->count : 1;
    uint64_t key = identity(e, callsite);
    probe q = {e, callsite};
    *added = 0;
    sy_fold_entry *x = cc_fold_table_find(&f->table, key, same_probe, &q);
    if (x != NULL) {
        x->count += n;
        return x;
    }
    x = f->table.n < SY_FOLD_MAX ? new_entry(e, callsite) : NULL;
    if (x == NULL || cc_fold_table_add(&f->table, key, x, SY_FOLD_MAX) != 0) {
        free_entry(x);
        f->unfolded += n;
        return NULL;
    }
    x->count = n;
    *added = 1;
    return x;
}
