/* Folding identical findings from several reports into one with a summed count and the set of
 * report sections it was seen in (merge.h). */
#include "cli/merge.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "core/hashmap.h"

static uint64_t mix_str(uint64_t h, const char *s)
{
    if (!s) {
        return cc_hash_more(h, "\1", 1);
    }
    return cc_hash_more(h, s, strlen(s) + 1);
}

static uint64_t mix_u64(uint64_t h, uint64_t v)
{
    return cc_hash_more(h, &v, sizeof v);
}

static int str_eq(const char *a, const char *b)
{
    if (!a || !b) {
        return a == b;
    }
    return strcmp(a, b) == 0;
}

static uint64_t hash_device(uint64_t h, const cc_device_loc *d)
{
    h = mix_u64(h, d->valid);
    if (d->valid & CC_DLOC_KERNEL) {
        h = mix_str(h, d->kernel);
        h = mix_u64(h, d->launch_id);
        h = mix_u64(h, d->stream);
    }
    if (d->valid & CC_DLOC_PC) {
        h = mix_u64(h, d->pc);
    }
    if (d->valid & CC_DLOC_LINE) {
        h = mix_str(h, d->file);
        h = mix_u64(h, d->line);
    }
    if (d->valid & CC_DLOC_THREAD) {
        h = cc_hash_more(h, d->block, sizeof d->block);
        h = cc_hash_more(h, d->thread, sizeof d->thread);
    }
    if (d->valid & CC_DLOC_ADDRESS) {
        h = mix_u64(h, d->address);
        h = mix_u64(h, d->size);
        h = mix_u64(h, d->access);
        h = mix_u64(h, d->space);
    }
    return h;
}

static int device_eq(const cc_device_loc *a, const cc_device_loc *b)
{
    if (a->valid != b->valid) {
        return 0;
    }
    if ((a->valid & CC_DLOC_KERNEL) &&
        (!str_eq(a->kernel, b->kernel) || a->launch_id != b->launch_id || a->stream != b->stream)) {
        return 0;
    }
    if ((a->valid & CC_DLOC_PC) && a->pc != b->pc) {
        return 0;
    }
    if ((a->valid & CC_DLOC_LINE) && (!str_eq(a->file, b->file) || a->line != b->line)) {
        return 0;
    }
    if ((a->valid & CC_DLOC_THREAD) && (memcmp(a->block, b->block, sizeof a->block) != 0 ||
                                        memcmp(a->thread, b->thread, sizeof a->thread) != 0)) {
        return 0;
    }
    if ((a->valid & CC_DLOC_ADDRESS) &&
        (a->address != b->address || a->size != b->size || a->access != b->access ||
         a->space != b->space)) {
        return 0;
    }
    return 1;
}

/* Host frames compare by their symbolized text (addresses differ between processes). */
static int frame_eq(const cc_stack_frame *a, const cc_stack_frame *b)
{
    if (a->text || b->text) {
        return str_eq(a->text, b->text);
    }
    return a->pc == b->pc;
}

static uint64_t hash_finding(const cc_finding *f)
{
    uint64_t h = CC_HASH_SEED;
    h = mix_str(h, f->tool);
    h = mix_str(h, f->kind);
    h = mix_u64(h, f->severity);
    h = mix_str(h, f->message);
    h = mix_str(h, f->test);
    h = mix_u64(h, (uint64_t)(f->has_device != 0));
    if (f->has_device) {
        h = hash_device(h, &f->device);
    }
    h = mix_u64(h, f->nframes);
    for (uint32_t i = 0; f->frames && i < f->nframes; i++) {
        h = f->frames[i].text ? mix_str(h, f->frames[i].text) : mix_u64(h, f->frames[i].pc);
    }
    return h;
}

static int finding_eq(const cc_finding *a, const cc_finding *b)
{
    if (!str_eq(a->tool, b->tool) || !str_eq(a->kind, b->kind) || a->severity != b->severity ||
        !str_eq(a->message, b->message) || !str_eq(a->test, b->test) ||
        (a->has_device != 0) != (b->has_device != 0) ||
        a->nframes != b->nframes || a->nrelated != b->nrelated) {
        return 0;
    }
    if (a->has_device && !device_eq(&a->device, &b->device)) {
        return 0;
    }
    for (uint32_t i = 0; i < a->nframes; i++) {
        if (!a->frames || !b->frames || !frame_eq(&a->frames[i], &b->frames[i])) {
            return 0;
        }
    }
    return 1;
}

/* Adds section to the item's sections unless it is there; -1 when out of memory. */
static int add_from(cc_merged_from *from, size_t section)
{
    if (section == SIZE_MAX) {
        return 0;
    }
    for (size_t i = 0; i < from->n; i++) {
        if (from->sections[i] == section) {
            return 0;
        }
    }
    size_t *slot = CC_ARRAY_PUSH(from->sections, from->n, from->cap);
    if (!slot) {
        return -1;
    }
    *slot = section;
    return 0;
}

int cc_merge_findings(const cc_finding_set *s, cc_merged *m)
{
    memset(m, 0, sizeof *m);
    size_t n = cc_finding_set_size(s);
    if (n == 0) {
        return 0;
    }
    cc_hashmap index = CC_HASHMAP_INIT; /* hash_finding -> index into items */
    m->items = malloc(n * sizeof *m->items);
    m->from = calloc(n, sizeof *m->from);
    if (!m->items || !m->from || cc_hashmap_reserve(&index, n) != 0) {
        cc_hashmap_free(&index);
        cc_merged_free(m);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const cc_finding *f = cc_finding_set_get(s, i);
        if (!f) {
            continue;
        }
        uint64_t h = hash_finding(f);
        uint64_t add = f->count ? f->count : 1;
        cc_finding *same = NULL;
        size_t cursor = 0;
        for (uint64_t *at; !same && (at = cc_hashmap_find_next(&index, h, &cursor)) != NULL;) {
            same = finding_eq(&m->items[*at], f) ? &m->items[*at] : NULL;
        }
        size_t at = same ? (size_t)(same - m->items) : m->n;
        if (same) {
            same->count += add;
        } else {
            cc_hashmap_add(&index, h, m->n); /* room reserved */
            m->items[m->n] = *f;
            m->items[m->n++].count = add;
            m->nfrom = m->n;
        }
        if (add_from(&m->from[at], cc_finding_set_section_of(s, i)) != 0) {
            cc_hashmap_free(&index);
            cc_merged_free(m);
            return -1;
        }
    }
    cc_hashmap_free(&index);
    return 0;
}

void cc_merged_free(cc_merged *m)
{
    for (size_t i = 0; m->from && i < m->nfrom; i++) {
        free(m->from[i].sections);
    }
    free(m->from);
    free(m->items);
    memset(m, 0, sizeof *m);
}

void cc_merged_count(const cc_merged *m, cc_merged_counts *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < m->n; i++) {
        const cc_finding *f = &m->items[i];
        if (f->severity >= CC_SEV_ERROR) {
            c->errors++;
        } else if (f->severity == CC_SEV_WARNING) {
            c->warnings++;
        } else {
            c->infos++;
        }
        c->occurrences += f->count ? f->count : 1;
    }
}
