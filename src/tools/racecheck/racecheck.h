/* racecheck's internal state and the functions its files share. racecheck_tool.c owns the tool
 * entry points, racecheck_note.c the closing note (the launches and what ran checked:
 * tools/launch_book.h), racecheck_report.c the CC_EV_DEVICE_RACE events turned into findings,
 * racecheck_fold.c the folding of hazards per pair of source locations. */
#ifndef CUCHECK_TOOLS_RACECHECK_H
#define CUCHECK_TOOLS_RACECHECK_H

#include <stdint.h>
#include "cucheck/tool.h"
#include "core/hashmap.h"
#include "tools/launch_book.h"
#include "symbols/demangle.h"
#include "tools/racecheck/racecheck_fold.h"

typedef struct rc_state {
    cc_tool_host *host;
    int adaptive;             /* --mode adaptive (default) */
    cc_demangle_cache *names; /* kernel names, demangled once each */
    rc_fold folds;
    cc_launch_book launches;   /* its launches, and what ran checked */
    uint64_t race_events, hazards;
} rc_state;

/* racecheck_note.c */
void rc_write_note(rc_state *s);

/* racecheck_report.c */
void rc_on_race(rc_state *s, const cc_ev_device_race *e);

#endif
