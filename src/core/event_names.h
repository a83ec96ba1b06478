/* Names of the small enums of the event model that the public header does not name: how a
 * process ended (cc_exit_reason) and which CUDA API reported an error (CC_API_*). Same
 * conventions as the cc_*_name functions of cucheck/event.h: NULL / -1 when unknown. */
#ifndef CUCHECK_CORE_EVENT_NAMES_H
#define CUCHECK_CORE_EVENT_NAMES_H

#include <stdint.h>

const char *cc_exit_reason_name(uint32_t reason);
int cc_exit_reason_from_name(const char *name);
const char *cc_api_kind_name(uint32_t api);
int cc_api_kind_from_name(const char *name);
const char *cc_access_source_name(uint32_t source); /* cc_access_source (access events) */
int cc_access_source_from_name(const char *name);

#endif
