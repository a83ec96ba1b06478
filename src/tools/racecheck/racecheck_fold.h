/* racecheck's folding of hazards: the agent folds the hazards of one launch into events with a
 * count, but one bug shows again in every checked launch of its kernel and may span several pcs
 * of one source line (an unrolled loop). This table folds them per pair of source locations:
 * (kernel, race kind, memory space, same-value or not, the launch's callsite, the first side's
 * place, the second side's place), a place being file:line where the cubin has line information
 * and the pc otherwise. The first event of a fold is its representative: every later one is
 * reported with the representative's kernel, pcs and lines, so the reporter's deduplication
 * counts them as one finding. Strings are copied (events' strings live only until the next
 * event). */
#ifndef CUCHECK_TOOLS_RACECHECK_FOLD_H
#define CUCHECK_TOOLS_RACECHECK_FOLD_H

#include <stdint.h>
#include "cucheck/event.h"
#include "core/fold_table.h"

#define RC_FOLD_MAX 65536 /* distinct folds kept; past it events are reported as they come */

typedef struct rc_fold_entry {
    cc_ev_device_race rep;   /* the representative (strings owned by the entry) */
    uint64_t callsite;
    uint64_t count;          /* hazards folded in so far */
} rc_fold_entry;

typedef struct rc_fold {
    cc_fold_table table;         /* of rc_fold_entry (core/fold_table.h) */
    uint64_t unfolded;           /* events past RC_FOLD_MAX or out of memory */
} rc_fold;

void rc_fold_init(rc_fold *f);
void rc_fold_free(rc_fold *f);
/* Fold e (of a launch made at callsite) in: its entry, *added 1 if e opened it; NULL when the
 * table is full or out of memory (then e stands alone). */
const rc_fold_entry *rc_fold_add(rc_fold *f, const cc_ev_device_race *e, uint64_t callsite,
                                 int *added);

#endif
