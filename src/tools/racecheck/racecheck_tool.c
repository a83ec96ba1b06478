/* The racecheck tool: data races inside one kernel launch — shared memory between warps with no
 * barrier between them (or inside a warp with no __syncwarp), distributed shared memory of a
 * cluster, and global memory between warps or blocks that nothing orders. The device patches and
 * the agent's half of racecheck find them and send CC_EV_DEVICE_RACE events; this half turns
 * them into findings with the launch's host stack (racecheck_report.c), folds repeats per pair
 * of source locations (racecheck_fold.c) and ends with a note of what was checked
 * (racecheck_note.c). Design and limits: docs/racecheck.md. */
#include <stdio.h>
#include <stdlib.h>
#include "tools/racecheck/racecheck.h"
#include "tools/racecheck/racecheck_options.h"

static void *rc_init(cc_tool_host *host, char *err, size_t errlen)
{
    cc_racecheck_config cfg;
    if (cc_instr_config_read(&cfg, cc_tool_host_option, host, err, errlen) != 0) {
        return NULL;
    }
    rc_state *s = calloc(1, sizeof *s);
    if (s == NULL || (s->names = cc_demangle_cache_new()) == NULL) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cc_launch_book_init(&s->launches);
    rc_fold_init(&s->folds);
    s->host = host;
    s->adaptive = !cfg.full;
    return s;
}

static void rc_on_event(void *state, const cc_event *ev)
{
    rc_state *s = state;
    switch (ev->h.kind) {
    case CC_EV_LAUNCH: cc_launch_book_on_launch(&s->launches, &ev->u.launch); break;
    case CC_EV_LAUNCH_CHECKED:
        cc_launch_book_on_checked(&s->launches, &ev->u.launch_checked);
        break;
    case CC_EV_DEVICE_RACE: rc_on_race(s, &ev->u.device_race); break;
    default: break;
    }
}

static void rc_on_exit(void *state)
{
    rc_state *s = state;
    rc_write_note(s);
    cc_launch_book_free(&s->launches);
    rc_fold_free(&s->folds);
    cc_demangle_cache_free(s->names);
    free(s);
}

const cc_tool cc_tool_racecheck = {
    .name = "racecheck",
    .summary = "find data races inside a kernel launch: shared memory between warps without a "
               "barrier, global memory between threads nothing orders",
    .options = cc_racecheck_option_specs,
    .check_options = cc_instr_options_check,
    .init = rc_init,
    .on_event = rc_on_event,
    .on_exit = rc_on_exit,
};
