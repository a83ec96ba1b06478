/* Internal pieces shared by the report writers, the reporter and the report reader (not part of
 * the core/report.h interface): record writers with ids, the finding title used by the text and
 * SARIF writers, and the text prefix. */
#ifndef CUCHECK_CORE_REPORT_INTERNAL_H
#define CUCHECK_CORE_REPORT_INTERNAL_H

#include <stdio.h>
#include <stdint.h>
#include "cucheck/finding.h"

#define CC_TEXT_PREFIX "========="
#define CC_REPORT_FORMAT "cucheck-report"
#define CC_REPORT_FORMAT_VERSION 1
#define CC_MAX_SAMPLES 4 /* (block, thread) samples kept per folded finding */

#ifndef CUCHECK_VERSION
#define CUCHECK_VERSION "0.0.0"
#endif

/* A {"type":"finding",...} line; id 0 leaves the "id" key out. */
void cc_write_finding_jsonl_id(FILE *out, const cc_finding *f, uint64_t id);
/* The JSON object of a device location (only its valid fields). */
void cc_write_device_json(FILE *out, const cc_device_loc *d);

/* The first line of a finding as text, without prefix: "Invalid __global__ write of size 4
 * bytes" for memory-access kinds, else the message (or the kind), unescaped (text output
 * escapes it: core/text_escape.h). Returns 1 if the title was built from the access (so the
 * message still needs to be shown), 0 if it is the message. */
int cc_finding_title(const cc_finding *f, char *buf, size_t len);
/* "add(float*)+0x1f0 in vecadd.cu:12" for a device location, escaped for a terminal; "" if it
 * has nothing to say. A kernel name too long for buf is cut ("...") so that the pc and
 * file:line stay. Returns the length of the whole text (buf NULL or len 0: only that). */
size_t cc_device_where(const cc_device_loc *d, char *buf, size_t len);

#endif
