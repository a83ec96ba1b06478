/* Delivering events: every translated callback goes through cc_agent_emit, which stamps nothing
 * itself (cc_agent_event_init did) and hands the event to the session (the tool) and, when
 * recording, to the .cuevt writer; cc_agent_emit_many hands several under one lock (a launch's
 * access set). In a fork child the outputs are opened on the first event. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "agent.h"
#include "self_time.h"

uint64_t cc_agent_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static _Thread_local pid_t cc_tid_cache_pid;
static _Thread_local uint32_t cc_tid_cache;

uint32_t cc_agent_tid(void)
{
    /* The cache is per thread; after fork the child's only thread gets a new id, so the cache
     * is keyed by the process id too. */
    pid_t pid = cc_agent_g.pid;
    if (cc_tid_cache == 0 || cc_tid_cache_pid != pid) {
        cc_tid_cache = (uint32_t)gettid();
        cc_tid_cache_pid = pid;
    }
    return cc_tid_cache;
}

void cc_agent_event_init(cc_event *ev, cc_event_kind kind)
{
    memset(ev, 0, sizeof *ev);
    ev->h.kind = (uint32_t)kind;
    ev->h.tid = cc_agent_tid();
    ev->h.timestamp = cc_agent_now_ns();
}

void cc_agent_emit(const cc_event *ev)
{
    cc_agent_emit_many(ev, 1);
}

void cc_agent_emit_many(const cc_event *evs, size_t n)
{
    cc_agent *a = &cc_agent_g;
    if (atomic_load(&a->reopen_pending)) {
        /* Fork child: first event since fork opens this process's own outputs. */
        if (atomic_exchange(&a->reopen_pending, 0)) {
            if (cc_agent_open_outputs() != 0) {
                return;
            }
        }
    }
    if (atomic_load(&a->finished)) {
        return;
    }
    uint64_t t0 = cc_self_time_on ? cc_self_time_now() : 0;
    pthread_rwlock_rdlock(&a->lock);
    if (a->session != NULL) {
        cc_session_events(a->session, evs, n);
    }
    if (a->recorder != NULL) {
        for (size_t i = 0; i < n; i++) {
            cc_evt_write(a->recorder, &evs[i]);
        }
    }
    pthread_rwlock_unlock(&a->lock);
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_EMIT, t0);
    }
}

void cc_agent_emit_accesses(uint64_t launch_id, uint32_t source, const cc_al_access *acc,
                            size_t n)
{
    enum { CC_CHUNK = 32 };
    if (n == 0) {
        return;
    }
    cc_event evs[CC_CHUNK];
    cc_event first;
    cc_agent_event_init(&first, CC_EV_ACCESS); /* one stamp for the launch's whole set */
    for (size_t done = 0; done < n;) {
        size_t k = n - done < CC_CHUNK ? n - done : CC_CHUNK;
        for (size_t i = 0; i < k; i++) {
            cc_event *ev = &evs[i];
            *ev = first;
            ev->u.access.launch_id = launch_id;
            ev->u.access.address = acc[done + i].address;
            ev->u.access.size = acc[done + i].size;
            ev->u.access.flags = acc[done + i].flags;
            ev->u.access.source = source;
        }
        cc_agent_emit_many(evs, k);
        done += k;
    }
}

void cc_agent_emit_from_signal(const cc_event *ev)
{
    cc_agent *a = &cc_agent_g;
    if (atomic_load(&a->finished) || pthread_rwlock_tryrdlock(&a->lock) != 0) {
        return;
    }
    if (a->session != NULL) {
        cc_session_event(a->session, ev);
    }
    if (a->recorder != NULL) {
        cc_evt_write(a->recorder, ev);
    }
    pthread_rwlock_unlock(&a->lock);
}

void cc_agent_note(const char *fmt, ...)
{
    if (!cc_agent_g.verbose) {
        return;
    }
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "cucheck: %s\n", line);
}
