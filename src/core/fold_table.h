/* A table of folds: reports that stand for one bug (the same kernel, kind and source places,
 * seen again in later launches or at several pcs of a line) kept once, each under the hash of
 * its identity. The entries are the tool's (it compares, allocates and frees them); the table
 * keeps their order, finds the one a new report folds into, and refuses past a cap. Built on
 * core/hashmap.h (keys may collide: the tool's comparison decides) and core/grow.h. Used by
 * racecheck's and synccheck's host halves. */
#ifndef CUCHECK_CORE_FOLD_TABLE_H
#define CUCHECK_CORE_FOLD_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "core/hashmap.h"

typedef struct cc_fold_table {
    void **entries;          /* in the order they were added */
    size_t n, cap;
    cc_hashmap index;        /* identity hash -> index into entries */
} cc_fold_table;

void cc_fold_table_init(cc_fold_table *t);
/* free_entry (may be NULL) on every entry, then the table's storage; the table is empty. */
void cc_fold_table_free(cc_fold_table *t, void (*free_entry)(void *entry));
/* The entry under key that same(entry, probe) accepts, or NULL. */
void *cc_fold_table_find(const cc_fold_table *t, uint64_t key,
                         int (*same)(const void *entry, const void *probe), const void *probe);
/* entry added under key: 0, or -1 when the table holds max entries or memory ran out (the entry
 * is then not taken: the caller frees it). */
int cc_fold_table_add(cc_fold_table *t, uint64_t key, void *entry, size_t max);

#endif
