/* The launches an instrumenting tool remembers for its findings (racecheck, synccheck): the
 * recent launches by id, and every instrumented launch until CC_EV_LAUNCH_CHECKED says its device
 * results were all read (the agent reads them back late, so many launches may come between a
 * launch and its findings), with their callsite and stream; and the checked-launches counters
 * (tools/checked_launches.h) behind the closing note "kernels checked 3/4, launches instrumented
 * 6/1,200". */
#ifndef CUCHECK_TOOLS_LAUNCH_BOOK_H
#define CUCHECK_TOOLS_LAUNCH_BOOK_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/event.h"
#include "tools/checked_launches.h"

#define CC_LAUNCH_BOOK_RING 4096 /* recent launches remembered for their callsite, by id */
/* Instrumented launches waiting for their results at most; past it the oldest half goes. */
#define CC_LAUNCH_BOOK_UNREAD_MAX 65536

typedef struct cc_book_launch {
    uint64_t launch_id; /* 0: empty slot */
    uint64_t callsite;
    uint64_t stream;
} cc_book_launch;

typedef struct cc_launch_book {
    cc_book_launch recent[CC_LAUNCH_BOOK_RING];
    /* Instrumented launches whose CC_EV_LAUNCH_CHECKED has not come, in arrival order. */
    cc_book_launch *unread;
    size_t nunread, unread_cap;
    uint64_t unread_dropped;     /* forgotten at CC_LAUNCH_BOOK_UNREAD_MAX */
    uint64_t nchecked, nlost;    /* instrumented launches whose results were read, lost */
    cc_checked_launches checked; /* launches and kernels that ran with the tool's checks */
} cc_launch_book;

void cc_launch_book_init(cc_launch_book *b);
void cc_launch_book_free(cc_launch_book *b);
void cc_launch_book_on_launch(cc_launch_book *b, const cc_ev_launch *l);
void cc_launch_book_on_checked(cc_launch_book *b, const cc_ev_launch_checked *c);
/* The launch by id: unread ones first, then the recent ones; NULL if forgotten. */
const cc_book_launch *cc_launch_book_find(const cc_launch_book *b, uint64_t launch_id);
/* "<tool>: the device results of N instrumented launch(es) were not all read (...): <what> in
 * them may be missing" into out and 1, or 0 (out untouched) when every result was read. */
int cc_launch_book_unread_note(const cc_launch_book *b, const char *tool, const char *what,
                               char *out, size_t len);

#endif
