/* synccheck's internal state and the functions its files share. synccheck_tool.c owns the tool
 * entry points, synccheck_launches.c the launches (their callsite and stream until the device
 * results of an instrumented launch are read) and the "what was checked" counters behind the
 * closing note, synccheck_report.c the CC_EV_DEVICE_SYNC_ERROR events turned into findings,
 * synccheck_fold.c the folding of misuses per source location. */
#ifndef CUCHECK_TOOLS_SYNCCHECK_H
#define CUCHECK_TOOLS_SYNCCHECK_H

#include <stdint.h>
#include "cucheck/tool.h"
#include "tools/checked_launches.h"
#include "symbols/demangle.h"
#include "tools/synccheck/synccheck_fold.h"

#define SY_LAUNCH_RING 4096   /* recent launches remembered for their callsite, by id */
/* Instrumented launches waiting for their results at most; past it the oldest half goes. */
#define SY_UNREAD_MAX 65536

typedef struct sy_launch {
    uint64_t launch_id;       /* 0: empty slot */
    uint64_t callsite;
    uint64_t stream;
} sy_launch;

typedef struct sy_state {
    cc_tool_host *host;
    int adaptive;             /* --mode adaptive (default) */
    cc_demangle_cache *names; /* kernel names, demangled once each */
    sy_fold folds;
    sy_launch launches[SY_LAUNCH_RING];
    /* Instrumented launches whose CC_EV_LAUNCH_CHECKED has not come, in arrival order. */
    sy_launch *unread;
    size_t nunread, unread_cap;
    uint64_t unread_dropped;  /* forgotten at SY_UNREAD_MAX */
    cc_checked_launches checked; /* launches and kernels that ran with synchronization checks */
    uint64_t nchecked, nlost;     /* instrumented launches whose results were read, lost */
    uint64_t sync_events, occurrences;
} sy_state;

/* synccheck_launches.c */
void sy_on_launch(sy_state *s, const cc_ev_launch *l);
void sy_on_launch_checked(sy_state *s, const cc_ev_launch_checked *c);
/* The launch by id: unread ones first, then the recent ones; NULL if forgotten. */
const sy_launch *sy_find_launch(const sy_state *s, uint64_t launch_id);
void sy_write_note(sy_state *s);
void sy_launches_free(sy_state *s);

/* synccheck_report.c */
void sy_on_sync_error(sy_state *s, const cc_ev_device_sync_error *e);

#endif
