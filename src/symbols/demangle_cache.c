/* The demangle cache (demangle.h): distinct names by their hash (core/hashmap.h, several
 * entries per hash, the names compared), each entry holding the name and the text to show for
 * it, made once. */
#include "symbols/demangle.h"

#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "core/hashmap.h"

typedef struct name_entry {
    char *shown;     /* the demangled text (malloc'd), or name below */
    char name[];
} name_entry;

struct cc_demangle_cache {
    cc_hashmap names; /* cc_hash_str(name) -> name_entry * */
};

cc_demangle_cache *cc_demangle_cache_new(void) { return calloc(1, sizeof(cc_demangle_cache)); }

void cc_demangle_cache_free(cc_demangle_cache *c) {
    if (!c) return;
    size_t it = 0;
    for (cc_hashmap_slot *s; (s = cc_hashmap_next(&c->names, &it)) != NULL;) {
        name_entry *e = (name_entry *)(uintptr_t)s->value;
        if (e->shown != e->name) free(e->shown);
        free(e);
    }
    cc_hashmap_free(&c->names);
    free(c);
}

const char *cc_demangle_cached(cc_demangle_cache *c, const char *name) {
    if (!name) return "";
    if (!c) return name;
    uint64_t h = cc_hash_str(name);
    size_t cursor = 0;
    for (uint64_t *v; (v = cc_hashmap_find_next(&c->names, h, &cursor)) != NULL;) {
        const name_entry *e = (const name_entry *)(uintptr_t)*v;
        if (strcmp(e->name, name) == 0) return e->shown;
    }
    size_t len = strlen(name);
    name_entry *e = malloc(sizeof *e + len + 1);
    if (!e) return name;
    memcpy(e->name, name, len + 1);
    e->shown = cc_demangle_alloc(name);
    if (!e->shown) e->shown = e->name;
    if (cc_hashmap_add(&c->names, h, (uintptr_t)e) != 0) {
        if (e->shown != e->name) free(e->shown);
        free(e);
        return name;
    }
    return e->shown;
}

size_t cc_demangle_cache_size(const cc_demangle_cache *c) { return c ? c->names.count : 0; }
