/* The agent's event pipe (src/agent/core/event_pipe.c) on the CPU: producers on several threads push
 * launches (with kernel names), access events and events that are handed on at once; the sink
 * checks that it never runs twice at a time, that every event arrives exactly once, that each
 * thread's events arrive in the order pushed, with their kernel names, and that an event handed
 * on at once comes after everything its thread queued before it. Rings small enough to fill, a
 * sink slow enough to fall behind, stop with work queued, a bounded drain, the fork hooks, and
 * the thread's signal mask (all blocked but the one cc_pipe_allow_signal names). */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent/core/event_pipe.h"

#define THREADS 8
#define PER_THREAD 20000

static int failures;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* Launch names live as long as the process (the pipe's contract). */
#define NAMES 97
static char kernel_names[NAMES][16];

typedef struct sink_state {
    atomic_int inside;
    uint64_t next[THREADS]; /* next sequence number expected from each thread */
    uint64_t received, direct_seen;
    int slow_ns;
    int bad;
} sink_state;

/* Events carry (thread, seq) in the header's tid and timestamp. */
static void check_sink(const cc_event *evs, size_t n, void *arg)
{
    sink_state *st = arg;
    if (atomic_fetch_add(&st->inside, 1) != 0) {
        st->bad++;
    }
    for (size_t i = 0; i < n; i++) {
        const cc_event *ev = &evs[i];
        uint32_t t = ev->h.tid;
        uint64_t seq = ev->h.timestamp;
        if (t >= THREADS || seq != st->next[t]) {
            st->bad++;
            continue;
        }
        st->next[t]++;
        st->received++;
        if (ev->h.kind == CC_EV_LAUNCH) {
            if (ev->u.launch.name != kernel_names[seq % NAMES]) {
                st->bad++;
            }
        } else if (ev->h.kind == CC_EV_ALLOC) {
            st->direct_seen++;
        }
    }
    if (st->slow_ns > 0) {
        struct timespec d = {0, st->slow_ns};
        nanosleep(&d, NULL);
    }
    atomic_fetch_sub(&st->inside, 1);
}

/* A pipe over a fresh sink_state whose sink sleeps slow_ns per batch, its thread started. */
static cc_pipe *started_pipe(sink_state *st, unsigned slots_log2, int slow_ns)
{
    memset(st, 0, sizeof *st);
    st->slow_ns = slow_ns;
    cc_pipe *p = cc_pipe_create(slots_log2, check_sink, st);
    if (p != NULL) {
        cc_pipe_start(p);
    }
    return p;
}

typedef struct producer {
    cc_pipe *pipe;
    uint32_t id;
    uint64_t count;
} producer;

static void make_event(cc_event *ev, uint32_t t, uint64_t seq)
{
    memset(ev, 0, sizeof *ev);
    ev->h.tid = t;
    ev->h.timestamp = seq;
    switch (seq % 7) {
    case 0:
    case 3:
        ev->h.kind = CC_EV_LAUNCH;
        ev->u.launch.name = kernel_names[seq % NAMES];
        break;
    case 6:
        ev->h.kind = (seq % 63 == 6) ? CC_EV_ALLOC : CC_EV_STREAM_SYNC; /* ALLOC: at once */
        break;
    default:
        ev->h.kind = CC_EV_ACCESS;
        break;
    }
}

static void *produce(void *arg)
{
    producer *pr = arg;
    cc_event evs[11];
    for (uint64_t seq = 0; seq < pr->count;) {
        /* Runs of 1 to 11 events through one cc_pipe_push, some longer than half a 16-slot ring
         * (queued in parts), some broken by events handed on at once. */
        size_t k = 1 + (size_t)(seq % 11);
        if (k > pr->count - seq) {
            k = (size_t)(pr->count - seq);
        }
        for (size_t i = 0; i < k; i++) {
            make_event(&evs[i], pr->id, seq + i);
        }
        cc_pipe_push(pr->pipe, evs, k);
        memset(evs, 0, sizeof evs); /* the pipe must have copied the events */
        seq += k;
    }
    return NULL;
}

static void run_producers(unsigned slots_log2, int slow_ns, int threaded, uint64_t per_thread)
{
    sink_state st;
    memset(&st, 0, sizeof st);
    st.slow_ns = slow_ns;
    cc_pipe *p = cc_pipe_create(slots_log2, check_sink, &st);
    CHECK(p != NULL, "create");
    if (p == NULL) {
        return;
    }
    if (threaded) {
        CHECK(cc_pipe_start(p) == 0 && cc_pipe_running(p), "start");
    }
    pthread_t th[THREADS];
    producer pr[THREADS];
    for (uint32_t t = 0; t < THREADS; t++) {
        pr[t] = (producer){p, t, per_thread};
        pthread_create(&th[t], NULL, produce, &pr[t]);
    }
    for (uint32_t t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
    }
    cc_pipe_stop(p);
    CHECK(st.received == (uint64_t)THREADS * per_thread,
          "ring 2^%u, slow %d, threaded %d: received %" PRIu64 " of %" PRIu64, slots_log2,
          slow_ns, threaded, st.received, (uint64_t)THREADS * per_thread);
    CHECK(st.bad == 0, "ring 2^%u, slow %d, threaded %d: %d events out of order, garbled or "
                       "handed on concurrently", slots_log2, slow_ns, threaded, st.bad);
    cc_pipe_stats stats;
    cc_pipe_get_stats(p, &stats);
    CHECK(stats.queued + stats.direct == (uint64_t)THREADS * per_thread, "stats add up");
    if (threaded) {
        CHECK(stats.queued > 0, "events were queued");
        CHECK(stats.direct > 0, "ALLOC and STREAM_SYNC-free kinds were handed on at once");
    } else {
        CHECK(stats.queued == 0, "without the thread nothing is queued");
    }
    if (slots_log2 == 4 && threaded) {
        CHECK(stats.full_waits > 0, "a 16-slot ring with a slow sink fills");
    }
    cc_pipe_destroy(p);
}

/* Which kinds wait in the ring. */
static void kinds(void)
{
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    static const uint32_t queued[] = {CC_EV_LAUNCH, CC_EV_ACCESS, CC_EV_MEMCPY, CC_EV_MEMSET,
                                      CC_EV_EVENT_RECORD, CC_EV_EVENT_WAIT, CC_EV_STREAM_SYNC,
                                      CC_EV_DEVICE_SYNC, CC_EV_GRAPH_LAUNCH, CC_EV_COLLECTIVE,
                                      CC_EV_SUBALLOC};
    static const uint32_t direct[] = {CC_EV_PROCESS_START, CC_EV_PROCESS_EXIT, CC_EV_MODULE_LOAD,
                                      CC_EV_MODULE_UNLOAD, CC_EV_ALLOC, CC_EV_FREE,
                                      CC_EV_HOST_STACK, CC_EV_API_ERROR, CC_EV_GRAPH_NODE,
                                      CC_EV_DEVICE_ACCESS_ERROR, CC_EV_LAUNCH_PROGRESS};
    for (size_t i = 0; i < sizeof queued / sizeof queued[0]; i++) {
        ev.h.kind = queued[i];
        CHECK(cc_pipe_queueable(&ev), "kind %u is queued", queued[i]);
    }
    for (size_t i = 0; i < sizeof direct / sizeof direct[0]; i++) {
        ev.h.kind = direct[i];
        CHECK(!cc_pipe_queueable(&ev), "kind %u is handed on at once", direct[i]);
    }
}

/* Stop with events queued and a sink that takes its time: nothing is lost. */
static void stop_with_backlog(void)
{
    sink_state st;
    cc_pipe *p = started_pipe(&st, 10, 200000);
    for (uint64_t seq = 0; seq < 500; seq++) {
        cc_event ev;
        make_event(&ev, 0, seq);
        if (ev.h.kind == CC_EV_ALLOC) {
            ev.h.kind = CC_EV_ACCESS; /* queued only */
        }
        cc_pipe_push(p, &ev, 1);
    }
    cc_pipe_stop(p);
    CHECK(st.received == 500 && st.bad == 0, "stop: %" PRIu64 " of 500 analysed, %d bad",
          st.received, st.bad);
    /* After stop every push is handed on at once. */
    cc_event ev;
    make_event(&ev, 0, 500);
    cc_pipe_push(p, &ev, 1);
    CHECK(st.received == 501, "a push after stop is handed on at once");
    cc_pipe_destroy(p);
}

/* The bounded drain gives up while another thread keeps the sink lock (here the event thread,
 * inside a sink that takes 300 ms), and keeps the lock when it gets it. */
static void bounded_drain(void)
{
    sink_state st;
    cc_pipe *p = started_pipe(&st, 6, 300000000);
    cc_event ev;
    make_event(&ev, 0, 1); /* an ACCESS: queued */
    ev.h.timestamp = 0;
    cc_pipe_push(p, &ev, 1);
    struct timespec d = {0, 100000000};
    nanosleep(&d, NULL); /* the thread has taken it by now and sleeps in the sink */
    int locked = 1;
    int rc = cc_pipe_drain_bounded(p, 20, &locked);
    CHECK(rc == -1 && !locked, "a drain bounded to 20 ms gives up while the sink runs 300 ms");
    st.slow_ns = 0;
    d.tv_nsec = 400000000;
    nanosleep(&d, NULL);
    rc = cc_pipe_drain_bounded(p, 20, &locked);
    CHECK(rc == 0 && locked, "a free sink lock is taken and kept");
    cc_event exit_ev;
    memset(&exit_ev, 0, sizeof exit_ev);
    exit_ev.h.kind = CC_EV_PROCESS_EXIT;
    exit_ev.h.timestamp = 1;
    if (locked) {
        cc_pipe_sink_locked(p, &exit_ev, 1);
        cc_pipe_unlock(p);
    }
    CHECK(st.received == 2 && st.bad == 0, "queued event, then the final one");
    cc_pipe_destroy(p);
}

/* fork: the parent keeps its thread; the child hands events on at once and its sink sees only
 * its own. */
static void fork_hooks(void)
{
    sink_state st;
    cc_pipe *p = started_pipe(&st, 8, 0);
    for (uint64_t seq = 0; seq < 100; seq++) {
        cc_event ev;
        make_event(&ev, 0, seq);
        cc_pipe_push(p, &ev, 1);
    }
    cc_pipe_fork_prepare(p);
    CHECK(st.received == 100, "fork: queued events analysed before the fork");
    pid_t pid = fork();
    if (pid == 0) {
        cc_pipe_fork_child(p);
        int ok = !cc_pipe_running(p);
        cc_event ev;
        make_event(&ev, 0, 100);
        cc_pipe_push(p, &ev, 1);
        ok = ok && st.received == 101;
        _exit(ok ? 0 : 1);
    }
    cc_pipe_fork_parent(p);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "fork child: synchronous, its event analysed at once");
    CHECK(cc_pipe_running(p), "fork parent keeps its thread");
    cc_event ev;
    make_event(&ev, 0, 100);
    cc_pipe_push(p, &ev, 1);
    cc_pipe_stop(p);
    CHECK(st.received == 101 && st.bad == 0, "parent: 101 events in order");
    cc_pipe_destroy(p);
}

