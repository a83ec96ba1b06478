/* The agent's event pipe (see event_pipe.h). The ring is a bounded queue with a sequence number
 * per slot: a producer claims a position by advancing `tail`, writes the slot and publishes it
 * by storing position + 1 in the slot's sequence; whoever holds the sink lock (the background
 * thread, or a producer draining) takes published slots in position order, hands them to the
 * sink and frees each slot for the next lap by storing position + size. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "agent/core/event_pipe.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Whole cache lines per slot (192 bytes): a program thread writing one slot never shares a
 * line with the background thread reading the one before. */
typedef struct cc_pipe_slot {
    _Alignas(64) _Atomic uint64_t seq;
    cc_event ev;
} cc_pipe_slot;

enum { CC_PIPE_BATCH = 32 };

struct cc_pipe {
    cc_pipe_slot *slots;
    uint64_t size, mask;
    _Alignas(64) _Atomic uint64_t tail; /* next position a producer claims */
    _Alignas(64) _Atomic uint64_t head; /* next position handed on (written under sink_lock) */
    pthread_mutex_t sink_lock;
    cc_pipe_sink sink;
    void *arg;
    pthread_t thread;
    atomic_int running, stop;
    int allowed_signal; /* left unblocked in the thread (0: none) */
    pthread_mutex_t wake_lock;
    pthread_cond_t wake;
    /* Events queued: queued_before plus tail (a counter of its own, bumped by every producer,
     * sat on a cache line the background thread's wake-ups write). */
    unsigned long long queued_before;
    _Atomic unsigned long long direct, producer_drains, full_waits, handled_ns, wakeups;
};

static uint64_t cc_pipe_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void cc_pipe_reset_ring(cc_pipe *p)
{
    for (uint64_t i = 0; i < p->size; i++) {
        atomic_store_explicit(&p->slots[i].seq, i, memory_order_relaxed);
    }
    atomic_store(&p->tail, 0);
    atomic_store(&p->head, 0);
}

