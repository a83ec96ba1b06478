/* synccheck's internal state and the functions its files share. synccheck_tool.c owns the tool
 * entry points, synccheck_note.c the closing note (the launches and what ran checked:
 * tools/launch_book.h), synccheck_report.c the CC_EV_DEVICE_SYNC_ERROR events turned into
 * findings, synccheck_fold.c the folding of misuses per source location. */
#ifndef CUCHECK_TOOLS_SYNCCHECK_H
#define CUCHECK_TOOLS_SYNCCHECK_H

#include <stdint.h>
#include "cucheck/tool.h"
#include "tools/launch_book.h"
#include "symbols/demangle.h"
#include "tools/synccheck/synccheck_fold.h"

typedef struct sy_state {
    cc_tool_host *host;
    int adaptive;             /* --mode adaptive (default) */
    cc_demangle_cache *names; /* kernel names, demangled once each */
    sy_fold folds;
    cc_launch_book launches;   /* its launches, and what ran checked */
    uint64_t sync_events, occurrences;
} sy_state;

/* synccheck_note.c */
void sy_write_note(sy_state *s);

/* synccheck_report.c */
void sy_on_sync_error(sy_state *s, const cc_ev_device_sync_error *e);

#endif
