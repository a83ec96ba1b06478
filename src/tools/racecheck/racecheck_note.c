/* racecheck's closing note: what was checked, "racecheck (adaptive mode): kernels checked 3/4,
 * launches instrumented 6/1,200; ..." from its launch book (tools/launch_book.h), saying plainly
 * when nothing ran with race checks, and what may be missing (results not read, kernels not
 * counted, hazards not folded). */
#include <inttypes.h>
#include <stdio.h>
#include "tools/racecheck/racecheck.h"

void rc_write_note(rc_state *s)
{
    char checked[160], note[512];
    cc_checked_launches_summary(&s->launches.checked, checked, sizeof checked);
    snprintf(note, sizeof note, "racecheck (%s mode): %s; %" PRIu64 " hazard(s) reported in "
             "%" PRIu64 " race event(s)", s->adaptive ? "adaptive" : "full", checked, s->hazards,
             s->race_events);
    s->host->note(s->host, note);
    if (s->launches.checked.ninstrumented == 0 && s->launches.checked.nlaunches > 0) {
        s->host->note(s->host, "racecheck: no launch ran with race checks, so nothing was "
                               "checked: no findings here does not mean the kernels are free of "
                               "races");
    }
    if (cc_launch_book_unread_note(&s->launches, "racecheck", "races", note, sizeof note)) {
        s->host->note(s->host, note);
    }
    if (cc_checked_launches_overflow_note(&s->launches.checked, "racecheck", note, sizeof note)) {
        s->host->note(s->host, note);
    }
    if (s->folds.unfolded) {
        snprintf(note, sizeof note, "racecheck: more than %d distinct races; %" PRIu64
                 " hazards were reported without folding", RC_FOLD_MAX, s->folds.unfolded);
        s->host->note(s->host, note);
    }
}
