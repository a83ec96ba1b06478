/* Spawning the checked program and waiting for it, with signal forwarding; the quiet, timed run
 * of the second run (spawn.h). */
#include "cli/spawn.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

static const int FORWARDED[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFORWARDED (sizeof FORWARDED / sizeof FORWARDED[0])

static volatile sig_atomic_t g_child;

static void forward(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    /* SI_KERNEL: sent by the terminal to the whole foreground process group, child included. */
    if (info && info->si_code == SI_KERNEL) {
        return;
    }
    pid_t child = (pid_t)g_child;
    if (child > 0) {
        int saved = errno;
        kill(child, sig);
        errno = saved;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cc_spawn_exec_status(int exec_errno)
{
    return exec_errno == ENOENT || exec_errno == ENOTDIR ? 127 : 126;
}

int cc_spawn_wait(char *const argv[], cc_spawn_result *r)
{
    memset(r, 0, sizeof *r);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        return -1;
    }
    struct sigaction old[NFORWARDED], sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigset_t block, oldmask;
    sigemptyset(&block);
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaddset(&block, FORWARDED[i]);
    }
    /* Block the forwarded signals until the child's pid is known to the handler. */
    sigprocmask(SIG_BLOCK, &block, &oldmask);
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaction(FORWARDED[i], &sa, &old[i]);
    }
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        for (size_t i = 0; i < NFORWARDED; i++) {
            sigaction(FORWARDED[i], &old[i], NULL);
        }
        sigprocmask(SIG_SETMASK, &oldmask, NULL);
        close(fds[0]);
        close(fds[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        for (size_t i = 0; i < NFORWARDED; i++) {
            sigaction(FORWARDED[i], &old[i], NULL);
        }
        sigprocmask(SIG_SETMASK, &oldmask, NULL);
        close(fds[0]);
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(fds[1], &e, sizeof e);
        (void)w;
        _exit(cc_spawn_exec_status(e));
    }
    g_child = pid;
    r->pid = (long)pid;
    sigprocmask(SIG_SETMASK, &oldmask, NULL);
    close(fds[1]);

    int e = 0;
    ssize_t n;
    do {
        n = read(fds[0], &e, sizeof e);
    } while (n < 0 && errno == EINTR);
    close(fds[0]);
    if (n == (ssize_t)sizeof e) {
        r->exec_errno = e ? e : ENOEXEC;
    }

    int status = 0;
    pid_t w;
    do {
        w = waitpid(pid, &status, 0);
    } while (w < 0 && errno == EINTR);
    r->wall_s = now_s() - t0;

    sigprocmask(SIG_BLOCK, &block, &oldmask);
    g_child = 0;
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaction(FORWARDED[i], &old[i], NULL);
    }
    sigprocmask(SIG_SETMASK, &oldmask, NULL);

    if (w < 0) {
        r->code = 1;
        return 0;
    }
    if (WIFSIGNALED(status)) {
        r->signo = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        r->code = WEXITSTATUS(status);
    }
    return 0;
}

static volatile sig_atomic_t g_quiet_stop;

static void quiet_stop(int sig)
{
    (void)sig;
    g_quiet_stop = 1;
}

/* The child of cc_spawn_quiet: its own group, no terminal, then the program. */
static void quiet_child(char *const argv[], void (*in_child)(void *), void *arg, int err_fd,
                        const struct sigaction *old, const sigset_t *oldmask)
{
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaction(FORWARDED[i], &old[i], NULL);
    }
    sigprocmask(SIG_SETMASK, oldmask, NULL);
    setpgid(0, 0);
    int null = open("/dev/null", O_RDWR);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) {
        int e = errno;
        ssize_t w = write(err_fd, &e, sizeof e);
        (void)w;
        _exit(126);
    }
    if (null > 2) {
        close(null);
    }
    if (in_child != NULL) {
        in_child(arg);
    }
    execvp(argv[0], argv);
    int e = errno;
    ssize_t w = write(err_fd, &e, sizeof e);
    (void)w;
    _exit(cc_spawn_exec_status(e));
}

int cc_spawn_quiet(char *const argv[], double limit_s, void (*in_child)(void *), void *arg,
                   cc_spawn_result *r, cc_spawn_end *end)
{
    memset(r, 0, sizeof *r);
    *end = CC_SPAWN_ENDED;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        return -1;
    }
    struct sigaction old[NFORWARDED], sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = quiet_stop;
    sigemptyset(&sa.sa_mask);
    sigset_t block, oldmask;
    sigemptyset(&block);
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaddset(&block, FORWARDED[i]);
    }
    sigprocmask(SIG_BLOCK, &block, &oldmask);
    g_quiet_stop = 0;
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaction(FORWARDED[i], &sa, &old[i]);
    }
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        quiet_child(argv, in_child, arg, fds[1], old, &oldmask);
    }
    int fork_errno = errno;
    if (pid > 0) {
        setpgid(pid, pid); /* as the child does: whichever runs first */
        r->pid = (long)pid;
    }
    sigprocmask(SIG_SETMASK, &oldmask, NULL);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        for (size_t i = 0; i < NFORWARDED; i++) {
            sigaction(FORWARDED[i], &old[i], NULL);
        }
        errno = fork_errno;
        return -1;
    }
    int e = 0;
    ssize_t n;
    do {
        n = read(fds[0], &e, sizeof e);
    } while (n < 0 && errno == EINTR && !g_quiet_stop);
    close(fds[0]);
    if (n == (ssize_t)sizeof e) {
        r->exec_errno = e ? e : ENOEXEC;
    }
    /* Wait without reaping (WNOWAIT) so that the group's id stays the program's until what it
     * left running in its group is killed. */
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        int rc = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
        if ((rc == 0 && info.si_pid == pid) || (rc < 0 && errno != EINTR)) {
            break;
        }
        if (g_quiet_stop || now_s() - t0 > limit_s) {
            *end = g_quiet_stop ? CC_SPAWN_INTERRUPTED : CC_SPAWN_TIMED_OUT;
            break;
        }
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL); /* at the limit all of it, else what it left running in its group */
    int status = 0;
    pid_t w;
    do {
        w = waitpid(pid, &status, 0);
    } while (w < 0 && errno == EINTR);
    r->wall_s = now_s() - t0;
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaction(FORWARDED[i], &old[i], NULL);
    }
    if (w < 0) {
        r->code = 1;
    } else if (WIFSIGNALED(status)) {
        r->signo = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        r->code = WEXITSTATUS(status);
    }
    return 0;
}
