/* What streamcheck checked, for its closing note: per kernel, how its launches got their access
 * sets (instrumented on the device, learned, inferred, none), counted from the event stream
 * alone (launch flags and access event sources), so replay gives the same note as the live run.
 * A kernel that had instrumented launches and then inferred ones, and nothing learned, is named
 * as one that fell back to inferred sets (the agent does that when a kernel touches memory
 * outside its pointer arguments' allocations). */
#ifndef CUCHECK_TOOLS_STREAMCHECK_SC_COVERAGE_H
#define CUCHECK_TOOLS_STREAMCHECK_SC_COVERAGE_H

#include <stddef.h>
#include "cucheck/event.h"
#include "symbols/demangle.h"

typedef struct sc_cov sc_cov;

sc_cov *sc_cov_new(void);          /* NULL when out of memory */
void sc_cov_event(sc_cov *c, const cc_event *ev); /* LAUNCH and ACCESS events; others ignored */
/* The note: "streamcheck access sets: kernels 12 (9 learned, 11 instrumented, 2 inferred, 0
 * without); launches instrumented 30/1,200, learned 1,100, inferred 70, without access events 0
 * (graph kernel nodes 4: 3 with inferred access sets, 1 without)", plus a second sentence
 * naming kernels that fell back (written to out2, "" if none), demangled through names (NULL:
 * as the launches named them). */
void sc_cov_note(const sc_cov *c, cc_demangle_cache *names, char *out, size_t n, char *out2,
                 size_t n2);
void sc_cov_free(sc_cov *c);

#endif
