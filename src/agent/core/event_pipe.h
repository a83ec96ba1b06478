/* The agent's event pipe: takes the tool's analysis off the program's threads. Events the
 * callbacks translate are copied into a bounded ring (many producers) and handed, in the order
 * they entered it, to a sink (the session and the recorder) by one background thread. Events that
 * carry pointers whose target may not outlive the push, and rare ones (allocations, modules, errors, stacks,
 * process start and exit), are not queued: the producer drains the ring itself, under the same
 * lock as the background thread, then hands its event on, so the sink always sees one order and
 * pointers stay valid while it looks at them. A full ring is drained by the producer as well.
 * Without a background thread (not started, stopped, or in a fork child) every push is handed on
 * at once. No CUDA dependency; tested on the CPU (tests/agent/event_pipe_test.c). */
#ifndef CUCHECK_AGENT_EVENT_PIPE_H
#define CUCHECK_AGENT_EVENT_PIPE_H

#include <stddef.h>
#include "cucheck/event.h"

/* Receives events in order, never concurrently with itself. */
typedef void (*cc_pipe_sink)(const cc_event *evs, size_t n, void *arg);

typedef struct cc_pipe cc_pipe;

/* A pipe of 2^slots_log2 slots (4..16) feeding sink; NULL without memory. */
cc_pipe *cc_pipe_create(unsigned slots_log2, cc_pipe_sink sink, void *arg);
/* Stops the thread, hands on what is left and frees the pipe. */
void cc_pipe_destroy(cc_pipe *p);

/* Starts the background thread (signals blocked in it). 0 on success; -1 and the pipe stays
 * synchronous otherwise. */
int cc_pipe_start(cc_pipe *p);
/* Before cc_pipe_start: sig stays unblocked in the thread (the agent's sampling profile, whose
 * handler only counts, so that the thread's own time is sampled where it is spent). */
void cc_pipe_allow_signal(cc_pipe *p, int sig);
/* Hands on what is queued and joins the thread; later pushes are handed on at once. */
void cc_pipe_stop(cc_pipe *p);
int cc_pipe_running(const cc_pipe *p);

/* Queues evs (or hands them on: see above). Thread-safe. */
void cc_pipe_push(cc_pipe *p, const cc_event *evs, size_t n);
/* Hands on everything queued before the call, on the calling thread. */
void cc_pipe_drain(cc_pipe *p);
/* The same for paths that must not wait long (fatal signals, _exit): gives up after about
 * max_ms milliseconds if the sink lock stays taken. 0 if drained, -1 if not; with *locked set,
 * the sink lock is kept (release it with cc_pipe_unlock) so that one more event can be handed
 * on in order with cc_pipe_sink_locked. */
int cc_pipe_drain_bounded(cc_pipe *p, unsigned max_ms, int *locked);
void cc_pipe_sink_locked(cc_pipe *p, const cc_event *evs, size_t n);
void cc_pipe_unlock(cc_pipe *p);

/* fork: prepare drains and holds the pipe's locks across the fork; parent releases them; child
 * drops the parent's queue, renews the locks and stays synchronous (its thread did not fork). */
void cc_pipe_fork_prepare(cc_pipe *p);
void cc_pipe_fork_parent(cc_pipe *p);
void cc_pipe_fork_child(cc_pipe *p);

/* 1 if ev may wait in the ring: its kind is frequent and carries no pointer, except a launch's
 * kernel name, which the pusher must keep alive for the life of the process (the agent interns
 * names: kernel_names.c). */
int cc_pipe_queueable(const cc_event *ev);

/* Counters for the agent's self-time report. */
typedef struct cc_pipe_stats {
    unsigned long long queued, direct, drains_by_producers, full_waits;
    unsigned long long handled_ns; /* sink time on the background thread */
    unsigned long long wakeups;    /* the background thread's */
} cc_pipe_stats;
void cc_pipe_get_stats(const cc_pipe *p, cc_pipe_stats *out);

#endif
