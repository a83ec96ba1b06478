/* The fatal writer (fatal_writer.h): one thread per process, asleep on a futex until a fatal
 * signal or _exit() asks it for the last words. The asking handler waits on the same futex,
 * reading the writer's CPU clock between wake-ups, and abandons the writer once it stops making
 * progress. Everything the asking side does is async-signal-safe: atomics, futex, clock_gettime,
 * gettid, getpid and the caller's in_handler hook. */
#include "agent/entry/fatal_writer.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum {
    CC_FW_NONE = 0, /* no writer in this process */
    CC_FW_IDLE,     /* asleep, nothing asked */
    CC_FW_FILLING,  /* one asker is writing the request */
    CC_FW_ASKED,    /* the request is complete */
    CC_FW_BUSY,     /* the writer is saying the last words */
    CC_FW_DONE,     /* said; IDLE again when a program handler may recover, else for good */
    CC_FW_GONE,     /* abandoned: never asked again */
};

static struct {
    _Atomic int state;          /* CC_FW_*; also the futex word both sides wait on */
    _Atomic long tid;           /* the writer's thread id once it runs */
    pid_t pid;                  /* the process the writer belongs to */
    clockid_t cpu_clock;        /* the writer's CPU-time clock */
    int has_cpu_clock;
    cc_fatal_words words;
    cc_fatal_request request;   /* written by the asker that moved IDLE to FILLING */
} cc_fw;

static uint64_t cc_fw_clock_ns(clockid_t clock, uint64_t fallback)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) {
        return fallback;
    }
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Waits while the state is `seen`, at most rel (NULL: no limit), or until a signal. */
static void cc_fw_futex_wait(int seen, const struct timespec *rel)
{
    syscall(SYS_futex, (int *)&cc_fw.state, FUTEX_WAIT_PRIVATE, seen, rel, NULL, 0);
}

static void cc_fw_set(int state)
{
    atomic_store(&cc_fw.state, state);
    syscall(SYS_futex, (int *)&cc_fw.state, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Moves from `from` to `to` and wakes the waiters; 1 if the state was `from`. */
static int cc_fw_move(int from, int to)
{
    if (!atomic_compare_exchange_strong(&cc_fw.state, &from, to)) {
        return 0;
    }
    syscall(SYS_futex, (int *)&cc_fw.state, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
    return 1;
}

static void *cc_fw_main(void *arg)
{
    (void)arg;
    atomic_store(&cc_fw.tid, (long)syscall(SYS_gettid));
    for (;;) {
        int s = atomic_load(&cc_fw.state);
        if (s == CC_FW_NONE || s == CC_FW_GONE) {
            return NULL;
        }
        if (s != CC_FW_ASKED) {
            cc_fw_futex_wait(s, NULL);
            continue;
        }
        if (!cc_fw_move(CC_FW_ASKED, CC_FW_BUSY)) {
            continue;
        }
        cc_fatal_request r = cc_fw.request;
        cc_fw.words.last_words(&r);
        cc_fw_move(CC_FW_BUSY, CC_FW_DONE); /* not over GONE: the asker gave up meanwhile */
    }
}

int cc_fatal_writer_start(const cc_fatal_words *words)
{
    if (atomic_load(&cc_fw.state) != CC_FW_NONE) {
        return 0;
    }
    if (words == NULL || words->last_words == NULL) {
        return -1;
    }
    cc_fw.words = *words;
    cc_fw.pid = getpid();
    atomic_store(&cc_fw.tid, 0);
    atomic_store(&cc_fw.state, CC_FW_IDLE); /* before the thread looks at it */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits a fully blocked mask */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, cc_fw_main, NULL);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        atomic_store(&cc_fw.state, CC_FW_NONE);
        return -1;
    }
    pthread_setname_np(thread, "cucheck-fatal");
    cc_fw.has_cpu_clock = pthread_getcpuclockid(thread, &cc_fw.cpu_clock) == 0;
    return 0;
}

void cc_fatal_writer_after_fork_child(int start)
{
    int had = atomic_load(&cc_fw.state) != CC_FW_NONE;
    atomic_store(&cc_fw.state, CC_FW_NONE);
    atomic_store(&cc_fw.tid, 0);
    if (had && start) {
        cc_fatal_words words = cc_fw.words;
        cc_fatal_writer_start(&words);
    }
}

/* Waits until the words are said (DONE; for a request of another asker also IDLE, which that
 * asker may set after DONE) or abandons the writer. 1 said, -1 abandoned. */
static int cc_fw_wait(int own_request)
{
    const uint64_t idle_ns = (uint64_t)cc_fw.words.idle_ms * 1000000u;
    const uint64_t limit_ns = (uint64_t)cc_fw.words.limit_ms * 1000000u;
    const uint64_t progress_ns = 1000000u; /* CPU time that counts as progress */
    const struct timespec step = {0, 10 * 1000 * 1000};
    uint64_t start = cc_fw_clock_ns(CLOCK_MONOTONIC, 0);
    uint64_t last_progress = start;
    uint64_t cpu_mark = cc_fw.has_cpu_clock ? cc_fw_clock_ns(cc_fw.cpu_clock, 0) : 0;
    for (;;) {
        int s = atomic_load(&cc_fw.state);
        if (s == CC_FW_DONE || (!own_request && s == CC_FW_IDLE)) {
            return 1;
        }
        if (s == CC_FW_GONE || s == CC_FW_NONE) {
            return -1;
        }
        cc_fw_futex_wait(s, &step);
        uint64_t now = cc_fw_clock_ns(CLOCK_MONOTONIC, start);
        uint64_t cpu = cc_fw.has_cpu_clock ? cc_fw_clock_ns(cc_fw.cpu_clock, cpu_mark) : cpu_mark;
        if (cpu >= cpu_mark + progress_ns) {
            cpu_mark = cpu;
            last_progress = now;
        }
        if (now - last_progress >= idle_ns || now - start >= limit_ns) {
            /* Stuck (most likely on a lock the stopped thread holds) or too long: give up,
             * unless the words were said meanwhile. */
            if (cc_fw_move(CC_FW_FILLING, CC_FW_GONE) || cc_fw_move(CC_FW_ASKED, CC_FW_GONE) ||
                cc_fw_move(CC_FW_BUSY, CC_FW_GONE)) {
                return -1;
            }
        }
    }
}

int cc_fatal_say(int kind, int code, int ends_process)
{
    int saved_errno = errno;
    int s = atomic_load(&cc_fw.state);
    long self = (long)syscall(SYS_gettid);
    if (s == CC_FW_NONE || getpid() != cc_fw.pid || self == atomic_load(&cc_fw.tid)) {
        errno = saved_errno;
        return 0;
    }
    cc_fatal_request r;
    r.kind = kind;
    r.code = code;
    r.ends_process = ends_process;
    r.tid = (uint32_t)self;
    r.timestamp_ns = cc_fw_clock_ns(CLOCK_MONOTONIC, 0);
    if (cc_fw.words.in_handler != NULL) {
        cc_fw.words.in_handler(&r);
    }
    int rc;
    if (cc_fw_move(CC_FW_IDLE, CC_FW_FILLING)) {
        cc_fw.request = r;
        cc_fw_set(CC_FW_ASKED);
        rc = cc_fw_wait(1);
        if (rc == 1 && !ends_process) {
            cc_fw_move(CC_FW_DONE, CC_FW_IDLE); /* the program may recover: serve later ones */
        }
    } else {
        rc = cc_fw_wait(0); /* another request is in progress: its words are ours too */
    }
    errno = saved_errno;
    return rc;
}
