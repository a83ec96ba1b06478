/* racecheck's internal state and the functions its files share. racecheck_tool.c owns the tool
 * entry points, racecheck_launches.c the launches (their callsite and stream until the device
 * results of an instrumented launch are read) and the "what was checked" counters behind the
 * closing note, racecheck_report.c the CC_EV_DEVICE_RACE events turned into findings,
 * racecheck_fold.c the folding of hazards per pair of source locations. */
#ifndef CUCHECK_TOOLS_RACECHECK_H
#define CUCHECK_TOOLS_RACECHECK_H

#include <stdint.h>
#include "cucheck/tool.h"
#include "core/hashmap.h"
#include "tools/checked_launches.h"
#include "symbols/demangle.h"
#include "tools/racecheck/racecheck_fold.h"

#define RC_LAUNCH_RING 4096   /* recent launches remembered for their callsite, by id */
/* Instrumented launches waiting for their results at most; past it the oldest half goes. */
#define RC_UNREAD_MAX 65536

typedef struct rc_launch {
    uint64_t launch_id;       /* 0: empty slot */
    uint64_t callsite;
    uint64_t stream;
} rc_launch;

typedef struct rc_state {
    cc_tool_host *host;
    int adaptive;             /* --mode adaptive (default) */
    cc_demangle_cache *names; /* kernel names, demangled once each */
    rc_fold folds;
    rc_launch launches[RC_LAUNCH_RING];
    /* Instrumented launches whose CC_EV_LAUNCH_CHECKED has not come, in arrival order. */
    rc_launch *unread;
    size_t nunread, unread_cap;
    uint64_t unread_dropped;  /* forgotten at RC_UNREAD_MAX */
    cc_checked_launches checked; /* launches and kernels that ran with race checks */
    uint64_t nchecked, nlost;     /* instrumented launches whose results were read, lost */
    uint64_t race_events, hazards;
} rc_state;

/* racecheck_launches.c */
void rc_on_launch(rc_state *s, const cc_ev_launch *l);
void rc_on_launch_checked(rc_state *s, const cc_ev_launch_checked *c);
/* The launch by id: unread ones first, then the recent ones; NULL if forgotten. */
const rc_launch *rc_find_launch(const rc_state *s, uint64_t launch_id);
void rc_write_note(rc_state *s);
void rc_launches_free(rc_state *s);

/* racecheck_report.c */
void rc_on_race(rc_state *s, const cc_ev_device_race *e);

#endif
