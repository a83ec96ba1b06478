/* Delivering events: every translated callback goes through cc_agent_emit, which stamps nothing
 * itself (cc_agent_event_init did) and hands the event to the session (the tool) and, when
 * recording, to the .cuevt writer; cc_agent_emit_many hands several at once (a launch's access
 * set). With the event thread (event_pipe.h; CUCHECK_EVENT_THREAD, on by default for
 * streamcheck and memcheck when the process may use two CPUs or more) frequent events are
 * queued and the tool analyses them off the program's threads; the rest are handed on at once,
 * in order. In a fork child the outputs are opened on the first event, and events are handed
 * on at once. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <stdlib.h>
#include "agent/core/agent.h"
#include "agent/core/event_pipe.h"
#include "agent/core/self_time.h"
#include "agent/core/agent_knobs.h"
#include "agent/core/agent_plugin.h"
#include "agent/core/self_profile.h"
#include <signal.h>

static cc_pipe *cc_pipe_g; /* NULL: every event is handed on at once */

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
    if (cc_agent_plugin_g->on_event != NULL) {
        for (size_t i = 0; i < n; i++) {
            cc_agent_plugin_g->on_event(&evs[i]);
        }
    }
    if (cc_pipe_g != NULL) {
        cc_pipe_push(cc_pipe_g, evs, n);
    } else {
        cc_agent_hand_on(evs, n, NULL);
    }
    if (t0 != 0) {
        cc_self_time_add(CC_SELF_EMIT, t0);
    }
}

void cc_agent_hand_on(const cc_event *evs, size_t n, void *arg)
{
    (void)arg;
    cc_agent *a = &cc_agent_g;
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
}

/* The default: on for the tools whose plug-in asks (streamcheck, whose happens-before analysis
 * costs more per event, 692 ns on a PyTorch step, than queuing it, 257 ns; memcheck, 690-910 ns
 * against 157 ns on PyTorch's tensor-block events), where the process may use two CPUs or more;
 * off for the other tools (run: 431 ns inline, 214 ns queued on PyTorch's launches, but the step
 * time did not follow: docs/agent.md) and where the thread would only take turns with the program. */
static int cc_event_thread_default(void)
{
    cpu_set_t set;
    return cc_agent_plugin_g->event_thread &&
           sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 2;
}

void cc_agent_events_start(void)
{
    if (!cc_agent_switch(cc_knob_name(CC_KNOB_EVENT_THREAD), "event-thread", cc_event_thread_default())) {
        return;
    }
    cc_pipe *p = cc_pipe_create(12, cc_agent_hand_on, NULL);
    if (p != NULL && cc_self_profile_on()) {
        cc_pipe_allow_signal(p, SIGPROF); /* else its samples land on other threads */
    }
    if (p == NULL || cc_pipe_start(p) != 0) {
        cc_agent_note("no event thread (out of memory or threads): events are analysed on the "
                      "program's threads");
        cc_pipe_destroy(p);
        return;
    }
    cc_pipe_g = p;
}

void cc_agent_events_stop(void)
{
    if (cc_pipe_g != NULL) {
        cc_pipe_stop(cc_pipe_g);
    }
}

void cc_agent_events_drain(void)
{
    if (cc_pipe_g != NULL) {
        cc_pipe_drain(cc_pipe_g);
    }
}

void cc_agent_events_fork_prepare(void)
{
    if (cc_pipe_g != NULL) {
        cc_pipe_fork_prepare(cc_pipe_g);
    }
}

void cc_agent_events_fork_parent(void)
{
    if (cc_pipe_g != NULL) {
        cc_pipe_fork_parent(cc_pipe_g);
    }
}

void cc_agent_events_fork_child(void)
{
    if (cc_pipe_g != NULL) {
        cc_pipe_fork_child(cc_pipe_g);
    }
}

void cc_agent_events_report(void)
{
    if (cc_pipe_g == NULL) {
        return;
    }
    cc_pipe_stats st;
    cc_pipe_get_stats(cc_pipe_g, &st);
    fprintf(stderr, "cucheck:   event thread: %llu event(s) queued, analysed in %.3f ms off the "
                    "program's threads in %llu wake-ups; %llu handed on at once, %llu time(s) a "
                    "program thread drained the queue first, %llu time(s) the queue was full\n",
            st.queued, (double)st.handled_ns / 1e6, st.wakeups, st.direct,
            st.drains_by_producers, st.full_waits);
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

void cc_agent_emit_final(const cc_event *ev)
{
    cc_agent *a = &cc_agent_g;
    int locked = 0;
    if (cc_pipe_g != NULL && !atomic_load(&a->finished)) {
        /* Queued events first, unless their thread is stuck (it may be the one that faulted). */
        cc_pipe_drain_bounded(cc_pipe_g, 200, &locked);
    }
    if (ev != NULL && !atomic_load(&a->finished) && pthread_rwlock_tryrdlock(&a->lock) == 0) {
        if (a->session != NULL) {
            cc_session_event(a->session, ev);
        }
        if (a->recorder != NULL) {
            cc_evt_write(a->recorder, ev);
        }
        pthread_rwlock_unlock(&a->lock);
    }
    if (ev != NULL && ev->h.kind == CC_EV_PROCESS_EXIT) {
        atomic_store(&a->finished, 1);
    }
    cc_agent_flush_outputs_unlocked();
    if (locked) {
        cc_pipe_unlock(cc_pipe_g);
    }
}

void cc_agent_report_note(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_rwlock_rdlock(&cc_agent_g.lock);
    if (cc_agent_g.session != NULL) {
        cc_reporter_note(cc_session_reporter(cc_agent_g.session), line);
    }
    pthread_rwlock_unlock(&cc_agent_g.lock);
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
