/* The initcheck tool: reads of device memory that nothing wrote since it was allocated (or,
 * for a PyTorch tensor, since the caching allocator handed its block over). The host model
 * (init_model.h) follows allocations, memsets, copies and launches; a copy to the host of
 * uninitialised bytes is reported at the copy (initcheck_host.c); a kernel's read of them is
 * found by the device patches and the agent's half of initcheck, which send
 * CC_EV_DEVICE_UNINIT_READ (initcheck_device.c) and the bytes the launch wrote as
 * CC_EV_INIT_WRITE. --track-unused-memory reports bytes never written when their allocation
 * goes. Design and limits: docs/initcheck.md. */
#include <stdio.h>
#include <stdlib.h>
#include "tools/initcheck/initcheck.h"
#include "tools/initcheck/initcheck_options.h"

static void *ic_init(cc_tool_host *host, char *err, size_t errlen)
{
    cc_initcheck_config cfg;
    if (cc_initcheck_config_read(&cfg, cc_tool_host_option, host, err, errlen) != 0) {
        return NULL;
    }
    ic_state *s = calloc(1, sizeof *s);
    if (s == NULL || (s->names = cc_demangle_cache_new()) == NULL) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cc_checked_launches_init(&s->checked);
    s->host = host;
    s->adaptive = !cfg.instr.full;
    s->track_unused = cfg.track_unused;
    s->model.track_used = cfg.track_unused;
    s->model.gone = ic_alloc_gone;
    s->model.gone_arg = s;
    return s;
}

static void ic_on_event(void *state, const cc_event *ev)
{
    ic_state *s = state;
    switch (ev->h.kind) {
    case CC_EV_LAUNCH: ic_on_launch(s, &ev->u.launch); break;
    case CC_EV_MEMCPY: ic_on_memcpy(s, &ev->u.memcpy); break;
    case CC_EV_SUBALLOC: ic_on_suballoc(s, &ev->u.suballoc); break;
    case CC_EV_DEVICE_UNINIT_READ: ic_on_uninit_read(s, &ev->u.device_uninit_read); break;
    case CC_EV_INIT_WRITE:
        if (ev->u.init_write.flags & CC_INIT_WRITE_ASSUMED) {
            s->writes_assumed++;
        }
        break;
    default: break;
    }
    /* After the checks above (a copy is judged by the state before it). */
    cc_init_model_apply(&s->model, ev);
}

static void ic_on_exit(void *state)
{
    ic_state *s = state;
    cc_init_model_free(&s->model); /* --track-unused-memory: what is still allocated */
    ic_write_note(s);
    ic_regions_free(s);
    cc_demangle_cache_free(s->names);
    cc_checked_launches_free(&s->checked);
    free(s);
}

const cc_tool cc_tool_initcheck = {
    .name = "initcheck",
    .summary = "find reads of uninitialized device memory: kernels reading bytes nothing wrote, "
               "copies of them to the host, PyTorch tensors read before written; unused "
               "allocations with --track-unused-memory",
    .options = cc_initcheck_option_specs,
    .check_options = cc_initcheck_options_check,
    .init = ic_init,
    .on_event = ic_on_event,
    .on_exit = ic_on_exit,
};
