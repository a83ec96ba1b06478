/* Internal helpers over the public findings model (include/cucheck/finding.h): parsing the
 * stable enum names back (the inverse of cc_severity_name & co.), deep copies of findings into
 * one allocation, and the dedup key the reporter folds duplicates by. */
#ifndef CUCHECK_CORE_FINDING_UTIL_H
#define CUCHECK_CORE_FINDING_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "core/hash.h" /* cc_hash_str, which reporters hash dedup keys with */
#include "cucheck/finding.h"

/* Inverse of the cc_*_name functions; 0 on success, -1 for an unknown name. */
int cc_severity_from_name(const char *name, uint32_t *out);
int cc_access_from_name(const char *name, uint32_t *out);
int cc_mem_space_from_name(const char *name, uint32_t *out);

/* Role of the related entries that carry extra (block, thread) samples of a folded finding. */
#define CC_RELATED_SAMPLE "sample"

/* Deep copy of f, with `extra` related entries appended, in one malloc'd block: free() it.
 * NULL on allocation failure. */
cc_finding *cc_finding_clone(const cc_finding *f, const cc_related *extra, uint32_t nextra);

/* How many host frames take part in the dedup key. */
#define CC_DEDUP_FRAMES 4
/* The dedup key of f: tool, kind, kernel, pc, file:line, access, space, the top host frames' texts,
 * the test, and the message when f has no device location. malloc'd, NULL on allocation failure. */
char *cc_finding_dedup_key(const cc_finding *f);

#endif
