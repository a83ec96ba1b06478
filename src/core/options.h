/* Tool options as they travel from the CLI to the agent (environment variable CUCHECK_OPTIONS)
 * and into replay: an ordered list of name=value pairs, encoded as "name=value" lines. A value
 * may not contain a newline; the CLI rejects such values. */
#ifndef CUCHECK_CORE_OPTIONS_H
#define CUCHECK_CORE_OPTIONS_H

#include <stddef.h>

typedef struct cc_options cc_options;

cc_options *cc_options_new(void);
/* Parse an encoded list; NULL or "" gives an empty list. NULL on a malformed line (no '='). */
cc_options *cc_options_parse(const char *encoded);
int cc_options_set(cc_options *o, const char *name, const char *value); /* replaces; 0 ok */
const char *cc_options_get(const cc_options *o, const char *name);     /* NULL if absent */
size_t cc_options_count(const cc_options *o);
const char *cc_options_name_at(const cc_options *o, size_t i);
/* Encoded form, malloc'd; NULL on allocation failure or a value with a newline. */
char *cc_options_encode(const cc_options *o);
void cc_options_free(cc_options *o);
/* A cc_option_get (cucheck/tool.h) over a list: ctx is the const cc_options *. */
const char *cc_options_getter(void *ctx, const char *name);

#endif
