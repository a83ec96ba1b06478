/* The synccheck tool: synchronization primitives misused inside one kernel launch — a
 * __syncthreads() reached by part of a warp or of a block (warps at different barriers), or
 * after threads of the block exited; a __syncwarp(mask) or a shuffle whose mask names threads
 * that do not take part. The device patches and the agent's half of synccheck find them and send
 * CC_EV_DEVICE_SYNC_ERROR events; this half turns them into findings with the launch's host
 * stack (synccheck_report.c), folds repeats per source location (synccheck_fold.c) and ends with
 * a note of what was checked (synccheck_note.c). Design and limits: docs/synccheck.md. */
#include <stdio.h>
#include <stdlib.h>
#include "tools/synccheck/synccheck.h"
#include "tools/synccheck/synccheck_options.h"

static void *sy_init(cc_tool_host *host, char *err, size_t errlen)
{
    cc_synccheck_config cfg;
    if (cc_instr_config_read(&cfg, cc_tool_host_option, host, err, errlen) != 0) {
        return NULL;
    }
    sy_state *s = calloc(1, sizeof *s);
    if (s == NULL || (s->names = cc_demangle_cache_new()) == NULL) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cc_launch_book_init(&s->launches);
    sy_fold_init(&s->folds);
    s->host = host;
    s->adaptive = !cfg.full;
    return s;
}

static void sy_on_event(void *state, const cc_event *ev)
{
    sy_state *s = state;
    switch (ev->h.kind) {
    case CC_EV_LAUNCH: cc_launch_book_on_launch(&s->launches, &ev->u.launch); break;
    case CC_EV_LAUNCH_CHECKED:
        cc_launch_book_on_checked(&s->launches, &ev->u.launch_checked);
        break;
    case CC_EV_DEVICE_SYNC_ERROR: sy_on_sync_error(s, &ev->u.device_sync_error); break;
    default: break;
    }
}

static void sy_on_exit(void *state)
{
    sy_state *s = state;
    sy_write_note(s);
    cc_launch_book_free(&s->launches);
    sy_fold_free(&s->folds);
    cc_demangle_cache_free(s->names);
    free(s);
}

const cc_tool cc_tool_synccheck = {
    .name = "synccheck",
    .summary = "find misused synchronization inside a kernel launch: __syncthreads() reached by "
               "part of a block or after threads exited, __syncwarp and shuffle masks naming "
               "threads that do not take part",
    .options = cc_synccheck_option_specs,
    .check_options = cc_instr_options_check,
    .init = sy_init,
    .on_event = sy_on_event,
    .on_exit = sy_on_exit,
};
