/* The "what was checked" counters of an instrumenting tool (memcheck, racecheck): launches seen
 * and instrumented, distinct kernels seen and checked at least once, behind its closing note
 * "kernels checked 214/214, launches instrumented 1,204/81,000". */
#ifndef CUCHECK_TOOLS_CHECKED_LAUNCHES_H
#define CUCHECK_TOOLS_CHECKED_LAUNCHES_H

#include <stddef.h>
#include <stdint.h>
#include "core/hashmap.h"
#include "core/strtab.h"

#define CC_CHECKED_KERNEL_TABLE 4096 /* distinct kernels counted (a power of two) */

typedef struct cc_checked_launches {
    /* Distinct kernels: the hash of the name -> its launches that ran checked. Fixed storage
     * (kernel_slots, kernel_used): a launch never allocates for it. */
    cc_hashmap kernels;
    cc_hashmap_slot kernel_slots[CC_CHECKED_KERNEL_TABLE];
    uint64_t kernel_used[CC_HASHMAP_USED_WORDS(CC_CHECKED_KERNEL_TABLE)];
    uint64_t nkernels_checked;
    uint64_t kernels_overflow; /* launches not counted per kernel: the table was full */
    uint64_t nlaunches, ninstrumented;
    /* The names seen: a launch naming its kernel by the same pointer as before is not hashed
     * again (core/strtab.h; one allocation per distinct name, while the kernels table has room).
     * NULL (out of memory): every name is hashed. */
    cc_strtab *names;
} cc_checked_launches;

void cc_checked_launches_init(cc_checked_launches *c);
void cc_checked_launches_free(cc_checked_launches *c);
/* One launch of kernel `name` (NULL: unnamed), instrumented or not. */
void cc_checked_launches_add(cc_checked_launches *c, const char *name, int instrumented);
/* "kernels checked 3/4, launches instrumented 6/1,200" into out. */
void cc_checked_launches_summary(const cc_checked_launches *c, char *out, size_t len);
/* "<tool>: more than 4096 distinct kernels; N launches were not counted per kernel" into out and
 * 1, or 0 (out untouched) when every launch was counted. */
int cc_checked_launches_overflow_note(const cc_checked_launches *c, const char *tool, char *out,
                                      size_t len);

#endif