cc_pipe *cc_pipe_create(unsigned slots_log2, cc_pipe_sink sink, void *arg)
{
    if (slots_log2 < 4 || slots_log2 > 16 || sink == NULL) {
        return NULL;
    }
    size_t bytes = (sizeof(cc_pipe) + 63) / 64 * 64; /* the counters sit on their own lines */
    cc_pipe *p = aligned_alloc(64, bytes);
    if (p == NULL) {
        return NULL;
    }
    memset(p, 0, bytes);
    p->size = (uint64_t)1 << slots_log2;
    p->mask = p->size - 1;
    p->slots = aligned_alloc(64, p->size * sizeof *p->slots);
    if (p->slots != NULL) {
        memset(p->slots, 0, p->size * sizeof *p->slots);
    }
    if (p->slots == NULL) {
        free(p);
        return NULL;
    }
    cc_pipe_reset_ring(p);
    pthread_mutex_init(&p->sink_lock, NULL);
    pthread_mutex_init(&p->wake_lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    p->sink = sink;
    p->arg = arg;
    return p;
}

int cc_pipe_queueable(const cc_event *ev)
{
    switch ((cc_event_kind)ev->h.kind) {
    case CC_EV_LAUNCH: /* its name lives as long as the process (the pusher's promise) */
    case CC_EV_ACCESS:
    case CC_EV_MEMCPY:
    case CC_EV_MEMSET:
    case CC_EV_EVENT_RECORD:
    case CC_EV_EVENT_WAIT:
    case CC_EV_EVENT_SYNC:
    case CC_EV_EVENT_QUERY:
    case CC_EV_STREAM_SYNC:
    case CC_EV_STREAM_QUERY:
    case CC_EV_CONTEXT_SYNC:
    case CC_EV_DEVICE_SYNC:
    case CC_EV_GRAPH_LAUNCH:
    case CC_EV_LAUNCH_CHECKED:
    case CC_EV_COLLECTIVE:
    case CC_EV_SUBALLOC: /* PyTorch's tensors: one or two per tensor, as frequent as launches */
        return 1; /* no pointers */
    default:
        return 0;
    }
}

/* Hands on published slots from head up to (not including) target, in order; spins on a slot
 * a producer claimed but has not yet published, for at most spin_ns when spin_ns != 0. Sink lock
 * held. Returns the number handed on. */
static uint64_t cc_pipe_take(cc_pipe *p, uint64_t target, uint64_t spin_ns)
{
    cc_event batch[CC_PIPE_BATCH];
    uint64_t head = atomic_load_explicit(&p->head, memory_order_relaxed);
    uint64_t done = 0, wait_since = 0;
    while (head < target) {
        size_t k = 0;
        uint64_t first = head;
        while (k < CC_PIPE_BATCH && head < target) {
            cc_pipe_slot *s = &p->slots[head & p->mask];
            if (atomic_load_explicit(&s->seq, memory_order_acquire) != head + 1) {
                break; /* claimed, not yet written */
            }
            batch[k] = s->ev;
            k++;
            head++;
        }
        if (k > 0) {
            p->sink(batch, k, p->arg);
            for (uint64_t pos = first; pos < head; pos++) {
                atomic_store_explicit(&p->slots[pos & p->mask].seq, pos + p->size,
                                      memory_order_release);
            }
            atomic_store_explicit(&p->head, head, memory_order_release);
            done += k;
            wait_since = 0;
            continue;
        }
        /* The producer of this slot is between its claim and its publication. */
        if (spin_ns != 0) {
            uint64_t now = cc_pipe_now_ns();
            if (wait_since == 0) {
                wait_since = now;
            } else if (now - wait_since > spin_ns) {
                break;
            }
        }
        sched_yield();
    }
    return done;
}

static void cc_pipe_drain_locked(cc_pipe *p)
{
    cc_pipe_take(p, atomic_load_explicit(&p->tail, memory_order_acquire), 0);
}

void cc_pipe_drain(cc_pipe *p)
{
    pthread_mutex_lock(&p->sink_lock);
    cc_pipe_drain_locked(p);
    pthread_mutex_unlock(&p->sink_lock);
}

/* Hands one event on now, after everything queued before it. */
static void cc_pipe_direct(cc_pipe *p, const cc_event *ev)
{
    pthread_mutex_lock(&p->sink_lock);
    uint64_t head = atomic_load_explicit(&p->head, memory_order_relaxed);
    if (atomic_load_explicit(&p->tail, memory_order_acquire) != head) {
        atomic_fetch_add_explicit(&p->producer_drains, 1, memory_order_relaxed);
        cc_pipe_drain_locked(p);
    }
    p->sink(ev, 1, p->arg);
    pthread_mutex_unlock(&p->sink_lock);
    atomic_fetch_add_explicit(&p->direct, 1, memory_order_relaxed);
}

/* Queues evs[0..n) (1 <= n <= size / 2) in consecutive positions claimed with one
 * compare-and-swap: a launch and its access set cost one claim, not one per event. Slots are
 * freed in order, so the run's last slot free for this lap means all of them are. */
static void cc_pipe_enqueue(cc_pipe *p, const cc_event *evs, size_t n)
{
    uint64_t pos = atomic_load_explicit(&p->tail, memory_order_relaxed);
    for (;;) {
        uint64_t first = atomic_load_explicit(&p->slots[pos & p->mask].seq,
                                              memory_order_acquire);
        uint64_t last = atomic_load_explicit(&p->slots[(pos + n - 1) & p->mask].seq,
                                             memory_order_acquire);
        if (first == pos && last == pos + n - 1) {
            if (atomic_compare_exchange_weak_explicit(&p->tail, &pos, pos + n,
                                                      memory_order_relaxed,
                                                      memory_order_relaxed)) {
                break;
            }
        } else if ((int64_t)(first - pos) < 0 ||
                   (first == pos && (int64_t)(last - (pos + n - 1)) < 0)) {
            /* Full: a slot still holds the event of the previous lap. Hand on what is queued
             * here rather than wait for the thread. */
            atomic_fetch_add_explicit(&p->full_waits, 1, memory_order_relaxed);
            cc_pipe_drain(p);
            pos = atomic_load_explicit(&p->tail, memory_order_relaxed);
        } else {
            pos = atomic_load_explicit(&p->tail, memory_order_relaxed);
        }
    }
    for (size_t i = 0; i < n; i++) {
        cc_pipe_slot *s = &p->slots[(pos + i) & p->mask];
        s->ev = evs[i];
        atomic_store_explicit(&s->seq, pos + i + 1, memory_order_release);
    }
    /* Half full: wake the thread rather than let it sleep out its interval. Looked at when the
     * run crosses a multiple of 64 only: `head` is the thread's cache line. */
    if (((pos + n - 1) & ~(uint64_t)63) != ((pos - 1) & ~(uint64_t)63) &&
        pos + n - atomic_load_explicit(&p->head, memory_order_relaxed) >= p->size / 2) {
        pthread_mutex_lock(&p->wake_lock);
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->wake_lock);
    }
}

