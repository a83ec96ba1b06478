/* Merging the findings of several process reports: findings that are the same in every respect
 * but their count and the process they came from (the same bug seen by several processes or
 * ranks) fold into one whose count is the sum and which keeps the set of report sections (so
 * processes and ranks) it was seen in. Order: first appearance. */
#ifndef CUCHECK_CLI_MERGE_H
#define CUCHECK_CLI_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/finding.h"
#include "core/report.h"

/* The report sections (cc_finding_set_section) a merged finding was seen in, distinct. */
typedef struct cc_merged_from {
    size_t *sections;
    size_t n, cap;
} cc_merged_from;

typedef struct cc_merged {
    cc_finding *items; /* shallow copies: strings and arrays are borrowed from the set */
    size_t n;
    cc_merged_from *from; /* per item, for the first nfrom items (a finding the CLI adds later,
                           * such as program-exit, comes from no report) */
    size_t nfrom;
} cc_merged;

/* 0, or -1 when out of memory. The set must outlive the result. */
int cc_merge_findings(const cc_finding_set *s, cc_merged *m);
void cc_merged_free(cc_merged *m);

typedef struct cc_merged_counts {
    size_t errors, warnings, infos; /* distinct findings by severity */
    uint64_t occurrences;           /* sum of counts */
} cc_merged_counts;

void cc_merged_count(const cc_merged *m, cc_merged_counts *c);

#endif
