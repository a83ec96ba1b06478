/* The agent's fatal-signal path (src/agent/entry/fatal_signal.c and fatal_writer.c) around a
 * real checking session (streamcheck, its reporter writing a JSON Lines report): each case runs
 * in a child process that writes a finding, then crashes, and the parent checks how the child
 * ended, how long it took and what its report holds.
 *  - a SIGSEGV while the session's lock is held (inside the session's stack resolver, which the
 *    session calls under its lock; the agent's symbolizer runs there): the last words wait for
 *    that lock, are abandoned, and the child still dies of SIGSEGV within the idle limit, its
 *    finding in the report; the same for a crash inside malloc with malloc's lock held (this
 *    program has its own allocator, as programs linked with jemalloc or tcmalloc do, and the
 *    last words allocate);
 *  - a crash with no lock held: the last words are said (PROCESS_EXIT reaches the tool, a note
 *    is written), SIGSEGV and SIGABRT end the child with their own signal;
 *  - last words that keep the CPU busy past the idle limit (1.5 of it) are waited for; past
 *    the overall limit they are abandoned; last words that crash end the process at once;
 *  - a handler the program installed before the agent's runs after a flush-only request;
 *  - two threads crashing together: the words are said once. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent/entry/fatal_signal.h"
#include "agent/entry/fatal_writer.h"
#include "core/evtio.h"
#include "core/report.h"
#include "core/session.h"
#include "cucheck/tool.h"

/* Limits with room for a loaded machine (two cores shared by a build and this test): a busy
 * writer that gets a third of a core still shows progress within IDLE_MS, and its 1.5 idle
 * limits of CPU time fit in LIMIT_MS of wall time. */
#define IDLE_MS 1000u
#define LIMIT_MS 6000u
/* "at once": below the writer's time limit (LIMIT_MS), the next longer wait a wrong handler
 * could take, with room for a loaded machine (2 s was passed under a parallel ctest and CI) */
#define QUICK_S 4.5
#define HANG_S 20 /* a child still alive after this long hung: killed, and the case fails */

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

/* Two cross-stream races; the second names stacks the first did not define. */
static const char *race1 =
    "stream_create stream=s1 flags=0x1\n"
    "stream_create stream=s2 flags=0x1\n"
    "alloc mem_kind=device address=0x10000 size=4096 callsite=a1\n"
    "launch name=writer_one grid=1 block=32 stream=s1 launch_id=1 callsite=w1\n"
    "access launch_id=1 address=0x10000 size=4096 flags=0x2\n"
    "launch name=reader_one grid=1 block=32 stream=s2 launch_id=2 callsite=r1\n"
    "access launch_id=2 address=0x10000 size=4096 flags=0x1\n";
static const char *race2 =
    "alloc mem_kind=device address=0x90000 size=4096 callsite=a2\n"
    "launch name=writer_two grid=1 block=32 stream=s1 launch_id=3 callsite=w2\n"
    "access launch_id=3 address=0x90000 size=4096 flags=0x2\n"
    "launch name=reader_two grid=1 block=32 stream=s2 launch_id=4 callsite=r2\n"
    "access launch_id=4 address=0x90000 size=4096 flags=0x1\n";

typedef enum how {
    CRASH_IN_SESSION_LOCK, /* SIGSEGV inside the session's stack resolver */
    CRASH_IN_MALLOC,       /* SIGSEGV inside malloc, its lock held */
    CRASH_PLAIN,           /* SIGSEGV with no lock held */
    CRASH_ABORT,           /* abort() with no lock held */
    WORDS_BUSY,            /* the last words use 1.5 idle limits of CPU, then finish */
    WORDS_ENDLESS,         /* the last words never finish */
    WORDS_CRASH,           /* the last words crash */
    PROGRAM_HANDLER,       /* a handler installed before the agent's exits with 42 */
    TWO_THREADS,           /* two threads crash at once */
} how;

static cc_session *session;
static how mode;
static volatile int fault_in_resolver;
static volatile int fault_in_malloc;
static void *volatile kept; /* keeps the compiler from dropping an allocation */

static int *volatile nowhere; /* NULL, unknown to the compiler */

static void crash(void)
{
    *nowhere = 1; /* a real fault (SIGSEGV with si_code > 0), not a sent signal */
}

/* The program's allocator: a bump allocator behind one lock (each block keeps its size in the
 * 16 bytes before it; free keeps nothing). Every allocation of the process comes here, the
 * cucheck libraries' and libc's included. */
#define HEAP_BYTES (64u << 20)
static unsigned char heap[HEAP_BYTES] __attribute__((aligned(4096)));
static size_t heap_used;
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;