void cc_pipe_push(cc_pipe *p, const cc_event *evs, size_t n)
{
    int running = atomic_load_explicit(&p->running, memory_order_acquire);
    size_t max_run = (size_t)(p->size / 2);
    for (size_t i = 0; i < n;) {
        if (!running || !cc_pipe_queueable(&evs[i])) {
            cc_pipe_direct(p, &evs[i]);
            i++;
            continue;
        }
        size_t k = 1; /* the run of queueable events from i */
        while (i + k < n && k < max_run && cc_pipe_queueable(&evs[i + k])) {
            k++;
        }
        cc_pipe_enqueue(p, &evs[i], k);
        i += k;
    }
}

/* The next sleep of the background thread (20 us to 1 ms), from the last one and the events
 * its wake-up found (n): longer while a wake-up finds less than 1/32 of the ring, shorter while
 * it finds more than 1/8. Each timed wait costs kernel time (a timer armed, two context
 * switches; in a virtual machine, exits to the hypervisor): sleeping 20 us whenever events had
 * come woke it tens of thousands of times a second during a launch-bound PyTorch step under
 * streamcheck (H200, 2,700 launches and 11,600 events per step), for batches far smaller than
 * the ring; following the load, 24,721 times in the whole 200-step run. A ring that gets half
 * full wakes the thread at once, whatever its sleep. */
static long cc_pipe_next_sleep(const cc_pipe *p, long sleep_ns, uint64_t n)
{
    enum { CC_PIPE_SLEEP_MIN = 20000, CC_PIPE_SLEEP_MAX = 1000000 };
    if (n < p->size / 32 && sleep_ns < CC_PIPE_SLEEP_MAX) {
        sleep_ns *= 2;
    } else if (n > p->size / 8 && sleep_ns > CC_PIPE_SLEEP_MIN) {
        sleep_ns /= 2;
    }
    return sleep_ns < CC_PIPE_SLEEP_MIN   ? CC_PIPE_SLEEP_MIN
           : sleep_ns > CC_PIPE_SLEEP_MAX ? CC_PIPE_SLEEP_MAX
                                          : sleep_ns;
}

/* The background thread: hands on what is queued, then sleeps (cc_pipe_next_sleep); a
 * half-full ring and cc_pipe_stop wake it early. */
static void *cc_pipe_main(void *arg)
{
    cc_pipe *p = arg;
    long sleep_ns = 20000;
    while (!atomic_load(&p->stop)) {
        uint64_t t0 = cc_pipe_now_ns();
        pthread_mutex_lock(&p->sink_lock);
        uint64_t n = cc_pipe_take(p, atomic_load_explicit(&p->tail, memory_order_acquire), 0);
        pthread_mutex_unlock(&p->sink_lock);
        atomic_fetch_add_explicit(&p->wakeups, 1, memory_order_relaxed);
        if (n > 0) {
            atomic_fetch_add_explicit(&p->handled_ns, cc_pipe_now_ns() - t0,
                                      memory_order_relaxed);
        }
        sleep_ns = cc_pipe_next_sleep(p, sleep_ns, n);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += sleep_ns;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_mutex_lock(&p->wake_lock);
        if (!atomic_load(&p->stop)) {
            pthread_cond_timedwait(&p->wake, &p->wake_lock, &until);
        }
        pthread_mutex_unlock(&p->wake_lock);
    }
    return NULL;
}

