/* A sorted table of disjoint address ranges [base, end) (the instrumentation manager's
 * live-allocation table, which device patches search by binary search once it is compacted).
 * A removed range leaves a tombstone in place (an empty range at its base) instead of moving the
 * ranges after it, and a range added again at a tombstone's base takes its place: a training
 * loop that frees and allocates the same blocks every step then costs a binary search per
 * change, not a move of the table. No tombstone ever lies inside a live range, so a lookup that
 * lands on one finds nothing, as it should. cc_range_table_compact drops the tombstones before
 * the table is copied for a reader that expects only live ranges. */
#ifndef CUCHECK_CORE_RANGE_TABLE_H
#define CUCHECK_CORE_RANGE_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_range {
    uint64_t base, end;
} cc_range;

typedef struct cc_range_table {
    cc_range *r;      /* sorted by base; tombstones have end == base */
    size_t n, cap;    /* entries, tombstones included; allocated */
    size_t ntomb;     /* tombstones among the n */
    uint64_t version; /* bumped by every change of the live ranges */
} cc_range_table;

void cc_range_table_free(cc_range_table *t);

/* Adds [base, end) (nothing for an empty range). Live ranges it overlaps are dropped (their
 * removal was missed), unless weak: then an overlap leaves the table as it was. */
void cc_range_table_insert(cc_range_table *t, uint64_t base, uint64_t end, int weak);

/* Removes the live range that starts at base, if any. */
void cc_range_table_erase(cc_range_table *t, uint64_t base);

/* Removes every live range overlapping [lo, hi), calling each(arg, base, end) for it first. */
void cc_range_table_take(cc_range_table *t, uint64_t lo, uint64_t hi,
                         void (*each)(void *arg, uint64_t base, uint64_t end), void *arg);

/* The live range holding addr, or NULL. */
const cc_range *cc_range_table_find(const cc_range_table *t, uint64_t addr);

/* Drops the tombstones: afterwards r[0..n) are the live ranges, sorted. */
void cc_range_table_compact(cc_range_table *t);

#endif
