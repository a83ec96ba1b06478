/* synccheck's closing note: what was checked, "synccheck (adaptive mode): kernels checked 3/4,
 * launches instrumented 6/1,200; ..." from its launch book (tools/launch_book.h), saying plainly
 * when nothing ran with synchronization checks, and what may be missing (results not read,
 * kernels not counted, misuses not folded). */
#include <inttypes.h>
#include <stdio.h>
#include "tools/synccheck/synccheck.h"

void sy_write_note(sy_state *s)
{
    char checked[160], note[512];
    cc_checked_launches_summary(&s->launches.checked, checked, sizeof checked);
    snprintf(note, sizeof note, "synccheck (%s mode): %s; %" PRIu64 " misuse(s) reported in "
             "%" PRIu64 " event(s)", s->adaptive ? "adaptive" : "full", checked, s->occurrences,
             s->sync_events);
    s->host->note(s->host, note);
    if (s->launches.checked.ninstrumented == 0 && s->launches.checked.nlaunches > 0) {
        s->host->note(s->host, "synccheck: no launch ran with synchronization checks, so nothing "
                               "was checked: no findings here does not mean the kernels use "
                               "barriers correctly");
    }
    if (cc_launch_book_unread_note(&s->launches, "synccheck", "misuses", note, sizeof note)) {
        s->host->note(s->host, note);
    }
    if (cc_checked_launches_overflow_note(&s->launches.checked, "synccheck", note, sizeof note)) {
        s->host->note(s->host, note);
    }
    if (s->folds.unfolded) {
        snprintf(note, sizeof note, "synccheck: more than %d distinct misuses; %" PRIu64
                 " occurrences were reported without folding", SY_FOLD_MAX, s->folds.unfolded);
        s->host->note(s->host, note);
    }
}