int cc_pipe_start(cc_pipe *p)
{
    if (atomic_load(&p->running)) {
        return 0;
    }
    atomic_store(&p->stop, 0);
    sigset_t all, old;
    sigfillset(&all);
    if (p->allowed_signal != 0) {
        sigdelset(&all, p->allowed_signal);
    }
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits a blocked mask */
    int rc = pthread_create(&p->thread, NULL, cc_pipe_main, p);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        return -1;
    }
    pthread_setname_np(p->thread, "cucheck-events");
    atomic_store_explicit(&p->running, 1, memory_order_release);
    return 0;
}

void cc_pipe_allow_signal(cc_pipe *p, int sig)
{
    p->allowed_signal = sig;
}

int cc_pipe_running(const cc_pipe *p)
{
    return atomic_load(&p->running);
}

void cc_pipe_stop(cc_pipe *p)
{
    if (!atomic_exchange(&p->running, 0)) {
        cc_pipe_drain(p);
        return;
    }
    pthread_mutex_lock(&p->wake_lock);
    atomic_store(&p->stop, 1);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->wake_lock);
    pthread_join(p->thread, NULL);
    cc_pipe_drain(p);
}

int cc_pipe_drain_bounded(cc_pipe *p, unsigned max_ms, int *locked)
{
    *locked = 0;
    uint64_t limit = (uint64_t)max_ms * 1000000u, t0 = cc_pipe_now_ns();
    while (pthread_mutex_trylock(&p->sink_lock) != 0) {
        if (cc_pipe_now_ns() - t0 > limit) {
            return -1;
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    *locked = 1;
    uint64_t target = atomic_load_explicit(&p->tail, memory_order_acquire);
    uint64_t used = cc_pipe_now_ns() - t0;
    cc_pipe_take(p, target, used < limit ? limit - used : 1);
    return atomic_load(&p->head) >= target ? 0 : -1;
}

void cc_pipe_sink_locked(cc_pipe *p, const cc_event *evs, size_t n)
{
    p->sink(evs, n, p->arg);
}

void cc_pipe_unlock(cc_pipe *p)
{
    pthread_mutex_unlock(&p->sink_lock);
}

void cc_pipe_fork_prepare(cc_pipe *p)
{
    pthread_mutex_lock(&p->sink_lock);
    cc_pipe_drain_locked(p);
}

void cc_pipe_fork_parent(cc_pipe *p)
{
    pthread_mutex_unlock(&p->sink_lock);
}

void cc_pipe_fork_child(cc_pipe *p)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t fresh_cond = PTHREAD_COND_INITIALIZER;
    p->sink_lock = fresh;
    p->wake_lock = fresh;
    p->wake = fresh_cond;
    atomic_store(&p->running, 0);
    atomic_store(&p->stop, 0);
    p->queued_before += atomic_load(&p->tail);
    cc_pipe_reset_ring(p); /* slots other parent threads had claimed are theirs */
}

void cc_pipe_destroy(cc_pipe *p)
{
    if (p == NULL) {
        return;
    }
    cc_pipe_stop(p);
    pthread_mutex_destroy(&p->sink_lock);
    pthread_mutex_destroy(&p->wake_lock);
    pthread_cond_destroy(&p->wake);
    free(p->slots);
    free(p);
}

void cc_pipe_get_stats(const cc_pipe *p, cc_pipe_stats *out)
{
    out->queued = p->queued_before + atomic_load(&p->tail);
    out->direct = atomic_load(&p->direct);
    out->drains_by_producers = atomic_load(&p->producer_drains);
    out->full_waits = atomic_load(&p->full_waits);
    out->handled_ns = atomic_load(&p->handled_ns);
    out->wakeups = atomic_load(&p->wakeups);
}
