#!/usr/bin/env bash
# agent_fatal.sh: the real agent's last words (docs/agent.md, Limits: "Fatal signals"): a program
# that crashes (NULL dereference on the main thread or on another thread, abort(), a crash
# inside the program's own allocator with its lock held) or ends with _exit() (directly, or from
# its own SIGSEGV handler) under `cucheck memcheck` ends with its own status within a bounded
# time, its report is collected, and its recording ends with the PROCESS_EXIT the fatal writer
# wrote for the thread that stopped (reason, code, that thread's id). The program brings its
# own malloc (a bump allocator behind one lock, as jemalloc or tcmalloc would), which the agent
# then uses too. Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
CUCHECK_BIN="$1"
BINARY_DIR="$3"
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
[ -f "$AGENT" ] || { echo "skip: $AGENT not built"; exit 77; }
CC="${CC:-cc}"
command -v "$CC" >/dev/null 2>&1 || { echo "skip: no C compiler to build the test program"; exit 77; }
unset CUCHECK_AGENT

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

cat > "$tmp/stops.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HEAP_BYTES (256u << 20)
static unsigned char heap[HEAP_BYTES] __attribute__((aligned(4096)));
static size_t heap_used;
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int fault_in_malloc;
static int *volatile nowhere;
static void *volatile kept;

static void *take(size_t align, size_t n) {
    pthread_mutex_lock(&heap_lock);
    if (fault_in_malloc) *nowhere = 1; /* malloc's lock is held here */
    size_t start = (heap_used + 16 + align - 1) & ~(align - 1);
    void *p = NULL;
    if (start <= HEAP_BYTES && n <= HEAP_BYTES - start) {
        ((size_t *)(heap + start))[-1] = n;
        heap_used = start + n;
        p = heap + start;
    }
    pthread_mutex_unlock(&heap_lock);
    if (!p) errno = ENOMEM;
    return p;
}
void *malloc(size_t n) { return take(16, n); }
void free(void *p) { (void)p; }
void *calloc(size_t a, size_t b) {
    if (b && a > SIZE_MAX / b) { errno = ENOMEM; return NULL; }
    void *p = take(16, a * b);
    if (p) memset(p, 0, a * b);
    return p;
}
void *realloc(void *p, size_t n) {
    void *q = take(16, n);
    if (q && p) { size_t o = ((size_t *)p)[-1]; memcpy(q, p, o < n ? o : n); }
    return q;
}
void *memalign(size_t a, size_t n) { return take(a < 16 ? 16 : a, n); }
int posix_memalign(void **r, size_t a, size_t n) { *r = memalign(a, n); return *r ? 0 : ENOMEM; }
void *aligned_alloc(size_t a, size_t n) { return memalign(a, n); }
void *valloc(size_t n) { return memalign(4096, n); }
void *pvalloc(size_t n) { return memalign(4096, (n + 4095) & ~(size_t)4095); }
size_t malloc_usable_size(void *p) { return p ? ((size_t *)p)[-1] : 0; }

static void say_tid(void) { fprintf(stderr, "stopping thread %ld\n", (long)syscall(SYS_gettid)); }
static void on_segv(int sig) { (void)sig; _exit(7); }
static void *crash_thread(void *arg) { (void)arg; say_tid(); *nowhere = 1; return NULL; }

int main(int argc, char **argv) {
    const char *how = argc > 1 ? argv[1] : "";
    kept = malloc(100); /* the allocator works */
    if (!strcmp(how, "thread")) {
        pthread_t t;
        pthread_create(&t, NULL, crash_thread, NULL);
        pthread_join(t, NULL);
        return 0;
    }
    say_tid();
    if (!strcmp(how, "segv")) *nowhere = 1;
    if (!strcmp(how, "abort")) abort();
    if (!strcmp(how, "exit")) _exit(5);
    if (!strcmp(how, "handler")) { signal(SIGSEGV, on_segv); *nowhere = 1; }
    if (!strcmp(how, "malloc")) { fault_in_malloc = 1; kept = malloc(64); }
    return 0;
}
C
"$CC" -O1 -pthread -o "$tmp/stops" "$tmp/stops.c" || { echo "FAIL: cannot build the program"; exit 1; }

# check MODE EXPECTED_STATUS REASON CODE
check() {
    local mode="$1" want="$2" reason="$3" code="$4"
    rm -f "$tmp"/rec.*.cuevt
    local t0 t1
    t0=$(date +%s)
    timeout -k 5 60 "$CUCHECK_BIN" --record "$tmp/rec.%p.cuevt" memcheck -- "$tmp/stops" "$mode" \
        >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    t1=$(date +%s)
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL $mode: exit status $rc, expected $want: $(head -c 600 "$tmp/err")"; fail=1; return
    fi
    if [ $((t1 - t0)) -gt 20 ]; then
        echo "FAIL $mode: took $((t1 - t0)) s"; fail=1
    fi
    grep -q "in 1 process report" "$tmp/err" || { echo "FAIL $mode: report not collected: $(cat "$tmp/err")"; fail=1; }
    local tid
    tid="$(sed -n 's/^stopping thread //p' "$tmp/err")"
    local last
    last="$("$CUCHECK_BIN" dump "$tmp"/rec.*.cuevt 2>&1 | tail -1)"
    case "$last" in
        "process_exit "*" tid=$tid reason=$reason code=$code") echo "ok   $mode: $last" ;;
        *) echo "FAIL $mode: the recording ends with '$last', expected process_exit tid=$tid reason=$reason code=$code"; fail=1 ;;
    esac
}

check segv 139 signal 11
check thread 139 signal 11
check abort 134 abort 6
check exit 5 fast 5
check handler 7 fast 7
check malloc 139 signal 11
exit $fail
