/* initcheck's launches: the recent ones by id (callsite and stream, for the findings the agent
 * sends after a checked launch), the checked-launches counters (tools/checked_launches.h) and
 * the closing note: "initcheck (adaptive mode): kernels checked 3/4, launches instrumented
 * 6/1,200; ...", which says how many launches ran unchecked and were taken as writing every
 * allocation of their context (reads they made of uninitialised memory are missed). */
#include <inttypes.h>
#include <stdio.h>
#include "tools/initcheck/initcheck.h"

void ic_on_launch(ic_state *s, const cc_ev_launch *l)
{
    ic_launch *slot = &s->launches[l->launch_id % IC_LAUNCH_RING];
    slot->launch_id = l->launch_id;
    slot->callsite = l->callsite;
    slot->stream = l->stream;
    int instrumented = (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) != 0;
    if (!instrumented) {
        s->unchecked++;
    }
    cc_checked_launches_add(&s->checked, l->name, instrumented);
}

const ic_launch *ic_find_launch(const ic_state *s, uint64_t launch_id)
{
    const ic_launch *slot = &s->launches[launch_id % IC_LAUNCH_RING];
    return launch_id != 0 && slot->launch_id == launch_id ? slot : NULL;
}

void ic_write_note(ic_state *s)
{
    char checked[160], note[640];
    cc_checked_launches_summary(&s->checked, checked, sizeof checked);
    snprintf(note, sizeof note, "initcheck (%s mode): %s; %" PRIu64 " copies checked; %" PRIu64
             " uninitialized read(s) reported in %" PRIu64 " event(s)",
             s->adaptive ? "adaptive" : "full", checked, s->copies_checked, s->reads,
             s->read_events);
    s->host->note(s->host, note);
    if (s->unchecked > 0) {
        snprintf(note, sizeof note, "initcheck: %" PRIu64 " launch(es) ran unchecked and were "
                 "taken as writing every device allocation of their context (kernel arguments "
                 "are not read yet): reads they made of uninitialized memory are not reported, "
                 "and what they left unwritten counts as written", s->unchecked);
        s->host->note(s->host, note);
    }
    if (s->checked.ninstrumented == 0 && s->checked.nlaunches > 0) {
        s->host->note(s->host, "initcheck: no launch ran with device checks: only copies to the "
                               "host were checked for uninitialized bytes");
    }
    if (s->writes_assumed > 0) {
        snprintf(note, sizeof note, "initcheck: %" PRIu64 " range(s) of uninitialized memory "
                 "lay past a checked launch's write bitmap and were taken as written",
                 s->writes_assumed);
        s->host->note(s->host, note);
    }
    if (s->model.oom > 0) {
        s->host->note(s->host, "initcheck: memory ran short for the model of initialized bytes; "
                               "some bytes were taken as initialized");
    }
    if (cc_checked_launches_overflow_note(&s->checked, "initcheck", note, sizeof note)) {
        s->host->note(s->host, note);
    }
}
