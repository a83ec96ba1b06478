/* synccheck's folding of misuses: the agent folds one launch's occurrences per (pc, kind) into
 * events with a count, but one bug shows again in every checked launch of its kernel and at
 * several pcs of one source line (an unrolled loop). This table folds them per source location:
 * (kernel, kind, flags, the launch's callsite, the place, the other barrier's place for a
 * divergent block), a place being file:line where the cubin has line information and the pc
 * otherwise. The first event of a fold is its representative: every later one is reported with
 * its kernel, pcs and lines, so the reporter's deduplication counts them as one finding.
 * Strings are copied (events' strings live only until the next event). */
#ifndef CUCHECK_TOOLS_SYNCCHECK_FOLD_H
#define CUCHECK_TOOLS_SYNCCHECK_FOLD_H

#include <stdint.h>
#include "cucheck/event.h"
#include "core/fold_table.h"

#define SY_FOLD_MAX 65536 /* distinct folds kept; past it events are reported as they come */

typedef struct sy_fold_entry {
    cc_ev_device_sync_error rep; /* the representative (strings owned by the entry) */
    uint64_t callsite;
    uint64_t count;              /* occurrences folded in so far */
} sy_fold_entry;

typedef struct sy_fold {
    cc_fold_table table;         /* of sy_fold_entry (core/fold_table.h) */
    uint64_t unfolded;           /* events past SY_FOLD_MAX or out of memory */
} sy_fold;

void sy_fold_init(sy_fold *f);
void sy_fold_free(sy_fold *f);
/* Fold e (of a launch made at callsite) in: its entry, *added 1 if e opened it; NULL when the
 * table is full or out of memory (then e stands alone). */
const sy_fold_entry *sy_fold_add(sy_fold *f, const cc_ev_device_sync_error *e, uint64_t callsite,
                                 int *added);

#endif
