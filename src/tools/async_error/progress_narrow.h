/* Asynchronous-error attribution's use of the device's launch progress marks
 * (CC_EV_LAUNCH_PROGRESS): which launches in flight at a sticky error the GPU had started and
 * finished. A launch whose threads all exited cannot have faulted, nor can one that never
 * started (queued behind the fault on its stream, or a later node of a graph); the faulting
 * launch is among those that started and did not finish. Every rule keeps a launch whose
 * progress is unknown (not flagged, too old for the report, or a whole-graph launch), and the
 * marks are not used when none of them shows a launch that started. */
#ifndef CUCHECK_TOOLS_ASYNC_ERROR_PROGRESS_NARROW_H
#define CUCHECK_TOOLS_ASYNC_ERROR_PROGRESS_NARROW_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/event.h"
#include "tools/async_error/inflight.h"

typedef struct cc_async_progress_entry {
    uint64_t launch_id;
    int started;
} cc_async_progress_entry;

typedef struct cc_async_progress {
    int valid;               /* the summary arrived: the report is complete */
    int lost;                /* an entry could not be kept: the report is not used */
    uint64_t covered_from;   /* flagged launches from here on not listed had finished */
    uint32_t finished;       /* flagged launches seen finished */
    cc_async_progress_entry *unfinished; /* listed launches */
    size_t n, cap;
} cc_async_progress;

void cc_async_progress_keep(cc_async_progress *p, const cc_ev_launch_progress *ev);
void cc_async_progress_free(cc_async_progress *p);

typedef struct cc_async_narrowing {
    int used;                /* the marks narrowed the launches (else all are kept) */
    const char *why_not;     /* when not used though marks arrived: why */
    size_t finished;         /* launches dropped: they had finished */
    size_t not_started;      /* launches dropped: they never started */
} cc_async_narrowing;

/* Set keep[i] for each of the n pending launches (oldest first) that may have faulted; returns
 * how many are kept. Without a usable report every launch is kept. */
size_t cc_async_progress_narrow(const cc_async_progress *p, const cc_inflight_launch *pending,
                              size_t n, unsigned char *keep, cc_async_narrowing *out);

#endif