static void *heap_take(size_t align, size_t n)
{
    pthread_mutex_lock(&heap_lock);
    if (fault_in_malloc) {
        crash(); /* malloc's lock is held here */
    }
    size_t start = (heap_used + 16 + align - 1) & ~(align - 1);
    void *p = NULL;
    if (start <= HEAP_BYTES && n <= HEAP_BYTES - start) {
        ((size_t *)(heap + start))[-1] = n;
        heap_used = start + n;
        p = heap + start;
    }
    pthread_mutex_unlock(&heap_lock);
    if (p == NULL) {
        errno = ENOMEM;
    }
    return p;
}

void *malloc(size_t n)
{
    return heap_take(16, n);
}

void free(void *p)
{
    (void)p;
}

void *calloc(size_t a, size_t b)
{
    if (b != 0 && a > SIZE_MAX / b) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = heap_take(16, a * b);
    if (p != NULL) {
        memset(p, 0, a * b);
    }
    return p;
}

void *realloc(void *p, size_t n)
{
    void *q = heap_take(16, n);
    if (q != NULL && p != NULL) {
        size_t old = ((size_t *)p)[-1];
        memcpy(q, p, old < n ? old : n);
    }
    return q;
}

void *memalign(size_t align, size_t n)
{
    return heap_take(align < 16 ? 16 : align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    *out = memalign(align, n);
    return *out != NULL ? 0 : ENOMEM;
}

void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

void *valloc(size_t n)
{
    return memalign(4096, n);
}

void *pvalloc(size_t n)
{
    return memalign(4096, (n + 4095) & ~(size_t)4095);
}

size_t malloc_usable_size(void *p)
{
    return p != NULL ? ((size_t *)p)[-1] : 0;
}

static void burn_cpu_ms(unsigned ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    do {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static int resolver(uint64_t id, cc_session_stack_sink sink, void *sink_arg, void *arg)
{
    (void)arg;
    if (fault_in_resolver) {
        crash(); /* the session's lock is held here */
    }
    char text[64];
    snprintf(text, sizeof text, "frame_%llu (app.cu:7)", (unsigned long long)id);
    cc_stack_frame frame = {.pc = 0x1000, .text = text};
    cc_ev_host_stack st;
    memset(&st, 0, sizeof st);
    st.id = id;
    st.nframes = 1;
    st.frames = &frame;
    sink(&st, sink_arg);
    return 0;
}

/* What the agent's last words do (src/agent/entry/exit_handlers.c), against the session. */
static void last_words(const cc_fatal_request *r)
{
    if (mode == WORDS_CRASH) {
        crash();
    }
    if (mode == WORDS_BUSY) {
        burn_cpu_ms(3 * IDLE_MS / 2);
    }
    if (mode == WORDS_ENDLESS) {
        for (;;) {
            burn_cpu_ms(1000);
        }
    }
    if (r->ends_process) {
        cc_event ev;
        memset(&ev, 0, sizeof ev);
        ev.h.kind = CC_EV_PROCESS_EXIT;
        ev.h.tid = r->tid;
        ev.u.process_exit.reason = r->code == SIGABRT ? CC_EXIT_ABORT : CC_EXIT_SIGNAL;
        ev.u.process_exit.code = r->code;
        cc_session_event(session, &ev);
    }
    char *note = malloc(128); /* the analysis allocates */
    if (note != NULL) {
        snprintf(note, 128, "last words: signal %d, ends_process %d", r->code, r->ends_process);
        cc_reporter_note(cc_session_reporter(session), note);
    }
    cc_reporter_flush(cc_session_reporter(session));
}

static void replay(const char *scn)
{
    char err[256] = "";
    cc_evt_reader *rd = cc_evt_reader_open_mem(scn, strlen(scn), 1, err, sizeof err);
    if (rd == NULL) {
        fprintf(stderr, "scenario: %s\n", err);
        _exit(90);
    }
    cc_event ev;
    while (cc_evt_read(rd, &ev, err, sizeof err) == 1) {
        cc_session_event(session, &ev);
    }
    cc_evt_reader_close(rd);
}

static void program_handler(int sig)
{
    (void)sig;
    _exit(42);
}

static pthread_barrier_t together;

static void *crash_together(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&together);
    crash();
    return NULL;
}

static void child(how m, const char *report)
{
    mode = m;
    cc_session_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tool = cc_tool_find("streamcheck");
    cfg.report.jsonl_path = report;
    cfg.report.tool = "streamcheck";
    char err[256] = "";
    session = cc_session_open(&cfg, err, sizeof err);
    if (session == NULL) {
        fprintf(stderr, "session: %s\n", err);
        _exit(91);
    }
    cc_session_set_stack_resolver(session, resolver, NULL);
    if (m == PROGRAM_HANDLER) {
        signal(SIGSEGV, program_handler);
    }
    cc_fatal_words words = {.last_words = last_words, .idle_ms = IDLE_MS, .limit_ms = LIMIT_MS};
    if (cc_fatal_writer_start(&words) != 0) {
        _exit(92);
    }
    cc_fatal_signals_install();
    replay(race1); /* one finding, written at once */
    switch (m) {
    case CRASH_IN_SESSION_LOCK:
        fault_in_resolver = 1;
        replay(race2);
        break;
    case CRASH_IN_MALLOC:
        fault_in_malloc = 1;
        kept = malloc(64);
        break;
    case CRASH_ABORT:
        abort();
    case TWO_THREADS: {
        pthread_t t[2];
        pthread_barrier_init(&together, NULL, 3);
        for (int i = 0; i < 2; i++) {
            pthread_create(&t[i], NULL, crash_together, NULL);
        }
        pthread_barrier_wait(&together);
        pause();
        break;
    }
    default:
        crash();
    }
    _exit(93); /* not reached */
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return calloc(1, 1);
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    size_t k;
    while (buf != NULL && (k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            char *more = realloc(buf, 2 * cap + 1);
            if (more == NULL) {
                break;
            }
            buf = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf != NULL) {
        buf[len] = '\0';
    }
    return buf != NULL ? buf : calloc(1, 1);
}

typedef struct expect {
    const char *name;
    how m;
    int signal;        /* the signal that must end the child; 0: exit status `status` */
    int status;
    double at_least_s; /* bounds on how long the child took */
    double at_most_s;
    int words_notes;   /* "last words" notes in the report */
    const char *note;  /* a text the note must hold, or NULL */
} expect;

static void run_case(const expect *e)
{
    char report[] = "/tmp/cc-fatal-test-XXXXXX";
    int fd = mkstemp(report);
    if (fd < 0) {
        CHECK(0, "%s: mkstemp: %s", e->name, strerror(errno));
        return;
    }
    close(fd);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        child(e->m, report);
    }
    int st = 0;
    pid_t got = 0;
    while ((got = waitpid(pid, &st, WNOHANG)) == 0 && now_s() - t0 < HANG_S) {
        struct timespec ms = {0, 5 * 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    double took = now_s() - t0;
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        CHECK(0, "%s: the child hung (killed after %d s)", e->name, HANG_S);
        unlink(report);
        return;
    }
    if (e->signal) {
        CHECK(WIFSIGNALED(st) && WTERMSIG(st) == e->signal,
              "%s: expected death by signal %d, got status 0x%x", e->name, e->signal, st);
    } else {
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == e->status,
              "%s: expected exit status %d, got status 0x%x", e->name, e->status, st);
    }
    CHECK(took >= e->at_least_s && took <= e->at_most_s, "%s: took %.2f s, expected %.2f..%.2f",
          e->name, took, e->at_least_s, e->at_most_s);
    char *text = read_all(report);
    CHECK(count(text, "\"type\":\"finding\"") == 1 && strstr(text, "writer_one") != NULL,
          "%s: the finding written before the crash is not in the report:\n%s", e->name, text);
    CHECK(count(text, "last words:") == e->words_notes, "%s: %d last-words notes, expected %d:\n%s",
          e->name, count(text, "last words:"), e->words_notes, text);
    if (e->note != NULL) {
        CHECK(strstr(text, e->note) != NULL, "%s: no '%s' in the report:\n%s", e->name, e->note,
              text);
    }
    free(text);
    unlink(report);
    printf("%-24s %.2f s\n", e->name, took);
}

int main(void)
{
    const double idle = IDLE_MS / 1000.0, limit = LIMIT_MS / 1000.0;
    const expect cases[] = {
        {"crash in session lock", CRASH_IN_SESSION_LOCK, SIGSEGV, 0, idle, limit - 0.5, 0, NULL},
        {"crash in malloc", CRASH_IN_MALLOC, SIGSEGV, 0, idle, limit - 0.5, 0, NULL},
        {"plain crash", CRASH_PLAIN, SIGSEGV, 0, 0, QUICK_S, 1, "signal 11, ends_process 1"},
        {"abort", CRASH_ABORT, SIGABRT, 0, 0, QUICK_S, 1, "signal 6, ends_process 1"},
        {"busy words", WORDS_BUSY, SIGSEGV, 0, 1.5 * idle, limit + 3, 1, NULL},
        {"endless words", WORDS_ENDLESS, SIGSEGV, 0, limit, limit + 3, 0, NULL},
        {"words crash", WORDS_CRASH, SIGSEGV, 0, 0, QUICK_S, 0, NULL},
        {"program handler", PROGRAM_HANDLER, 0, 42, 0, QUICK_S, 1, "signal 11, ends_process 0"},
        {"two threads", TWO_THREADS, SIGSEGV, 0, 0, QUICK_S, 1, "signal 11, ends_process 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_case(&cases[i]);
    }
    if (failures != 0) {
        fprintf(stderr, "fatal_writer_test: %d failure(s)\n", failures);
        return 1;
    }
    printf("fatal_writer_test: ok\n");
    return 0;
}
