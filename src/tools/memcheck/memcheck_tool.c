/* The memcheck tool: invalid device memory accesses (reported by the agent's device patches as
 * CC_EV_DEVICE_ACCESS_ERROR events and explained here against the allocation map and the
 * modules' variables), invalid and double frees, copies and memsets out of range, and leaks
 * (--leak-check full). The agent's instrumentation manager (src/agent/instr_*.c) reads the same
 * options to decide which launches run with device checks. A call that failed with a sticky
 * error is no finding of its own: the asynchronous error is attributed to its launch as `run`
 * does (tools/async_error/). Ends with a note of what was checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/memcheck/memcheck.h"
#include "tools/memcheck/memcheck_options.h"

static const char *host_option(void *ctx, const char *name)
{
    cc_tool_host *host = ctx;
    return host->option(host, name);
}

static void *mc_init(cc_tool_host *host, char *err, size_t errlen)
{
    cc_memcheck_config cfg;
    if (cc_memcheck_config_read(&cfg, host_option, host, err, errlen) != 0) {
        return NULL;
    }
    mc_state *s = calloc(1, sizeof *s);
    if (s == NULL || (s->allocs = cc_allocmap_new()) == NULL ||
        (s->vars = cc_modvar_map_new()) == NULL ||
        (s->async_errors = cc_async_errors_new(host, "memcheck")) == NULL) {
        if (s != NULL) {
            cc_allocmap_free(s->allocs);
            cc_modvar_map_free(s->vars);
        }
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cc_checked_launches_init(&s->checked);
    s->host = host;
    s->leak_check = cfg.leak_check;
    s->adaptive = !cfg.full;
    return s;
}

static void mc_on_event(void *state, const cc_event *ev)
{
    mc_state *s = state;
    cc_async_verdict sticky = cc_async_errors_event(s->async_errors, ev);
    switch (ev->h.kind) {
    case CC_EV_ALLOC: mc_on_alloc(s, &ev->u.alloc); break;
    case CC_EV_FREE: mc_on_free(s, &ev->u.free); break;
    case CC_EV_MEMCPY: mc_on_memcpy(s, &ev->u.memcpy); break;
    case CC_EV_MEMSET: mc_on_memset(s, &ev->u.memset); break;
    case CC_EV_LAUNCH:
        mc_on_launch(s, &ev->u.launch);
        mc_suballoc_launched(s, ev->u.launch.launch_id);
        break;
    case CC_EV_SUBALLOC: mc_on_suballoc(s, &ev->u.suballoc); break;
    case CC_EV_API_ERROR:
        /* A sticky error failed the call, not its arguments: reported as async-error. */
        if (sticky == CC_ASYNC_NOT_STICKY) {
            mc_on_api_error(s, &ev->u.api_error);
        }
        break;
    case CC_EV_LAUNCH_CHECKED: mc_unread_checked(s, &ev->u.launch_checked); break;
    case CC_EV_CONTEXT_CREATE: mc_on_context_create(s, ev->u.context.context); break;
    case CC_EV_CONTEXT_DESTROY:
        mc_on_context_destroy(s, ev->u.context.context);
        mc_vars_drop_context(s, ev->u.context.context);
        break;
    case CC_EV_MODULE_VAR: mc_on_module_var(s, &ev->u.module_var); break;
    case CC_EV_MODULE_UNLOAD: mc_on_module_unload(s, ev->u.module.module); break;
    case CC_EV_DEVICE_ACCESS_ERROR: mc_on_device_error(s, &ev->u.device_access_error); break;
    case CC_EV_PROCESS_EXIT:
        /* Leaks only on an orderly exit: a crash leaves everything allocated. */
        if (ev->u.process_exit.reason == CC_EXIT_NORMAL) {
            mc_report_leaks(s, 0, 1);
        }
        s->exited = 1;
        break;
    default: break;
    }
}

static void mc_on_exit(void *state)
{
    mc_state *s = state;
    mc_write_note(s);
    mc_unread_note(s);
    cc_async_errors_note(s->async_errors, 1);
    mc_unread_free(s);
    mc_suballoc_free(s);
    cc_async_errors_free(s->async_errors);
    cc_checked_launches_free(&s->checked);
    cc_allocmap_free(s->allocs);
    cc_modvar_map_free(s->vars);
    free(s);
}

const cc_tool cc_tool_memcheck = {
    .name = "memcheck",
    .summary = "check device memory accesses (out of bounds, misaligned, use after free), frees, "
               "copies and memsets, and leaks",
    .options = cc_memcheck_option_specs,
    .check_options = cc_memcheck_options_check,
    .init = mc_init,
    .on_event = mc_on_event,
    .on_exit = mc_on_exit,
};
