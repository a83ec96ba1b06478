/* The fold table (fold_table.h): entries in order, found by identity hash. */
#include <stdlib.h>
#include <string.h>
#include "core/fold_table.h"
#include "core/grow.h"

void cc_fold_table_init(cc_fold_table *t)
{
    memset(t, 0, sizeof *t);
    t->index = (cc_hashmap)CC_HASHMAP_INIT;
}

void cc_fold_table_free(cc_fold_table *t, void (*free_entry)(void *entry))
{
    for (size_t i = 0; free_entry != NULL && i < t->n; i++) {
        free_entry(t->entries[i]);
    }
    free(t->entries);
    cc_hashmap_free(&t->index);
    cc_fold_table_init(t);
}

void *cc_fold_table_find(const cc_fold_table *t, uint64_t key,
                         int (*same)(const void *entry, const void *probe), const void *probe)
{
    size_t cursor = 0;
    for (uint64_t *v; (v = cc_hashmap_find_next(&t->index, key, &cursor)) != NULL;) {
        if (*v < t->n && same(t->entries[*v], probe)) {
            return t->entries[*v];
        }
    }
    return NULL;
}

int cc_fold_table_add(cc_fold_table *t, uint64_t key, void *entry, size_t max)
{
    if (t->n >= max) {
        return -1;
    }
    void **slot = CC_ARRAY_PUSH(t->entries, t->n, t->cap);
    if (slot == NULL) {
        return -1;
    }
    if (cc_hashmap_add(&t->index, key, t->n - 1) != 0) {
        t->n--;
        return -1;
    }
    *slot = entry;
    return 0;
}
