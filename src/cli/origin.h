/* Which ranks and processes a merged finding came from (cli/merge.h keeps the report sections
 * of each), as the final report says it: "ranks 0-3,5", "rank 1", "pids 4242,4243", or both
 * ("ranks 0,1; pid 4242" when a process without a rank saw it too), and as JSON arrays. Shown
 * only when it says something: a run whose processes have ranks, or of several processes. */
#ifndef CUCHECK_CLI_ORIGIN_H
#define CUCHECK_CLI_ORIGIN_H

#include <stddef.h>
#include <stdio.h>
#include "core/report.h"
#include "cli/merge.h"

/* Is the origin of findings worth saying for this set: some process has a rank, or the reports
 * come from more than one process? */
int cc_origin_shown(const cc_finding_set *set);

/* The origin of merged finding i as text ("ranks 0,1", see above) into buf; "" when it came
 * from no report. Cut with "..." when buf is short. */
void cc_origin_text(const cc_merged *m, size_t i, const cc_finding_set *set, char *buf,
                    size_t len);

/* The JSON members of merged finding i's origin, each after a comma: ,"ranks":[0,1] (when any
 * of its processes had a rank) ,"pids":[...] (every process that saw it). malloc'd ("" when it
 * came from no report); NULL when out of memory. */
char *cc_origin_json(const cc_merged *m, size_t i, const cc_finding_set *set);

/* For the summary line: " (ranks 0-7)", " (rank 0 and 1 process without a rank)", or "" when no
 * process of the set has a rank. */
void cc_origin_summary(const cc_finding_set *set, char *buf, size_t len);

#endif
