/* The Compute Sanitizer subscription: subscribing (only one tools-API client per process may),
 * enabling the callback domains cucheck translates, and dispatching each callback to the
 * translator of its domain. Callbacks that arrive while this thread is already inside one of
 * ours (caused by the agent's own Sanitizer calls) are ignored. */
#include <stdio.h>
#include "agent.h"

static _Thread_local int cc_in_callback;

static void cc_agent_callback(void *userdata, Sanitizer_CallbackDomain domain,
                              Sanitizer_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (cc_in_callback || data == NULL) {
        return;
    }
    cc_in_callback = 1;
    switch (domain) {
    case SANITIZER_CB_DOMAIN_DRIVER_API:
    case SANITIZER_CB_DOMAIN_RUNTIME_API:
        cc_agent_on_api(domain, cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_RESOURCE:
        cc_agent_on_resource(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_SYNCHRONIZE:
        cc_agent_on_synchronize(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_LAUNCH:
        cc_agent_on_launch(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_MEMCPY:
        cc_agent_on_memcpy(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_MEMSET:
        cc_agent_on_memset(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_GRAPHS:
        cc_agent_on_graphs(cbid, data);
        break;
    case SANITIZER_CB_DOMAIN_EVENTS:
        cc_agent_on_events(cbid, data);
        break;
    default:
        break;
    }
    cc_in_callback = 0;
}

int cc_agent_subscribe(void)
{
    cc_agent *a = &cc_agent_g;
    SanitizerResult r = sanitizerSubscribe(&a->subscriber, cc_agent_callback, NULL);
    if (r == SANITIZER_SUCCESS) {
        a->subscribed = 1;
        return 0;
    }
    if (r == SANITIZER_ERROR_MAX_LIMIT_REACHED) {
        fprintf(stderr, "cucheck: cannot attach: another CUDA tools-API client (compute-sanitizer, "
                        "Nsight, a profiler) is active; the program runs unchecked\n");
    } else {
        const char *why = NULL;
        if (sanitizerGetResultString(r, &why) != SANITIZER_SUCCESS || why == NULL) {
            why = "unknown error";
        }
        fprintf(stderr, "cucheck: cannot attach: sanitizerSubscribe failed (%d: %s); the program "
                        "runs unchecked\n", (int)r, why);
    }
    return -1;
}

void cc_agent_enable_callbacks(void)
{
    cc_agent *a = &cc_agent_g;
    static const Sanitizer_CallbackDomain domains[] = {
        SANITIZER_CB_DOMAIN_RESOURCE, SANITIZER_CB_DOMAIN_SYNCHRONIZE, SANITIZER_CB_DOMAIN_MEMCPY,
        SANITIZER_CB_DOMAIN_MEMSET,   SANITIZER_CB_DOMAIN_GRAPHS,      SANITIZER_CB_DOMAIN_EVENTS,
        SANITIZER_CB_DOMAIN_RUNTIME_API, SANITIZER_CB_DOMAIN_DRIVER_API,
    };
    for (size_t i = 0; i < sizeof domains / sizeof domains[0]; i++) {
        SanitizerResult r = sanitizerEnableDomain(1, a->subscriber, domains[i]);
        if (r != SANITIZER_SUCCESS) {
            cc_agent_note("cannot enable callback domain %d (error %d)", (int)domains[i], (int)r);
        }
    }
    /* Of the launch domain only the begin callback is used for now. */
    SanitizerResult r = sanitizerEnableCallback(1, a->subscriber, SANITIZER_CB_DOMAIN_LAUNCH,
                                                SANITIZER_CBID_LAUNCH_BEGIN);
    if (r != SANITIZER_SUCCESS) {
        cc_agent_note("cannot enable launch callbacks (error %d)", (int)r);
    }
}