/* The background thread's signal mask, seen from the sink (which runs on it): every signal
 * blocked, but the one cc_pipe_allow_signal named. */
static int mask_usr1_blocked = -1, mask_usr2_blocked = -1;

static void mask_sink(const cc_event *evs, size_t n, void *arg)
{
    (void)evs, (void)n, (void)arg;
    sigset_t cur;
    if (pthread_sigmask(SIG_BLOCK, NULL, &cur) == 0) {
        mask_usr1_blocked = sigismember(&cur, SIGUSR1);
        mask_usr2_blocked = sigismember(&cur, SIGUSR2);
    }
}

static void thread_mask(int allow)
{
    mask_usr1_blocked = mask_usr2_blocked = -1;
    cc_pipe *p = cc_pipe_create(4, mask_sink, NULL);
    CHECK(p != NULL, "create");
    if (p == NULL) {
        return;
    }
    if (allow) {
        cc_pipe_allow_signal(p, SIGUSR1);
    }
    CHECK(cc_pipe_start(p) == 0, "start");
    cc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.h.kind = CC_EV_ACCESS; /* queued: the thread hands it on */
    cc_pipe_push(p, &ev, 1);
    for (int i = 0; i < 2000 && mask_usr1_blocked < 0; i++) {
        usleep(1000);
    }
    CHECK(mask_usr1_blocked == (allow ? 0 : 1), "SIGUSR1 %s in the thread (allow %d): %d",
          allow ? "unblocked" : "blocked", allow, mask_usr1_blocked);
    CHECK(mask_usr2_blocked == 1, "SIGUSR2 blocked in the thread (allow %d): %d", allow,
          mask_usr2_blocked);
    cc_pipe_destroy(p);
}

int main(void)
{
    for (int i = 0; i < NAMES; i++) {
        snprintf(kernel_names[i], sizeof kernel_names[i], "kernel_%d", i);
    }
    run_producers(12, 0, 1, PER_THREAD); /* the agent's size */
    run_producers(4, 2000, 1, 2000);     /* a full ring, drained by the producers */
    run_producers(8, 0, 0, 5000);        /* no thread */
    kinds();
    stop_with_backlog();
    bounded_drain();
    fork_hooks();
    thread_mask(0);
    thread_mask(1);
    if (failures != 0) {
        fprintf(stderr, "event_pipe_test: %d failure(s)\n", failures);
        return 1;
    }
    printf("event_pipe_test: ok\n");
    return 0;
}
