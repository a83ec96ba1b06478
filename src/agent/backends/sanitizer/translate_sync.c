/* Synchronization to events: stream/context synchronization (SYNCHRONIZE domain) and CUDA events
 * (EVENTS domain: create, destroy, record, stream wait, synchronize). */
#include "agent/core/agent.h"
#include "agent/instr/instr.h"

void cc_agent_on_synchronize(Sanitizer_CallbackId cbid, const void *data)
{
    const Sanitizer_SynchronizeData *d = data;
    cc_event ev;
    switch (cbid) {
    case SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED:
        cc_instr_on_synchronized(d->context, d->stream, 0); /* memcheck: its records, first */
        cc_agent_event_init(&ev, CC_EV_STREAM_SYNC);
        ev.u.sync.stream = cc_agent_stream_id(d->stream, d->hStream);
        break;
    case SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED:
        cc_instr_on_synchronized(d->context, NULL, 1);
        cc_agent_event_init(&ev, CC_EV_CONTEXT_SYNC);
        break;
    default:
        return;
    }
    ev.u.sync.context = cc_agent_handle_id(d->context);
    ev.u.sync.device = -1; /* not in the callback data */
    cc_agent_emit(&ev);
}

void cc_agent_on_events(Sanitizer_CallbackId cbid, const void *data)
{
    const Sanitizer_EventData *d = data;
    cc_event ev;
    int with_stream = 0;
    switch (cbid) {
    case SANITIZER_CBID_EVENTS_CREATED:
        cc_agent_event_init(&ev, CC_EV_EVENT_CREATE); /* creation flags are not reported */
        break;
    case SANITIZER_CBID_EVENTS_DESTROYED:
        cc_agent_event_init(&ev, CC_EV_EVENT_DESTROY);
        break;
    case SANITIZER_CBID_EVENTS_RECORD:
        cc_agent_event_init(&ev, CC_EV_EVENT_RECORD);
        with_stream = 1;
        break;
    case SANITIZER_CBID_EVENTS_STREAM_WAIT:
        cc_agent_event_init(&ev, CC_EV_EVENT_WAIT);
        with_stream = 1;
        break;
    case SANITIZER_CBID_EVENTS_SYNCHRONIZE:
        cc_agent_event_init(&ev, CC_EV_EVENT_SYNC);
        break;
    default:
        return;
    }
    ev.u.event.context = cc_agent_handle_id(d->context);
    ev.u.event.event = cc_agent_handle_id(d->event);
    if (with_stream) {
        ev.u.event.stream = cc_agent_stream_id(d->stream, d->hStream);
    }
    cc_agent_emit(&ev);
}
