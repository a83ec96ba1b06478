/* fork/pipe helpers of probe_util.h. */
#include "doctor/probe_util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read from fd into buf until EOF, cap bytes or the deadline. Returns bytes read, -1 on
 * timeout. Bytes past cap are drained and dropped. */
static long read_until(int fd, char *buf, size_t cap, long long deadline)
{
    size_t got = 0;
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0)
            return -1;
        struct pollfd pfd = {fd, POLLIN, 0};
        int pr = poll(&pfd, 1, (int)(left > 1000 ? 1000 : left));
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            continue;
        char sink[4096];
        char *dst = got < cap ? buf + got : sink;
        size_t room = got < cap ? cap - got : sizeof sink;
        ssize_t n = read(fd, dst, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return (long)got;
        if (dst != sink)
            got += (size_t)n;
    }
}

static int reap(pid_t pid, int killed)
{
    int st = 0;
    if (killed)
        kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

long cc_doc_in_child(cc_doc_child_fn fn, void *arg, void *out, size_t cap, int timeout_ms,
                     char *err, size_t errlen)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) { /* libraries may print while loading */
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        char *buf = malloc(cap ? cap : 1);
        size_t n = buf ? fn(arg, buf, cap) : 0;
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(fds[1], buf + off, n - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    long got = read_until(fds[0], out, cap, now_ms() + timeout_ms);
    close(fds[0]);
    int st = reap(pid, got < 0);
    if (got < 0) {
        snprintf(err, errlen, "timed out after %d ms", timeout_ms);
        return -1;
    }
    if (st > 128) {
        snprintf(err, errlen, "the probe crashed (signal %d: %s)", st - 128, strsignal(st - 128));
        return -1;
    }
    if (got == 0) {
        snprintf(err, errlen, "the probe returned nothing (exit status %d)", st);
        return -1;
    }
    return got;
}

int cc_doc_run_capture(char *const argv[], char *const extra_env[], int merge_stderr,
                       int timeout_ms, char *out, size_t cap, int *status, char *err,
                       size_t errlen)
{
    int fds[2];
    if (cap)
        out[0] = 0;
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    int execfd[2]; /* reports an exec failure */
    if (pipe2(execfd, O_CLOEXEC) != 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        close(execfd[0]);
        close(execfd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        close(execfd[0]);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(fds[1], 1);
        if (merge_stderr)
            dup2(fds[1], 2);
        else if (devnull >= 0)
            dup2(devnull, 2);
        for (int i = 0; extra_env && extra_env[i]; i++)
            putenv(extra_env[i]);
        execvp(argv[0], argv);
        int e = errno;
        if (write(execfd[1], &e, sizeof e) < 0) {
        }
        _exit(127);
    }
    close(fds[1]);
    close(execfd[1]);
    long got = read_until(fds[0], out, cap ? cap - 1 : 0, now_ms() + timeout_ms);
    close(fds[0]);
    int st = reap(pid, got < 0);
    int e = 0;
    ssize_t en = read(execfd[0], &e, sizeof e);
    close(execfd[0]);
    if (en == (ssize_t)sizeof e) {
        snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
        return -1;
    }
    if (got < 0) {
        snprintf(err, errlen, "%s timed out after %d ms", argv[0], timeout_ms);
        return -1;
    }
    if (cap)
        out[got] = 0;
    *status = st;
    return 0;
}

long cc_doc_read_small_file(const char *path, char *buf, size_t cap)
{
    if (cap == 0)
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = 0;
    return (long)n;
}
